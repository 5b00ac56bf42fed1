"""Validation of what callers ask to write: one clear `InvalidArgument`, nothing changed.

A `Draft` is a validated `memory_add` (the same fields feed proposals and imports).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any, Self, TypeVar

from memvault.core.vocabulary.clock import normalize_time
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import Explicitness, LinkType, MemoryType, Scope, Sensitivity
from memvault.core.vocabulary.text_safety import checked

MAX_STATEMENT_CHARS = 4000
MAX_SHORT_TEXT = 500
MAX_EVIDENCE_CHARS = 4000
MAX_LIST_ITEMS = 50
_DOMAIN = re.compile(r"^[a-z0-9][a-z0-9_\-]{0,47}$")

E = TypeVar("E", bound=StrEnum)


def text(value: Any, name: str, *, max_chars: int = MAX_SHORT_TEXT, required: bool = False) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip() and not required):
        if required:
            raise InvalidArgument(f"{name} is required")
        return None
    if not isinstance(value, str):
        raise InvalidArgument(f"{name}: expected text")
    cleaned: str = value.strip()
    if required and not cleaned:
        raise InvalidArgument(f"{name} must not be empty")
    if len(cleaned) > max_chars:
        raise InvalidArgument(f"{name}: at most {max_chars} characters (got {len(cleaned)})")
    return checked(cleaned, name)


def required_text(value: Any, name: str, *, max_chars: int = MAX_SHORT_TEXT) -> str:
    result = text(value, name, max_chars=max_chars, required=True)
    assert result is not None
    return result


def choice(enum: type[E], value: Any, name: str, default: E | None = None) -> E:
    if value is None and default is not None:
        return default
    if isinstance(value, str):
        for member in enum:
            if value in (member.value, member.name) or value.lower() == member.value.lower():
                return member
    allowed = ", ".join(m.value for m in enum)
    raise InvalidArgument(f"{name}: expected one of {allowed}")


def unit_float(value: Any, name: str, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidArgument(f"{name}: expected a number between 0 and 1")
    if not 0.0 <= float(value) <= 1.0:
        raise InvalidArgument(f"{name}: expected a number between 0 and 1")
    return float(value)


def int_in(value: Any, name: str, default: int, low: int, high: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name}: expected a whole number from {low} to {high}")
    if not low <= value <= high:
        raise InvalidArgument(f"{name}: expected a whole number from {low} to {high}")
    return value


def optional_time(value: Any, name: str) -> str | None:
    return None if value is None or value == "" else normalize_time(value, name)


def domain_name(value: Any, name: str = "domain") -> str | None:
    raw = text(value, name, max_chars=48)
    if raw is None:
        return None
    slug = raw.lower().replace(" ", "-")
    if not _DOMAIN.match(slug):
        raise InvalidArgument(f"{name}: letters, digits, '-' and '_' only, at most 48 characters")
    return slug


def string_list(value: Any, name: str, *, max_chars: int = 100) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise InvalidArgument(f"{name}: expected a list of strings")
    if len(value) > MAX_LIST_ITEMS:
        raise InvalidArgument(f"{name}: at most {MAX_LIST_ITEMS} items")
    items: list[str] = []
    for item in value:
        cleaned = required_text(item, name, max_chars=max_chars)
        if cleaned not in items:
            items.append(cleaned)
    return items


class Request:
    """A typed request: built directly from typed values, or from untyped input (JSON, argparse,
    keywords) by `parse`, which refuses unknown names and bad values before anything happens."""

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        raise NotImplementedError

    @classmethod
    def of(cls, **fields: Any) -> Self:
        """`parse` for keyword call sites: `Draft.of(statement="...", domain="garden")`."""
        return cls.parse(fields)


@dataclass(frozen=True)
class LinkDraft:
    type: LinkType
    target_id: str


def link_list(value: Any) -> list[LinkDraft]:
    if value is None:
        return []
    if not isinstance(value, list | tuple) or len(value) > MAX_LIST_ITEMS:
        raise InvalidArgument(f"links: expected a list of at most {MAX_LIST_ITEMS} {{type, target_id}}")
    links = []
    for item in value:
        if not isinstance(item, Mapping) or set(item) - {"type", "target_id", "weight"}:
            raise InvalidArgument("links: each link is {type, target_id}")
        link_type = choice(LinkType, item.get("type"), "links.type")
        if link_type is LinkType.SUPERSEDES:
            raise InvalidArgument("links.type: supersedes links come from memory_correct")
        links.append(LinkDraft(link_type, required_text(item.get("target_id"), "links.target_id", max_chars=64)))
    return links


@dataclass(frozen=True)
class Draft(Request):
    """A validated `memory_add` (also each candidate of the writer pass and of an import)."""

    statement: str
    type: MemoryType = MemoryType.FACT
    domain: str | None = None
    tags: list[str] = field(default_factory=list)
    importance: float = 0.5
    confidence: float = 0.8
    explicitness: Explicitness = Explicitness.EXPLICIT
    source: str | None = None
    source_reference: str | None = None
    evidence: str | None = None
    event_time: str | None = None
    valid_from: str | None = None
    valid_until: str | None = None
    due_at: str | None = None
    access_scope: Scope | None = None  # None: the caller's surface decides
    sensitivity: Sensitivity = Sensitivity.NORMAL
    entities: list[str] = field(default_factory=list)
    links: list[LinkDraft] = field(default_factory=list)

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> Self:
        """Validate the arguments of `memory_add` (and of each proposal candidate)."""
        unknown = set(args) - DRAFT_FIELDS
        if unknown:
            raise InvalidArgument(f"unknown argument(s): {', '.join(sorted(unknown))}")
        draft = cls(
            statement=required_text(args.get("statement"), "statement", max_chars=MAX_STATEMENT_CHARS),
            type=choice(MemoryType, args.get("type"), "type", MemoryType.FACT),
            domain=domain_name(args.get("domain")),
            tags=string_list(args.get("tags"), "tags", max_chars=64),
            importance=unit_float(args.get("importance"), "importance", 0.5),
            confidence=unit_float(args.get("confidence"), "confidence", 0.8),
            explicitness=choice(Explicitness, args.get("explicitness"), "explicitness", Explicitness.EXPLICIT),
            source=text(args.get("source"), "source"),
            source_reference=text(args.get("source_reference"), "source_reference"),
            evidence=text(args.get("evidence"), "evidence", max_chars=MAX_EVIDENCE_CHARS),
            event_time=optional_time(args.get("event_time"), "event_time"),
            valid_from=optional_time(args.get("valid_from"), "valid_from"),
            valid_until=optional_time(args.get("valid_until"), "valid_until"),
            due_at=optional_time(args.get("due_at"), "due_at"),
            access_scope=None
            if args.get("access_scope") is None
            else choice(Scope, args.get("access_scope"), "access_scope"),
            sensitivity=choice(Sensitivity, args.get("sensitivity"), "sensitivity", Sensitivity.NORMAL),
            entities=string_list(args.get("entities"), "entities"),
            links=link_list(args.get("links")),
        )
        if draft.valid_from and draft.valid_until and draft.valid_until <= draft.valid_from:
            raise InvalidArgument("valid_until must be later than valid_from")
        return draft

    def to_payload(self) -> dict[str, Any]:
        data = asdict(self)
        data["links"] = [{"type": link.type.value, "target_id": link.target_id} for link in self.links]
        return {k: (v.value if isinstance(v, StrEnum) else v) for k, v in data.items()}


DRAFT_FIELDS = frozenset(Draft.__dataclass_fields__)


def parse_draft(args: Mapping[str, Any]) -> Draft:
    """Validate the arguments of `memory_add` (and of each proposal candidate)."""
    return Draft.parse(args)
