"""The arguments of a search, validated once; every retriever receives this."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Self

from memvault.core.vocabulary.drafts import Request, choice, domain_name, int_in, optional_time, required_text
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import MemoryType

DEPTHS = ("auto", "shallow", "normal", "deep")
MAX_QUERY_CHARS = 2000
SEARCH_ARGS = frozenset(
    {"query", "limit", "domains", "types", "as_of", "known_at", "include_history", "depth", "max_tokens", "shadow"}
)


@dataclass(frozen=True)
class SearchRequest(Request):
    query: str
    limit: int = 8
    domains: tuple[str, ...] = ()
    types: tuple[MemoryType, ...] = ()
    as_of: str | None = None
    known_at: str | None = None
    include_history: bool = False
    depth: str = "auto"
    max_tokens: int | None = None
    shadow: bool = False
    # False for the person browsing their own memory in the app: nothing is written (usage feeds
    # the tiers, and looking is not an assistant's retrieval). Not an MCP argument.
    count_usage: bool = True

    def browsing(self) -> Self:
        """The same search, for the person looking through their memory: it writes nothing."""
        return replace(self, count_usage=False)

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        unknown = set(args) - SEARCH_ARGS
        if unknown:
            raise InvalidArgument(f"unknown argument(s): {', '.join(sorted(unknown))}")
        depth = args.get("depth") or "auto"
        if depth not in DEPTHS:
            raise InvalidArgument(f"depth: expected one of {', '.join(DEPTHS)}")
        domains = tuple(d for d in (domain_name(v, "domains") for v in _names(args.get("domains"), "domains")) if d)
        return cls(
            query=required_text(args.get("query"), "query", max_chars=MAX_QUERY_CHARS),
            limit=int_in(args.get("limit"), "limit", 8, 1, 50),
            domains=domains,
            types=tuple(choice(MemoryType, t, "types") for t in _names(args.get("types"), "types")),
            as_of=optional_time(args.get("as_of"), "as_of"),
            known_at=optional_time(args.get("known_at"), "known_at"),
            include_history=_flag(args.get("include_history"), "include_history"),
            depth=depth,
            max_tokens=None
            if args.get("max_tokens") is None
            else int_in(args.get("max_tokens"), "max_tokens", 0, 1, 20000),
            shadow=_flag(args.get("shadow"), "shadow"),
        )


def _flag(value: Any, name: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise InvalidArgument(f"{name}: expected true or false")
    return value


def _names(value: Any, name: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list | tuple) or len(value) > 50:
        raise InvalidArgument(f"{name}: expected a list (at most 50 items)")
    return list(value)


def parse_search(args: Mapping[str, Any]) -> SearchRequest:
    return SearchRequest.parse(args)
