"""Undo an import batch (or a consolidation run): exactly what it did, and nothing done since.

Records it added are removed the way a purge removes them (every index, vector, link and
proposal; a content-free tombstone remains, so known backups are swept too); records it
confirmed or superseded get their earlier state back; conversations it brought in and domains it
opened (now empty) go. One transaction: all of it or nothing.

What changed after the batch is kept. Each item of a batch holds the state it left its records in
(status, validity, supersession, confirmation, importance, confidence, scope, tags, archiving;
not the domain, which the daemon's upkeep moves). A record whose state differs now — the person
corrected, archived, restored or re-scoped it, another import confirmed it, a record made since
links to it, it was purged — is not touched, and neither is anything the batch tied to it (a
correction and the record it superseded go back together or stay together). The report lists
each such record with the reason, ids only. `dry_run` says all of it and writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from memvault.core.importers.report import KeptRecord, RollbackReport
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import required_text
from memvault.core.vocabulary.errors import Conflict, NotFound
from memvault.core.vocabulary.model import Caller

WRITES = ("added", "corrected")  # items whose memory_id is a record the batch wrote
CHANGES = ("corrected", "confirmed", "changed")  # items whose target_id is a record the batch changed


@dataclass
class _Mention:
    before: dict[str, Any] | None  # the record's state before this item (None: the item wrote it)
    after: dict[str, Any] | None  # the state the item left (None: a batch recorded before states were kept)
    exact: bool  # `after` was taken right after this item, not at the end of its chunk


@dataclass
class Plan:
    restore: dict[str, dict[str, Any]] = field(default_factory=dict)  # record: its state before the batch
    purge: list[str] = field(default_factory=list)
    unlink: list[tuple[str, str, str]] = field(default_factory=list)
    domains: list[str] = field(default_factory=list)
    kept: list[KeptRecord] = field(default_factory=list)


def rollback(ctx: Context, caller: Caller, batch_id: str, *, dry_run: bool = False) -> RollbackReport:
    batch_id = required_text(batch_id, "batch_id", max_chars=64)
    if dry_run:
        with ctx.reading() as conn:
            plan = _plan(conn, batch_id)
            conversations = conn.conversations.count_batch(batch_id)
        return _report(batch_id, plan, conversations, dry_run=True)
    with ctx.transaction() as conn:
        plan = _plan(conn, batch_id)
        conversations = _apply(conn, caller, batch_id, plan, ctx.now())
    return _report(batch_id, plan, conversations, dry_run=False)


def _report(batch_id: str, plan: Plan, conversations: int, *, dry_run: bool) -> RollbackReport:
    return {
        "batch_id": batch_id, "dry_run": dry_run, "removed": len(plan.purge), "restored": len(plan.restore),
        "conversations": conversations, "kept": plan.kept,
    }  # fmt: skip


def _apply(conn: Store, caller: Caller, batch_id: str, plan: Plan, now: str) -> int:
    for from_id, to_id, link_type in plan.unlink:
        conn.imports.drop_link(from_id, to_id, link_type)
    for record, prior in plan.restore.items():
        conn.imports.put_back(record, prior, now)
        conn.events.record(caller, "import_undone", now, record, batch_id=batch_id)
    conn.maintenance.purge_records(plan.purge, now, "import_rollback")
    for domain in plan.domains:
        conn.imports.drop_unused_domain(domain)
    conversations = conn.conversations.delete_batch(batch_id)
    conn.imports.mark_rolled_back(batch_id, now)
    conn.events.record(caller, "import_rolled_back", now, None, batch_id=batch_id, removed=len(plan.purge),
                  restored=len(plan.restore), kept=len(plan.kept))  # fmt: skip
    return conversations


def _plan(conn: Store, batch_id: str) -> Plan:
    manifest = conn.imports.manifest(batch_id)
    if manifest is None:
        raise NotFound("no such import batch")
    if manifest["status"] == "rolled_back":
        raise Conflict("the import batch was already rolled back")
    items = list(reversed(conn.imports.items(batch_id)))  # oldest first
    mentions, written, groups = _mentions(items)
    now = conn.imports.states(mentions)
    for record, state in now.items():  # what the batch's records are superseded by now ties them too
        if state["superseded_by_id"] in mentions:
            groups.join(record, state["superseded_by_id"])
    reasons = _reasons(conn, batch_id, mentions, written, now)
    kept = groups.spread(reasons)
    plan = Plan(kept=[{"id": record, "reason": reason} for record, reason in sorted(kept.items())])
    for record, seen in mentions.items():
        if record in kept or record not in now:
            continue
        if record in written:
            plan.purge.append(record)
        elif seen[0].before is not None:
            plan.restore[record] = seen[0].before  # the state before the batch first touched it
    for item in items:
        if item["action"] == "linked" and not {item["memory_id"], item["target_id"]} & set(kept):
            plan.unlink.append((item["memory_id"], item["target_id"], item["prior"]["type"]))
        elif item["action"] == "domain_created":
            plan.domains.append(item["target_id"])
    return plan


def _mentions(items: list[dict[str, Any]]) -> tuple[dict[str, list[_Mention]], set[str], _Groups]:
    """Per record, what each item did to it (oldest first); the records the batch wrote; the records
    the batch tied together (a correction and what it superseded, a link it made)."""
    mentions: dict[str, list[_Mention]] = {}
    written: set[str] = set()
    groups = _Groups()
    for item in items:
        prior, action = item["prior"], item["action"]
        exact = bool(prior.get("exact"))
        if action in WRITES and item["memory_id"]:
            written.add(item["memory_id"])
            mentions.setdefault(item["memory_id"], []).append(_Mention(None, prior.get("after_new"), exact))
        if action in CHANGES and item["target_id"]:
            before = {k: v for k, v in prior.items() if k not in ("after", "after_new", "sealed", "exact")}
            mentions.setdefault(item["target_id"], []).append(_Mention(before or None, prior.get("after"), exact))
        if action in ("corrected", "linked") and item["memory_id"] and item["target_id"]:
            groups.join(item["memory_id"], item["target_id"])
    return mentions, written, groups


def _reasons(
    conn: Store, batch_id: str, mentions: dict[str, list[_Mention]], written: set[str],
    now: dict[str, dict[str, Any]],
) -> dict[str, str]:  # fmt: skip
    """Why a record cannot be undone, for each such record of the batch."""
    reasons: dict[str, str] = {}
    unsealed = [record for record, seen in mentions.items() if seen[-1].after is None and record in now]
    mark = conn.imports.batch_mark(batch_id) if unsealed else 0
    for record in conn.imports.touched_after(unsealed, mark):
        reasons[record] = "changed since the import"
    for record, seen in mentions.items():
        if record not in now:
            reasons[record] = "no longer in the store (purged since the import)"
            continue
        left = seen[-1].after
        changed = sorted(k for k in left or {} if now[record].get(k) != left.get(k)) if left else []
        if changed:
            reasons[record] = f"changed since the import ({', '.join(changed)})"
        elif _changed_between(seen):
            reasons[record] = "changed between the import's chunks"
    live = {record for record in mentions if record in now}
    for record, other in conn.imports.linked_from_outside(written & live, live).items():
        reasons.setdefault(record, f"a record made since links to it ({other})")
    return reasons


def _changed_between(seen: list[_Mention]) -> bool:
    """Someone changed the record between two items of the batch (an import resumed after a while)."""
    for earlier, later in pairwise(seen):
        before, after = later.before, earlier.after
        if (
            earlier.exact
            and after is not None
            and before is not None
            and any(before.get(k) != v for k, v in after.items())
        ):
            return True
    return False


class _Groups:
    """Records that go back together or stay together (union-find over record ids)."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, record: str) -> str:
        root = record
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        self.parent[record] = root
        return root

    def join(self, one: str, other: str) -> None:
        self.parent[self.find(one)] = self.find(other)

    def spread(self, reasons: dict[str, str]) -> dict[str, str]:
        """Every record kept: those with a reason, and those tied to one of them."""
        kept = dict(reasons)
        by_root: dict[str, str] = {}
        for record in sorted(reasons):
            by_root.setdefault(self.find(record), record)
        for record in self._members():
            root = self.find(record)
            if root in by_root and record not in kept:
                kept[record] = f"kept with {by_root[root]}, which cannot be undone"
        return kept

    def _members(self) -> Iterable[str]:
        return sorted(set(self.parent) | set(self.parent.values()))
