"""The change feed: every committed state change as a `Change`, read in order from the event log.

A `Change` carries ids, never text: what kind of change, which records, proposal or domain,
the record's revision, and the surface (local, remote, workspace) of the caller that made it.
Its `cursor` is the event id; `changes_since(cursor)` answers what came after, oldest first,
and the cursor to ask from next time, so a reader that keeps its cursor misses nothing and sees
nothing twice.

Access: the local surface sees every change. A remote or workspace caller sees only changes to
records it may see, and the proposals it staged itself; settings, domains, principals and
backups are the person's business and stay out of its feed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, TypedDict

from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import Caller, MemoryId, ProposalId, Surface

MAX_BATCH = 1000


class ChangeKind(StrEnum):
    MEMORY_ADDED = "memory_added"
    MEMORY_CORRECTED = "memory_corrected"
    MEMORY_ARCHIVED = "memory_archived"
    MEMORY_RESTORED = "memory_restored"
    MEMORY_CONFIRMED = "memory_confirmed"
    MEMORY_MOVED = "memory_moved"
    MEMORY_RESCOPED = "memory_rescoped"
    FEEDBACK_RECORDED = "feedback_recorded"
    PROPOSAL_STAGED = "proposal_staged"
    PROPOSAL_DECIDED = "proposal_decided"
    PURGE_REQUESTED = "purge_requested"
    PURGE_REJECTED = "purge_rejected"
    PURGED = "purged"
    DOMAIN_CHANGED = "domain_changed"
    SETTING_CHANGED = "setting_changed"
    PRINCIPAL_CHANGED = "principal_changed"
    BACKUP_CHANGED = "backup_changed"
    STORE_RESTORED = "store_restored"
    OTHER = "other"  # an event action this build does not know (a newer writer)


# Event actions (`EventRows.record` callers) -> the kind of change they are.
ACTION_KINDS: dict[str, ChangeKind] = {
    "added": ChangeKind.MEMORY_ADDED,
    "superseded": ChangeKind.MEMORY_CORRECTED,
    "archived": ChangeKind.MEMORY_ARCHIVED,
    "restored": ChangeKind.MEMORY_RESTORED,
    "confirmed": ChangeKind.MEMORY_CONFIRMED,
    "domain_assigned": ChangeKind.MEMORY_MOVED,
    "domain_moved": ChangeKind.MEMORY_MOVED,
    "scope_changed": ChangeKind.MEMORY_RESCOPED,
    "feedback": ChangeKind.FEEDBACK_RECORDED,
    "proposed": ChangeKind.PROPOSAL_STAGED,
    "approved": ChangeKind.PROPOSAL_DECIDED,
    "rejected": ChangeKind.PROPOSAL_DECIDED,
    "purge_requested": ChangeKind.PURGE_REQUESTED,
    "purged": ChangeKind.PURGED,
    "domain_created": ChangeKind.DOMAIN_CHANGED,
    "domain_renamed": ChangeKind.DOMAIN_CHANGED,
    "domain_merged": ChangeKind.DOMAIN_CHANGED,
    "domain_split": ChangeKind.DOMAIN_CHANGED,
    "domain_pinned": ChangeKind.DOMAIN_CHANGED,
    "domain_unpinned": ChangeKind.DOMAIN_CHANGED,
    "domain_updated": ChangeKind.DOMAIN_CHANGED,
    "domain_removed": ChangeKind.DOMAIN_CHANGED,
    "domains_discovered": ChangeKind.DOMAIN_CHANGED,
    "domains_refreshed": ChangeKind.DOMAIN_CHANGED,
    "setting_changed": ChangeKind.SETTING_CHANGED,
    "token_created": ChangeKind.PRINCIPAL_CHANGED,
    "principal_revoked": ChangeKind.PRINCIPAL_CHANGED,
    # OAuth connections are remote principals: approving, denying or revoking one changes who may read.
    "oauth_requested": ChangeKind.PRINCIPAL_CHANGED,
    "oauth_connected": ChangeKind.PRINCIPAL_CHANGED,
    "oauth_approved": ChangeKind.PRINCIPAL_CHANGED,
    "oauth_denied": ChangeKind.PRINCIPAL_CHANGED,
    "oauth_revoked": ChangeKind.PRINCIPAL_CHANGED,
    "backup_made": ChangeKind.BACKUP_CHANGED,
    "backups_expired": ChangeKind.BACKUP_CHANGED,
    "restored_from_backup": ChangeKind.STORE_RESTORED,
    # imports and consolidation (core/importers, core/consolidate)
    "import_chunk": ChangeKind.MEMORY_ADDED,
    "import_undone": ChangeKind.MEMORY_RESTORED,
    "import_rolled_back": ChangeKind.PURGED,
    "consolidated": ChangeKind.MEMORY_CORRECTED,
    "disputed": ChangeKind.MEMORY_CORRECTED,
    "activation_lowered": ChangeKind.MEMORY_CORRECTED,
    "consolidation_run": ChangeKind.MEMORY_CORRECTED,
}
# What a remote or workspace caller may learn of: its visible records, and its own proposals.
RECORD_KINDS = frozenset(
    {
        ChangeKind.MEMORY_ADDED,
        ChangeKind.MEMORY_CORRECTED,
        ChangeKind.MEMORY_ARCHIVED,
        ChangeKind.MEMORY_RESTORED,
        ChangeKind.MEMORY_CONFIRMED,
        ChangeKind.MEMORY_MOVED,
        ChangeKind.MEMORY_RESCOPED,  # seen once the record is visible: a caller that lost it learns nothing
        ChangeKind.FEEDBACK_RECORDED,
    }
)
_KIND_VALUES = frozenset(kind.value for kind in ChangeKind)
PROPOSAL_KINDS = frozenset(
    {ChangeKind.PROPOSAL_STAGED, ChangeKind.PROPOSAL_DECIDED, ChangeKind.PURGE_REQUESTED, ChangeKind.PURGE_REJECTED}
)
# What a view of records refreshes on: every change to a record, a purge included (the desktop's views).
MEMORY_KINDS = RECORD_KINDS | {ChangeKind.PURGED}


class ChangeDict(TypedDict):
    cursor: int
    kind: str
    action: str
    time: str
    surface: str
    memory_ids: list[str]
    proposal_id: str | None
    domain: str | None
    revision: int | None


@dataclass(frozen=True)
class Change:
    """One committed state change. `revision` is the record's revision when the feed was read."""

    cursor: int
    kind: ChangeKind
    action: str
    time: str
    surface: Surface
    memory_ids: tuple[MemoryId, ...] = ()
    proposal_id: ProposalId | None = None
    domain: str | None = None
    revision: int | None = None

    def to_dict(self) -> ChangeDict:
        return {
            "cursor": self.cursor,
            "kind": self.kind.value,
            "action": self.action,
            "time": self.time,
            "surface": self.surface.value,
            "memory_ids": list(self.memory_ids),
            "proposal_id": self.proposal_id,
            "domain": self.domain,
            "revision": self.revision,
        }

    @classmethod
    def from_dict(cls, data: ChangeDict) -> Change:
        return cls(
            cursor=int(data["cursor"]),
            kind=ChangeKind(data["kind"]) if data["kind"] in _KIND_VALUES else ChangeKind.OTHER,
            action=data["action"],
            time=data["time"],
            surface=Surface(data["surface"]),
            memory_ids=tuple(MemoryId(i) for i in data["memory_ids"]),
            proposal_id=ProposalId(data["proposal_id"]) if data["proposal_id"] else None,
            domain=data["domain"],
            revision=data["revision"],
        )


