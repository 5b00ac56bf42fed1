"""memory_add, memory_correct, memory_archive and memory_restore: changes, through the writer and write mode."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from typing_extensions import TypedDict

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest
from memvault.core.vocabulary.results import AddResult, ArchiveResult, CorrectResult, RestoreResult
from memvault.mcp_bridge.tool_gate import ToolSpec, mutating
from memvault.mcp_bridge.tools import schemas
from memvault.mcp_bridge.tools.vocabulary import (
    ExplicitnessName,
    MemoryIdArg,
    ScopeName,
    SensitivityName,
    Time,
    TypeName,
    WritableLinkName,
)

Unit = Annotated[float, Field(ge=0.0, le=1.0)]


class Link(TypedDict):
    type: WritableLinkName
    target_id: str


def memory_add(
    vault: Vault,
    caller: Caller,
    statement: Annotated[str, Field(description="one durable statement, in the person's terms")],
    type: Annotated[TypeName, Field(description="what kind of record")] = "FACT",
    domain: Annotated[str | None, Field(description="life or work area; assigned when absent")] = None,
    tags: list[str] | None = None,
    importance: Annotated[Unit, Field(description="0..1")] = 0.5,
    confidence: Annotated[Unit, Field(description="0..1")] = 0.8,
    explicitness: Annotated[ExplicitnessName, Field(description="said outright, or inferred")] = "explicit",
    source: str | None = None,
    source_reference: str | None = None,
    evidence: Annotated[str | None, Field(description="short supporting quote or pointer")] = None,
    event_time: Time = None,
    valid_from: Time = None,
    valid_until: Time = None,
    due_at: Annotated[str | None, Field(description="when a NEXT_ACTION, GOAL or OPEN_QUESTION is due")] = None,
    access_scope: Annotated[
        ScopeName | None,
        Field(description="who may read it; default: the caller's own scope (local_only for local callers)"),
    ] = None,
    sensitivity: Annotated[SensitivityName, Field(description="normal, personal or sensitive")] = "normal",
    entities: Annotated[list[str] | None, Field(description="names of people, places, things it mentions")] = None,
    links: Annotated[list[Link] | None, Field(description="typed links to existing records")] = None,
) -> AddResult:
    given = {
        "type": type,
        "domain": domain,
        "tags": tags,
        "importance": importance,
        "confidence": confidence,
        "explicitness": explicitness,
        "source": source,
        "source_reference": source_reference,
        "evidence": evidence,
        "event_time": event_time,
        "valid_from": valid_from,
        "valid_until": valid_until,
        "due_at": due_at,
        "access_scope": access_scope,
        "sensitivity": sensitivity,
        "entities": entities,
        "links": [dict(link) for link in links] if links is not None else None,
    }
    return vault.add(caller, Draft.parse({"statement": statement, **given}))


def memory_correct(
    vault: Vault,
    caller: Caller,
    id: MemoryIdArg,
    statement: Annotated[str, Field(description="what is true now")],
    reason: Annotated[str | None, Field(description="why it changed")] = None,
    valid_from: Annotated[str | None, Field(description="since when the new statement holds; default now")] = None,
    expected_revision: Annotated[
        int | None, Field(ge=1, description="refuse with conflict if the record has moved on")
    ] = None,
) -> CorrectResult:
    request = CorrectRequest.of(
        id=id, statement=statement, reason=reason, valid_from=valid_from, expected_revision=expected_revision
    )
    return vault.correct(caller, request)


def memory_archive(
    vault: Vault,
    caller: Caller,
    id: MemoryIdArg,
    reason: Annotated[str | None, Field(description="why it should no longer be used")] = None,
) -> ArchiveResult:
    return vault.archive(caller, ArchiveRequest.of(id=id, reason=reason))


def memory_restore(vault: Vault, caller: Caller, id: MemoryIdArg) -> RestoreResult:
    return vault.restore(caller, id)


TOOLS = [
    ToolSpec(
        name="memory_add",
        title="Remember",
        fn=memory_add,
        description=(
            "Store one durable statement about the person (not chatter, never secrets). Answers outcome "
            "added, staged (waiting for the person's approval), duplicate (already known; confirmed) or rejected."
        ),
        annotations=mutating(destructive=False, idempotent=False),
        output_schema=schemas.ADD,
        ahead=lambda serving, arguments: serving.expect_add(arguments.get("statement")),
    ),
    ToolSpec(
        name="memory_correct",
        title="Correct a memory",
        fn=memory_correct,
        description=(
            "Replace what a record says: a new record supersedes it; the old one stays as history with its "
            "evidence. Answers outcome superseded or staged."
        ),
        annotations=mutating(destructive=False, idempotent=False),
        output_schema=schemas.CORRECT,
    ),
    ToolSpec(
        name="memory_archive",
        title="Archive a memory",
        fn=memory_archive,
        description="Take a record out of every search (reversible with memory_restore). Answers archived or staged.",
        annotations=mutating(destructive=True, idempotent=False),
        output_schema=schemas.ARCHIVE,
    ),
    ToolSpec(
        name="memory_restore",
        title="Restore a memory",
        fn=memory_restore,
        description="Bring an archived record back to the state it had before it was archived. Answers restored or "
        "staged (waiting for the person, under the same rule as an archive).",
        annotations=mutating(destructive=False, idempotent=False),
        output_schema=schemas.RESTORE,
    ),
]
