"""memory_get, memory_list and memory_status: reading records and the store's state."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import ListRequest
from memvault.core.vocabulary.results import RecordPage, RecordView, StatusAnswer
from memvault.mcp_bridge.tool_gate import ToolSpec, read_only
from memvault.mcp_bridge.tools import schemas
from memvault.mcp_bridge.tools.vocabulary import MemoryIdArg, StatusName, TypeName


def memory_get(vault: Vault, caller: Caller, id: MemoryIdArg) -> RecordView:
    return vault.get(caller, id)


def memory_list(
    vault: Vault,
    caller: Caller,
    domain: Annotated[str | None, Field(description="only this domain")] = None,
    type: Annotated[TypeName | None, Field(description="only this record type")] = None,
    status: Annotated[StatusName, Field(description="records in this state")] = "current",
    limit: Annotated[int, Field(ge=1, le=200, description="most records on one page")] = 50,
    cursor: Annotated[str | None, Field(description="next_cursor of the previous page")] = None,
) -> RecordPage:
    request = ListRequest.of(domain=domain, type=type, status=status, limit=limit, cursor=cursor)
    return vault.list_memories(caller, request)


def memory_status(vault: Vault, caller: Caller) -> StatusAnswer:
    return vault.status(caller)


TOOLS = [
    ToolSpec(
        name="memory_get",
        title="Get a memory",
        fn=memory_get,
        description="One record by id, with its older versions (newest first), its links and its entities.",
        annotations=read_only(),
        output_schema=schemas.GET,
    ),
    ToolSpec(
        name="memory_list",
        title="List memories",
        fn=memory_list,
        description=(
            "Records newest first, filtered by domain, type and status (default current; archived records are "
            "listed only with status=archived). Page with next_cursor."
        ),
        annotations=read_only(),
        output_schema=schemas.LIST,
    ),
    ToolSpec(
        name="memory_status",
        title="Memory status",
        fn=memory_status,
        description=(
            "How the memory is set up: versions, counts of what you may see, write mode, kill switch, "
            "embeddings and proposals waiting for approval."
        ),
        annotations=read_only(),
        output_schema=schemas.STATUS,
    ),
]
