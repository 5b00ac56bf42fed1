"""memory_record_feedback: was a retrieved record useful? (The query is validated and never kept.)"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import FeedbackRequest
from memvault.core.vocabulary.results import Ok
from memvault.mcp_bridge.tool_gate import ToolSpec, mutating
from memvault.mcp_bridge.tools import schemas
from memvault.mcp_bridge.tools.vocabulary import MemoryIdArg


def memory_record_feedback(
    vault: Vault,
    caller: Caller,
    id: MemoryIdArg,
    useful: Annotated[bool, Field(description="did the record help with the request?")],
    query: Annotated[str | None, Field(description="the request it was retrieved for (not stored)")] = None,
    note: Annotated[str | None, Field(description="a short note for the person")] = None,
) -> Ok:
    return vault.record_feedback(caller, FeedbackRequest.of(id=id, useful=useful, query=query, note=note))


TOOLS = [
    ToolSpec(
        name="memory_record_feedback",
        title="Rate a memory",
        fn=memory_record_feedback,
        description="Tell memvault whether a retrieved record was useful; it tunes future ranking.",
        annotations=mutating(destructive=False, idempotent=False),
        output_schema=schemas.FEEDBACK,
    )
]
