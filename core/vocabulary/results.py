"""What `Vault` answers: the contract's JSON shapes, declared once as types.

Every front end reads these. The MCP layer sends them as they are (they *are* the
contract's answers, `mcp-contract.md`), the CLI prints them, the desktop binds its widgets
to their keys, and mypy checks every key a front end uses. Values are plain JSON
(strings, numbers, lists), never enums or rows.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from memvault.core.vocabulary.model import MemoryId, ProposalId


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


class Provenance(TypedDict):
    """Where a record came from, for the person's own detail view (not an MCP answer)."""

    memory_id: MemoryId
    source: str | None
    source_reference: str | None
    evidence: str | None
    evidence_hash: str | None  # sha256 of the evidence when it was stored
    evidence_intact: bool | None  # the evidence still hashes to it; None when there is no evidence
    created_by: str | None
    import_batch_id: str | None
    learned_at: str | None
    event_time: str | None


# -- writes ------------------------------------------------------------------------------------
AddOutcome = Literal["added", "staged", "duplicate", "rejected"]


class AddResult(TypedDict):
    outcome: AddOutcome
    id: MemoryId | None
    proposal_id: ProposalId | None
    duplicate_of: MemoryId | None
    reason: str | None


class CorrectResult(TypedDict):
    outcome: Literal["superseded", "staged"]
    id: MemoryId | None
    supersedes_id: MemoryId
    proposal_id: ProposalId | None


class ArchiveResult(TypedDict):
    outcome: Literal["archived", "staged"]
    id: MemoryId
    proposal_id: NotRequired[ProposalId]


class RestoreResult(TypedDict):
    outcome: Literal["restored", "staged"]
    id: MemoryId
    proposal_id: NotRequired[ProposalId | None]


class Decision(TypedDict):
    """What approving a proposal did (the approved proposal's id and the write's outcome)."""

    proposal_id: ProposalId
    outcome: str
    id: NotRequired[MemoryId | None]
    supersedes_id: NotRequired[MemoryId]


class ProposalRow(TypedDict):
    """One entry of the approval inbox."""

    id: ProposalId
    kind: str
    status: str
    principal: str
    surface: str
    target_id: MemoryId | None
    reason: str | None
    payload: dict[str, Any]  # the proposed write's validated arguments, as JSON
    created_at: str
    decided_at: str | None
    result_id: MemoryId | None


class ProposalVerdict(TypedDict):
    """The writer pass's judgement of one candidate, and what became of it."""

    classification: Literal["ADD", "SUPERSEDE", "ARCHIVE", "NO_CHANGE"] | None  # None: refused by the gate
    target_id: MemoryId | None
    reason: str | None
    evidence: object
    outcome: Literal["added", "staged", "skipped", "rejected"]
    proposal_id: ProposalId | None
    id: MemoryId | None


class ProposeResult(TypedDict):
    results: list[ProposalVerdict]


# -- reads -------------------------------------------------------------------------------------
class LinkRef(TypedDict):
    type: str
    target_id: MemoryId


class RecordView(TypedDict):
    """`memory_get`: the record, its older versions (newest first), its links and entities."""

    memory: MemoryRecord
    history: list[MemoryRecord]
    links: list[LinkRef]
    entities: list[str]


class RecordPage(TypedDict):
    items: list[MemoryRecord]
    next_cursor: str | None


class Items(TypedDict):
    """A plain list of records (decisions, unresolved items)."""

    items: list[MemoryRecord]


class StoreInfo(TypedDict):
    encrypted: bool
    schema_version: int


class StatusAnswer(TypedDict):
    version: str
    contract: int
    store: StoreInfo
    counts: dict[str, object]  # one count per status, "total", and "by_domain": {name: count}
    write_mode: str
    kill_switch: str
    embeddings: str
    pending_proposals: int


class EventRow(TypedDict):
    """One entry of a record's event history: ids and actions, never text."""

    id: int
    time: str
    action: str
    principal: str
    surface: str
    memory_id: MemoryId | None
    details: dict[str, object]


# -- search ------------------------------------------------------------------------------------
class SearchHit(MemoryRecord):
    score: float
    why: list[str]
    tier: str


class DomainWeight(TypedDict):
    name: str
    weight: float


class Budget(TypedDict):
    records: int
    tokens: int
    latency_ms: float
    truncated: bool


class SearchAnswer(TypedDict):
    query: str
    skipped: bool
    reason: str
    domains: list[DomainWeight]
    results: list[SearchHit]
    packet: str
    budget: Budget


class ShadowAnswer(TypedDict):
    shadow: Literal[True]
    retrieved: int
    latency_ms: float


# -- views -------------------------------------------------------------------------------------
# A typed link between two records ("from" is a keyword in Python: the functional form).
Edge = TypedDict("Edge", {"from": MemoryId, "to": MemoryId, "type": str, "weight": float})


class Graph(TypedDict):
    nodes: list[MemoryRecord]
    edges: list[Edge]


class TimelineEvent(TypedDict):
    time: str
    kind: str
    record: MemoryRecord


class Timeline(TypedDict):
    events: list[TimelineEvent]


class ProjectHistory(TypedDict):
    project: str
    states: list[MemoryRecord]
    decisions: list[MemoryRecord]
    unresolved: list[MemoryRecord]


class Ok(TypedDict):
    ok: bool


class ExportResult(TypedDict):
    files: list[str]
    records: int


# -- domains -----------------------------------------------------------------------------------
class DomainSummary(TypedDict):
    name: str
    description: str | None
    keywords: list[str]
    curated: bool
    related: list[str]
    priority: float
    depth: str
    token_share: float
    pinned: bool
    has_centroid: bool
    records: int
    total: int
    by_status: dict[str, int]
    created_at: str
    updated_at: str


class DomainList(TypedDict):
    items: list[DomainSummary]


class DomainChange(TypedDict, total=False):
    """What a domain operation did; each operation fills its own keys."""

    name: str
    renamed_from: str
    split_from: str
    into: str
    merged: list[str]
    moved: int
    records: int
    pinned: bool
    changed: list[str]


# A report of long-running upkeep (discovery, domain upkeep, backups, purge): its keys are
# documented with the operation (docs/domains.md, docs/maintenance.md); front ends show it whole.
Report = dict[str, object]

# A setting's value, as declared in core/runtime/settings.py.
SettingValue = str | int | float | bool | list[str]


# -- maintenance, principals -------------------------------------------------------------------
class PurgePreview(TypedDict):
    """What confirming a purge request would remove, for the person to check first."""

    request_id: ProposalId
    ids: list[MemoryId]
    statements: dict[str, str]
    payload: dict[str, Any]


class PurgeRequested(TypedDict):
    outcome: Literal["confirmation_required"]
    request_id: ProposalId


class BackupAnswer(TypedDict):
    path: str
    encrypted: bool
    created_at: str
    bytes: int
    sha256: str
    kind: str


class TokenCreated(TypedDict):
    principal: str
    surface: str
    workspace_id: str | None
    token: str
