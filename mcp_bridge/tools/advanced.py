"""The advanced read tools: related records, timeline, project history, decisions, unresolved items."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import DecisionsRequest, RelatedRequest, TimelineRequest, UnresolvedRequest
from memvault.core.vocabulary.results import Graph, Items, ProjectHistory, Timeline
from memvault.mcp_bridge.tool_gate import ToolSpec, read_only
from memvault.mcp_bridge.tools import schemas
from memvault.mcp_bridge.tools.vocabulary import LinkName, MemoryIdArg, Time

Project = Annotated[str, Field(description="a project's name (records tagged project:NAME)")]


def memory_related(
    vault: Vault,
    caller: Caller,
    id: MemoryIdArg,
    types: Annotated[list[LinkName] | None, Field(description="follow only these link types")] = None,
    depth: Annotated[int, Field(ge=1, le=3, description="hops to follow")] = 1,
    limit: Annotated[int | None, Field(ge=1, le=200, description="most records to return")] = None,
) -> Graph:
    return vault.related(caller, RelatedRequest.of(id=id, types=types, depth=depth, limit=limit))


def memory_timeline(
    vault: Vault,
    caller: Caller,
    subject: Annotated[str | None, Field(description="words the records are about")] = None,
    domain: Annotated[str | None, Field(description="only this domain")] = None,
    entity: Annotated[str | None, Field(description="only records mentioning this person, place or thing")] = None,
    start: Time = None,
    end: Time = None,
    limit: Annotated[int | None, Field(ge=1, le=500, description="most events")] = None,
) -> Timeline:
    request = TimelineRequest.of(subject=subject, domain=domain, entity=entity, start=start, end=end, limit=limit)
    return vault.timeline(caller, request)


def memory_get_project_history(vault: Vault, caller: Caller, project: Project) -> ProjectHistory:
    return vault.project_history(caller, project)


def memory_get_decisions(
    vault: Vault,
    caller: Caller,
    project: Annotated[Project | None, Field()] = None,
    domain: Annotated[str | None, Field(description="only this domain")] = None,
    include_history: Annotated[bool, Field(description="also decisions that were superseded")] = False,
) -> Items:
    request = DecisionsRequest.of(project=project, domain=domain, include_history=include_history)
    return vault.decisions(caller, request)


def memory_get_unresolved(
    vault: Vault,
    caller: Caller,
    project: Annotated[Project | None, Field()] = None,
    domain: Annotated[str | None, Field(description="only this domain")] = None,
    due_before: Annotated[str | None, Field(description="only items due before this time")] = None,
) -> Items:
    return vault.unresolved(caller, UnresolvedRequest.of(project=project, domain=domain, due_before=due_before))


TOOLS = [
    ToolSpec(
        name="memory_related",
        title="Related memories",
        fn=memory_related,
        description="Records linked to one record (depends_on, contradicts, supersedes, part_of_project, ...), "
        "up to depth hops, with the links between them.",
        annotations=read_only(),
        output_schema=schemas.RELATED,
    ),
    ToolSpec(
        name="memory_timeline",
        title="Memory timeline",
        fn=memory_timeline,
        description="What was learned, became valid, was superseded or is due, in time order (superseded "
        "versions included); filter by subject words, domain, entity and time range.",
        annotations=read_only(),
        output_schema=schemas.TIMELINE,
    ),
    ToolSpec(
        name="memory_get_project_history",
        title="Project history",
        fn=memory_get_project_history,
        description="A project's states over time, its decisions (with history) and what is still open.",
        annotations=read_only(),
        output_schema=schemas.PROJECT_HISTORY,
    ),
    ToolSpec(
        name="memory_get_decisions",
        title="Decisions",
        fn=memory_get_decisions,
        description="Decisions, newest first, for a project or domain; superseded ones with include_history.",
        annotations=read_only(),
        output_schema=schemas.ITEMS,
    ),
    ToolSpec(
        name="memory_get_unresolved",
        title="Unresolved items",
        fn=memory_get_unresolved,
        description="Open questions, next actions, goals and failed approaches: soonest due first, undated last.",
        annotations=read_only(),
        output_schema=schemas.ITEMS,
    ),
]