class BatchDict(TypedDict):
    cursor: int
    reset: bool
    more: bool
    changes: list[ChangeDict]


@dataclass(frozen=True)
class ChangeBatch:
    """Changes after a cursor, in order, and the cursor to ask from next.

    `cursor` is the last event looked at, which may be past the last change returned (events the
    caller may not see are skipped, not withheld for later). `more`: ask again at once.
    `reset`: the log is behind the cursor asked for (the store was restored from a backup): drop
    what you hold and reload; `cursor` is then the store's current one.
    """

    cursor: int
    changes: tuple[Change, ...] = ()
    more: bool = False
    reset: bool = False

    def to_dict(self) -> BatchDict:
        return {
            "cursor": self.cursor,
            "reset": self.reset,
            "more": self.more,
            "changes": [change.to_dict() for change in self.changes],
        }

    @classmethod
    def from_dict(cls, data: BatchDict) -> ChangeBatch:
        changes = tuple(Change.from_dict(item) for item in data["changes"])
        return cls(cursor=int(data["cursor"]), changes=changes, more=bool(data["more"]), reset=bool(data["reset"]))


def changes_since(ctx: Context, caller: Caller, since: int | None, limit: int = MAX_BATCH) -> ChangeBatch:
    """The changes `caller` may see after cursor `since` (None: none, only the current cursor)."""
    if since is not None and (isinstance(since, bool) or not isinstance(since, int) or since < 0):
        raise InvalidArgument("cursor: expected a non-negative integer")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_BATCH:
        raise InvalidArgument(f"limit: expected an integer from 1 to {MAX_BATCH}")
    with ctx.reading() as conn:
        current = conn.changes.cursor()
        if since is None or since > current:
            return ChangeBatch(cursor=current, reset=since is not None)
        rows = conn.changes.after(since, limit)
        changes = [_change(row) for row in rows]
        if not caller.is_local:
            changes = _visible(conn, caller, changes, rows)
    last = rows[-1]["id"] if rows else since
    return ChangeBatch(cursor=last, changes=tuple(changes), more=last < current)


