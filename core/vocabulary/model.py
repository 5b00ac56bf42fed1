"""The vocabulary of memvault: record types, states, scopes, callers and the memory record."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NewType, TypedDict, cast

MemoryId = NewType("MemoryId", str)


def new_id(prefix: str = "m") -> str:
    """A fresh id: `prefix` (m: a memory, pr: a proposal, b: an import batch, ...) and 12 random hex digits."""
    return prefix + secrets.token_hex(6)


ProposalId = NewType("ProposalId", str)


class MemoryType(StrEnum):
    FACT = "FACT"
    PREFERENCE = "PREFERENCE"
    DECISION = "DECISION"
    PROJECT = "PROJECT"
    PROJECT_STATE = "PROJECT_STATE"
    GOAL = "GOAL"
    CONSTRAINT = "CONSTRAINT"
    DISCOVERY = "DISCOVERY"
    WORKFLOW = "WORKFLOW"
    SUCCESSFUL_APPROACH = "SUCCESSFUL_APPROACH"
    FAILED_APPROACH = "FAILED_APPROACH"
    OPEN_QUESTION = "OPEN_QUESTION"
    NEXT_ACTION = "NEXT_ACTION"
    USER_CORRECTION = "USER_CORRECTION"


# Types that describe something still to be done or answered.
UNRESOLVED_TYPES = frozenset(
    {MemoryType.OPEN_QUESTION, MemoryType.NEXT_ACTION, MemoryType.GOAL, MemoryType.FAILED_APPROACH}
)
DUE_TYPES = frozenset({MemoryType.NEXT_ACTION, MemoryType.GOAL, MemoryType.OPEN_QUESTION})


class Status(StrEnum):
    CURRENT = "current"
    HISTORICAL = "historical"
    PARTIAL = "partial"
    DISPUTED = "disputed"
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"


# States that answer "what is true now" (archived and superseded never do).
LIVE_STATUSES = (Status.CURRENT, Status.PARTIAL, Status.DISPUTED)


class Scope(StrEnum):
    LOCAL_ONLY = "local_only"
    REMOTE_ALLOWED = "remote_allowed"
    WORKSPACE_ALLOWED = "workspace_allowed"


class Sensitivity(StrEnum):
    NORMAL = "normal"
    PERSONAL = "personal"
    SENSITIVE = "sensitive"


class Explicitness(StrEnum):
    EXPLICIT = "explicit"
    INFERRED = "inferred"
    CONSOLIDATED = "consolidated"


class Surface(StrEnum):
    LOCAL = "local"
    REMOTE = "remote"
    WORKSPACE = "workspace"


class WriteMode(StrEnum):
    RETRIEVAL_ONLY = "retrieval-only"
    REVIEW_BEFORE_WRITE = "review-before-write"
    AUTOMATIC = "automatic-write-within-approved-scope"


class KillSwitch(StrEnum):
    OFF = "off"
    REMOTE = "remote"  # `memvault kill-switch on`
    ALL = "all"


class OAuthScope(StrEnum):
    """What an OAuth connection may do, granted by the person when they approve it."""

    READ = "memory:read"
    PROPOSE = "memory:propose"
    WRITE = "memory:write"
    DELETE = "memory:delete"


class LinkType(StrEnum):
    DEPENDS_ON = "depends_on"
    CONTRADICTS = "contradicts"
    SUPERSEDES = "supersedes"
    PART_OF_PROJECT = "part_of_project"
    FAILED_FOR = "failed_for"
    RELATES_TO = "relates_to"
    MENTIONS = "mentions"


@dataclass(frozen=True)
class Caller:
    """Who is asking, known from the connection and never from arguments.

    `owner` marks the person themself (the CLI and the desktop app): their writes
    are not subject to the write mode, which governs what assistants may write.
    """

    principal: str
    surface: Surface
    workspace_id: str | None = None
    owner: bool = False
    # The OAuth scopes the person granted this connection (`OAuthScope` values); None: a caller
    # not limited by scopes (local callers, static bearer tokens).
    scopes: frozenset[str] | None = None

    @property
    def is_local(self) -> bool:
        return self.surface is Surface.LOCAL


OWNER = Caller(principal="owner", surface=Surface.LOCAL, owner=True)
LOCAL_ASSISTANT = Caller(principal="local", surface=Surface.LOCAL)
# The daemon's scheduled upkeep (daily backups, domain upkeep): standing orders of the person.
HOUSEKEEPER = Caller(principal="housekeeping", surface=Surface.LOCAL, owner=True)


class MemoryRecord(TypedDict):
    """One memory record, as the contract returns it (`Memory.to_dict`)."""

    id: MemoryId
    domain: str
    type: str
    statement: str
    status: str
    confidence: float
    importance: float
    explicitness: str
    sensitivity: str
    access_scope: str
    tags: list[str]
    source: str | None
    source_reference: str | None
    evidence: str | None
    event_time: str | None
    learned_at: str | None
    observed_at: str | None
    valid_from: str | None
    valid_until: str | None
    last_confirmed_at: str | None
    created_at: str | None
    updated_at: str | None
    supersedes_id: MemoryId | None
    superseded_by_id: MemoryId | None
    archived_reason: str | None
    retrieval_count: int
    last_retrieved_at: str | None
    revision: int
    due_at: str | None


@dataclass
class Memory:
    """One memory record, as the contract returns it."""

    id: MemoryId
    domain: str
    type: MemoryType
    statement: str
    status: Status
    confidence: float
    importance: float
    explicitness: Explicitness
    sensitivity: Sensitivity
    access_scope: Scope
    tags: list[str] = field(default_factory=list)
    source: str | None = None
    source_reference: str | None = None
    evidence: str | None = None
    event_time: str | None = None
    learned_at: str | None = None
    observed_at: str | None = None
    valid_from: str | None = None
    valid_until: str | None = None
    last_confirmed_at: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    supersedes_id: MemoryId | None = None
    superseded_by_id: MemoryId | None = None
    archived_reason: str | None = None
    retrieval_count: int = 0
    last_retrieved_at: str | None = None
    revision: int = 1
    due_at: str | None = None
    # Not part of the contract's record, kept for access checks and provenance.
    authorized_principal_id: str | None = None
    authorized_workspace_id: str | None = None

    # The contract's fields, in the contract's order: declared once, by `MemoryRecord`.
    CONTRACT_FIELDS = tuple(MemoryRecord.__annotations__)

    ENUM_FIELDS = ("type", "status", "explicitness", "sensitivity", "access_scope")  # given as their values

    def to_dict(self) -> MemoryRecord:
        # Not dataclasses.asdict: its deep copy was most of the cost of a list or a search; the
        # instance's own dict, and only the enum fields converted: a search answers ten of them.
        values = vars(self)
        data = {name: values[name] for name in self.CONTRACT_FIELDS}
        for name in self.ENUM_FIELDS:
            data[name] = _plain(data[name])
        data["tags"] = list(self.tags)
        return cast("MemoryRecord", data)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value
