"""memory_search: the cited, budgeted packet of what the person's memory says about a request."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.results import SearchAnswer, ShadowAnswer
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.mcp_bridge.tool_gate import ToolSpec, read_only
from memvault.mcp_bridge.tools import schemas
from memvault.mcp_bridge.tools.vocabulary import Time, TypeName


def memory_search(
    vault: Vault,
    caller: Caller,
    query: Annotated[str, Field(description="what the request is about, in plain words")],
    limit: Annotated[int, Field(ge=1, le=50, description="most records to return")] = 8,
    domains: Annotated[list[str] | None, Field(description="only these domains")] = None,
    types: Annotated[list[TypeName] | None, Field(description="only these record types")] = None,
    as_of: Annotated[Time, Field(description="valid time: answer as things stood then")] = None,
    known_at: Annotated[Time, Field(description="knowledge time: answer as the store knew it then")] = None,
    include_history: Annotated[bool, Field(description="also superseded and historical records")] = False,
    depth: Annotated[
        Literal["auto", "shallow", "normal", "deep"], Field(description="deep also reaches cold records")
    ] = "auto",
    max_tokens: Annotated[int | None, Field(ge=1, le=20000, description="token budget of the packet")] = None,
    shadow: Annotated[bool, Field(description="rank and log locally only; answer counts, no memory text")] = False,
) -> SearchAnswer | ShadowAnswer:
    request = SearchRequest.of(
        query=query,
        limit=limit,
        domains=domains,
        types=types,
        as_of=as_of,
        known_at=known_at,
        include_history=include_history,
        depth=depth,
        max_tokens=max_tokens,
        shadow=shadow,
    )
    return vault.search(caller, request)


TOOLS = [
    ToolSpec(
        name="memory_search",
        title="Search memory",
        fn=memory_search,
        description=(
            "Search the person's private long-term memory (facts, preferences, decisions, projects, open "
            "questions). Answers ranked records and `packet`: compact lines citing [id], within a token budget. "
            "`skipped` is true when personal memory would not help this request. Archived records never appear."
        ),
        annotations=read_only(),
        output_schema=schemas.SEARCH,
        ahead=lambda serving, arguments: serving.expect_search(arguments.get("query")),
    )
]