def _change(row: dict[str, Any]) -> Change:
    details = json.loads(row["details"])
    kind = ACTION_KINDS.get(row["action"], ChangeKind.OTHER)
    if kind is ChangeKind.PROPOSAL_DECIDED and details.get("kind") == "purge":
        kind = ChangeKind.PURGE_REJECTED  # a purge request is confirmed by `purged`, refused by this
    ids = [row["memory_id"], details.get("by")]
    proposal = details.get("proposal_id") or details.get("request_id")
    return Change(
        cursor=row["id"],
        kind=kind,
        action=row["action"],
        time=row["time"],
        surface=Surface(row["surface"]),
        memory_ids=tuple(MemoryId(i) for i in ids if isinstance(i, str)),
        proposal_id=ProposalId(proposal) if isinstance(proposal, str) else None,
        domain=_domain(details),
        revision=row["revision"],
    )


def _domain(details: dict[str, Any]) -> str | None:
    """The domain a change leaves things in: the new name of a rename, move or merge."""
    for key in ("to", "into", "domain"):
        if isinstance(details.get(key), str):
            return str(details[key])
    return None


def _visible(conn: Store, caller: Caller, changes: list[Change], rows: list[dict[str, Any]]) -> list[Change]:
    """A remote or workspace caller's share: nothing about records or proposals that are not its own."""
    seen = conn.changes.visible_ids(caller, sorted({i for c in changes for i in c.memory_ids}))
    kept = []
    for change, row in zip(changes, rows, strict=True):
        if change.kind in RECORD_KINDS:
            allowed = bool(change.memory_ids) and change.memory_ids[0] in seen
        elif change.kind in PROPOSAL_KINDS:
            allowed = row["proposer"] == caller.principal and all(i in seen for i in change.memory_ids[:1])
        else:
            allowed = False
        if allowed:
            ids = tuple(i for i in change.memory_ids if i in seen)
            # The domain the record is in now is on the record the caller may read; an older name may not be.
            kept.append(replace(change, memory_ids=ids, domain=row["record_domain"]))
    return kept
