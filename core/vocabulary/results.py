"""What `Vault` answers: the contract's JSON shapes, declared once as types.

Every front end reads these. The MCP layer sends them as they are (they *are* the
contract's answers, `mcp-contract.md`), the CLI prints them, the desktop binds its widgets
to their keys, and mypy checks every key a front end uses. Values are plain JSON
(strings, numbers, lists), never enums or rows.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from memvault.core.vocabulary.model import MemoryId, MemoryRecord, ProposalId


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


class Counts(TypedDict):
    """Records by status (every `Status`), their total, and live records by domain."""

    current: int
    historical: int
    partial: int
    disputed: int
    superseded: int
    archived: int
    total: int
    by_domain: dict[str, int]


class StatusAnswer(TypedDict):
    version: str
    contract: int
    store: StoreInfo
    counts: Counts
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


class DiscoveredRegion(TypedDict):
    """A region discovery found: records an existing domain takes, or a new domain."""

    name: str
    existing: bool
    size: int
    keywords: list[str]
    description: str


class DiscoveryReport(TypedDict):
    """`discover_domains`: the regions found and the moves made (with `dry_run`, that would be made)."""

    records: int
    method: str  # "vectors", "terms" or "none"
    reason: str
    regions: list[DiscoveredRegion]
    new_domains: list[str]
    moves: int
    flows: dict[str, int]  # "from -> to": records moved
    emptied: list[str]
    dry_run: bool


class DomainUpkeep(TypedDict):
    """`maintain_domains` when it refreshed (or upkeep is off): domains updated, records placed."""

    action: Literal["none", "refreshed"]
    domains: int
    settled: int


class DiscoveryUpkeep(DiscoveryReport):
    """`maintain_domains` when the store had grown enough to discover the regions again."""

    action: Literal["discovered"]


class DomainsRefreshed(TypedDict):
    refreshed: int  # domains whose statistics changed


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


class PrincipalRevoked(TypedDict):
    principal: str
    revoked_tokens: int


class PrincipalRow(TypedDict):
    """`list_principals`: a remote or workspace caller and its live tokens (never a token itself)."""

    name: str
    surface: str
    workspace_id: str | None
    created_at: str
    revoked_at: str | None
    live_tokens: int


class ReindexReport(TypedDict):
    """`reindex`: records embedded now, records still without a vector, and the embeddings setting."""

    embedded: int
    missing: int
    embeddings: Literal["off", "local"]


class BackupRow(TypedDict):
    """`list_backups`: a recorded backup, and whether its file is still there."""

    path: str
    created_at: str
    bytes: int
    sha256: str
    kind: str
    removed_at: str | None
    exists: bool


class ScheduledBackup(TypedDict):
    """`scheduled_backup`: today's backup (None: already made) and the backups retention removed."""

    made: BackupAnswer | None
    removed: list[str]


class RestoreReport(TypedDict):
    """`restore_backup`: what the restored store holds, and where the replaced one was kept."""

    restored_from: str
    records: int
    schema_version: int
    previous_store_kept_as: str | None
    purged_again: int  # records purged after the backup was taken, purged again


class StoreFlush(TypedDict):
    """What a purge or sweep did to the store's files (False: the store was busy; sweep again)."""

    secure_delete: bool
    vacuumed: bool
    wal_truncated: bool


class PurgedStore(StoreFlush):
    removed_rows: dict[str, int]  # rows removed, by table (tables that lost none are left out)


class BackupsCleaned(TypedDict):
    """The known backups a purge reached: rewritten, deleted (unreadable), missing, failed (busy)."""

    rewritten: list[str]
    deleted: list[str]
    missing: list[str]
    failed: list[str]


class PurgeReach(TypedDict):
    """A purge beyond the store: exports deleted, backups cleaned, plaintext copies memvault did not make."""

    exports_removed: list[str]
    backups: BackupsCleaned
    plaintext_copies: list[str]


class PurgeReport(PurgeReach):
    """`confirm_purge`: what was removed, and what memvault could not clean."""

    request_id: ProposalId
    outcome: Literal["purged"]
    purged_ids: list[MemoryId]
    tombstones: int
    store: PurgedStore
    not_cleaned: list[str]


class SweepReport(PurgeReach):
    """`sweep_purged`: every tombstone applied again to the store, the exports and the backups."""

    tombstones: int
    store_records_removed: int
    store: StoreFlush


class PurgeRejected(TypedDict):
    request_id: ProposalId
    outcome: Literal["rejected"]


class PurgeRequestRow(TypedDict):
    """`list_purge_requests`: a purge request and its state (its payload holds ids, never text)."""

    id: ProposalId
    status: str
    target_id: MemoryId | None
    payload: dict[str, Any]
    principal: str
    surface: str
    reason: str | None
    created_at: str
    decided_at: str | None
