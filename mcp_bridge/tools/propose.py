"""memory_propose: the writer pass over candidate memories (classified against the store, then written)."""

from __future__ import annotations

from typing import Annotated, Required

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import ProposeRequest
from memvault.core.vocabulary.results import ProposeResult
from memvault.mcp_bridge.tool_gate import ToolSpec, mutating
from memvault.mcp_bridge.tools import schemas
from memvault.mcp_bridge.tools.vocabulary import ExplicitnessName, ScopeName, SensitivityName, TypeName
from memvault.mcp_bridge.tools.writes import Link


class Candidate(TypedDict, total=False):
    """The fields of memory_add (only `statement` is required); unknown fields are refused."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]

    statement: Required[str]
    type: TypeName
    domain: str | None
    tags: list[str] | None
    importance: float
    confidence: float
    explicitness: ExplicitnessName
    source: str | None
    source_reference: str | None
    evidence: str | None
    event_time: str | None
    valid_from: str | None
    valid_until: str | None
    due_at: str | None
    access_scope: ScopeName | None
    sensitivity: SensitivityName
    entities: list[str] | None
    links: list[Link] | None


def memory_propose(
    vault: Vault,
    caller: Caller,
    candidates: Annotated[
        list[Candidate], Field(min_length=1, max_length=50, description="memories worth keeping, as for memory_add")
    ],
    conversation_ref: Annotated[
        str | None, Field(description="a one-line pointer to the conversation (never its text)")
    ] = None,
) -> ProposeResult:
    request = ProposeRequest.of(candidates=[dict(c) for c in candidates], conversation_ref=conversation_ref)
    return vault.propose(caller, request)


TOOLS = [
    ToolSpec(
        name="memory_propose",
        title="Propose memories",
        fn=memory_propose,
        description=(
            "The writer pass: each candidate is compared with what the store already holds and classified ADD, "
            "SUPERSEDE, ARCHIVE or NO_CHANGE; the write mode decides what is committed (corrections and archives "
            "always wait for the person's approval). Use it at the end of a conversation instead of many "
            "memory_add calls."
        ),
        # Additive for any MCP caller: what would supersede or archive a record waits in the approval inbox.
        annotations=mutating(destructive=False, idempotent=False),
        output_schema=schemas.PROPOSE,
    )
]
