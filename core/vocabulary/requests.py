"""What callers ask `Vault` for: typed requests, validated once, where they are built.

Each request is a frozen dataclass. Front ends with typed values build it directly; untyped
input (the MCP tools' JSON, argparse, a test's keywords) goes through `parse(mapping)`, which
refuses unknown names and bad values with one clear `InvalidArgument` before anything is read
or written. `of(**fields)` is `parse` for keyword call sites. Adds are `Draft`s
(core/vocabulary/drafts.py) and searches `SearchRequest`s (core/vocabulary/search_request.py), built the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from memvault.core.vocabulary.drafts import (
    Draft,
    Request,
    choice,
    domain_name,
    int_in,
    optional_time,
    required_text,
    text,
)
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import LinkType, MemoryId, MemoryType, Status
from memvault.core.vocabulary.search_request import MAX_QUERY_CHARS

MAX_REASON = 500
MAX_NOTE_CHARS = 1000
MAX_REF_CHARS = 200
MAX_CANDIDATES = 50
MAX_DEPTH = 3
MAX_NODES = 200
MAX_EVENTS = 500
MAX_ITEMS = 200


def only(args: Mapping[str, Any], allowed: frozenset[str] | set[str]) -> None:
    unknown = set(args) - set(allowed)
    if unknown:
        raise InvalidArgument(f"unknown argument(s): {', '.join(sorted(unknown))[:200]}")


def flag(value: Any, name: str, default: bool = False) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidArgument(f"{name}: expected true or false")
    return value


def memory_id(value: Any, name: str = "id") -> MemoryId:
    return MemoryId(required_text(value, name, max_chars=64))


# -- changes -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CorrectRequest(Request):
    """memory_correct: a new statement supersedes the record `id`."""

    id: MemoryId
    statement: str
    reason: str | None = None
    valid_from: str | None = None
    expected_revision: int | None = None
    source_reference: str | None = None  # the writer pass's conversation_ref (not a contract argument)

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        only(args, {"id", "statement", "reason", "valid_from", "expected_revision"})
        revision = int_in(args.get("expected_revision"), "expected_revision", 0, 1, 2**31)
        return cls(
            id=memory_id(args.get("id")),
            statement=required_text(args.get("statement"), "statement", max_chars=4000),
            reason=text(args.get("reason"), "reason", max_chars=MAX_REASON),
            valid_from=optional_time(args.get("valid_from"), "valid_from"),
            expected_revision=revision or None,
        )


@dataclass(frozen=True)
class ArchiveRequest(Request):
    id: MemoryId
    reason: str | None = None
    expected_revision: int | None = None

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        only(args, {"id", "reason", "expected_revision"})
        revision = int_in(args.get("expected_revision"), "expected_revision", 0, 1, 2**31)
        return cls(
            id=memory_id(args.get("id")),
            reason=text(args.get("reason"), "reason", max_chars=MAX_REASON),
            expected_revision=revision or None,
        )


@dataclass(frozen=True)
class ProposeRequest(Request):
    """memory_propose: candidates (each a `memory_add`) for the writer pass."""

    candidates: tuple[Draft, ...]
    conversation_ref: str | None = None

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        only(args, {"candidates", "conversation_ref"})
        value = args.get("candidates")
        if not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_CANDIDATES:
            raise InvalidArgument(f"candidates: expected a list of 1 to {MAX_CANDIDATES} objects")
        drafts = []
        for index, item in enumerate(value):
            if not isinstance(item, Mapping):
                raise InvalidArgument(f"candidates[{index}]: expected an object with the fields of memory_add")
            try:
                drafts.append(Draft.parse(item))
            except InvalidArgument as exc:
                raise InvalidArgument(f"candidates[{index}]: {exc.message}") from None
        ref = text(args.get("conversation_ref"), "conversation_ref", max_chars=MAX_REF_CHARS)
        return cls(candidates=tuple(drafts), conversation_ref=ref)


@dataclass(frozen=True)
class FeedbackRequest(Request):
    id: MemoryId
    useful: bool
    note: str | None = None

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        only(args, {"id", "useful", "query", "note"})
        useful = args.get("useful")
        if not isinstance(useful, bool):
            raise InvalidArgument("useful: expected true or false")
        text(args.get("query"), "query", max_chars=MAX_QUERY_CHARS)  # validated, never kept
        return cls(
            id=memory_id(args.get("id")),
            useful=useful,
            note=text(args.get("note"), "note", max_chars=MAX_NOTE_CHARS),
        )


@dataclass(frozen=True)
class PurgeRequest(Request):
    """memory_purge: a request (never the purge itself) for one record or one import batch."""

    id: MemoryId | None = None
    batch_id: str | None = None
    reason: str | None = None
    whole_history: bool = False

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        only(args, {"id", "batch_id", "reason", "whole_history"})
        if (args.get("id") is None) == (args.get("batch_id") is None):
            raise InvalidArgument("name exactly one of id or batch_id")
        return cls(
            id=None if args.get("id") is None else memory_id(args.get("id")),
            batch_id=None
            if args.get("batch_id") is None
            else required_text(args["batch_id"], "batch_id", max_chars=64),
            reason=text(args.get("reason"), "reason", max_chars=MAX_REASON),
            whole_history=flag(args.get("whole_history"), "whole_history"),
        )


# -- reads -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ListRequest(Request):
    """memory_list: one page of records, newest first."""

    domain: str | None = None
    type: MemoryType | None = None
    status: Status = Status.CURRENT
    limit: int = 50
    cursor: str | None = None

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        only(args, {"domain", "type", "status", "limit", "cursor"})
        return cls(
            domain=domain_name(args.get("domain")),
            type=None if args.get("type") is None else choice(MemoryType, args.get("type"), "type"),
            status=choice(Status, args.get("status"), "status", Status.CURRENT),
            limit=int_in(args.get("limit"), "limit", 50, 1, 200),
            cursor=text(args.get("cursor"), "cursor", max_chars=1000),
        )


@dataclass(frozen=True)
class RelatedRequest(Request):
    id: MemoryId
    types: tuple[LinkType, ...] = ()
    depth: int = 1
    limit: int = 25

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        only(args, {"id", "types", "depth", "limit"})
        types = args.get("types")
        if types is not None and (
            isinstance(types, str) or not isinstance(types, list | tuple) or len(types) > len(LinkType)
        ):
            raise InvalidArgument("types: expected a list of link types")
        return cls(
            id=memory_id(args.get("id")),
            types=tuple(sorted({choice(LinkType, item, "types") for item in types or ()})),
            depth=int_in(args.get("depth"), "depth", 1, 1, MAX_DEPTH),
            limit=int_in(args.get("limit"), "limit", 25, 1, MAX_NODES),
        )


@dataclass(frozen=True)
class TimelineRequest(Request):
    subject: str | None = None
    domain: str | None = None
    entity: str | None = None
    start: str | None = None
    end: str | None = None
    limit: int = 100

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        only(args, {"subject", "domain", "entity", "start", "end", "limit"})
        request = cls(
            subject=text(args.get("subject"), "subject", max_chars=200),
            domain=domain_name(args.get("domain")),
            entity=text(args.get("entity"), "entity", max_chars=100),
            start=optional_time(args.get("start"), "start"),
            end=optional_time(args.get("end"), "end"),
            limit=int_in(args.get("limit"), "limit", 100, 1, MAX_EVENTS),
        )
        if request.start and request.end and request.end < request.start:
            raise InvalidArgument("end must not be earlier than start")
        return request


@dataclass(frozen=True)
class DecisionsRequest(Request):
    project: str | None = None
    domain: str | None = None
    include_history: bool = False
    limit: int = 50

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        only(args, {"project", "domain", "include_history", "limit"})
        return cls(
            project=text(args.get("project"), "project", max_chars=100),
            domain=domain_name(args.get("domain")),
            include_history=flag(args.get("include_history"), "include_history"),
            limit=int_in(args.get("limit"), "limit", 50, 1, MAX_ITEMS),
        )


@dataclass(frozen=True)
class UnresolvedRequest(Request):
    project: str | None = None
    domain: str | None = None
    due_before: str | None = None
    limit: int = 50

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        only(args, {"project", "domain", "due_before", "limit"})
        return cls(
            project=text(args.get("project"), "project", max_chars=100),
            domain=domain_name(args.get("domain")),
            due_before=optional_time(args.get("due_before"), "due_before"),
            limit=int_in(args.get("limit"), "limit", 50, 1, MAX_ITEMS),
        )


@dataclass(frozen=True)
class ExportRequest(Request):
    domain: str | None = None
    include_history: bool = False

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        only(args, {"domain", "include_history"})
        return cls(
            domain=domain_name(args.get("domain")),
            include_history=flag(args.get("include_history"), "include_history"),
        )


__all__ = [
    "ArchiveRequest",
    "CorrectRequest",
    "DecisionsRequest",
    "Draft",
    "ExportRequest",
    "FeedbackRequest",
    "ListRequest",
    "ProposeRequest",
    "PurgeRequest",
    "RelatedRequest",
    "Request",
    "TimelineRequest",
    "UnresolvedRequest",
]
