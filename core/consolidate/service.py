"""`Vault.consolidation`: `memvault consolidate` and the daemon's scheduled run.

A run is recorded like an import batch (format `consolidation`, its items the changes), so
`undo(run_id)` puts every record back as it was with the import's own rollback.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, TypedDict

from memvault.core.consolidate import actions
from memvault.core.consolidate.findings import Findings, find
from memvault.core.importers.report import RollbackReport
from memvault.core.importers.rollback import rollback
from memvault.core.retrieval.tiers import moment
from memvault.core.security.access import check_kill_switch, require_owner
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.model import HOUSEKEEPER, Caller, Memory, new_id

MAX_RECORDS = 20_000
SCHEDULE = timedelta(days=1)


class ConsolidationReport(TypedDict):
    dry_run: bool
    run_id: str | None
    merged: list[dict[str, Any]]
    proposed: int
    disputed: list[dict[str, Any]]
    lowered: int
    records_seen: int
    records_judged: int  # the scheduled run judges only what changed since the last run


def _same(conn: Store, record: Memory) -> bool:
    """Still as the snapshot saw it (nobody changed it while the run was finding)."""
    return conn.memories.status_of(record.id) == (record.status.value, record.revision)


def _unchanged(conn: Store, found: Findings) -> Findings:
    return Findings(
        groups=[g for g in found.groups if all(_same(conn, m) for m in g)],
        conflicts=[(a, b) for a, b in found.conflicts if _same(conn, a) and _same(conn, b)],
        seen=found.seen,
        judged=found.judged,
    )


class Consolidation:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def run(
        self, caller: Caller, *, dry_run: bool = False, limit: int = MAX_RECORDS, since: str | None = None
    ) -> ConsolidationReport:
        """Find and (unless `dry_run`) apply; one run is one transaction: all of it or nothing.
        With `since`, only records learned or changed since then are judged (see `find`)."""
        check_kill_switch(self.ctx.kill_switch(), caller)
        require_owner(caller, "consolidation")
        if dry_run:
            with self.ctx.reading() as conn:
                return self._report(*self._find(conn, limit, since), dry_run=True)
        with self.ctx.reading() as conn:  # the long part reads a snapshot: writers are not held up
            found, stale = self._find(conn, limit, since)
        with self.ctx.transaction() as conn:
            found, stale = _unchanged(conn, found), [r for r in stale if _same(conn, r)]
            report = self._report(found, stale, dry_run=False)
            if found.groups or found.conflicts or stale:
                report["run_id"] = self._apply(conn, caller, found, stale, report)
            else:  # nothing to change: the run is still an event (the daemon's schedule reads it)
                conn.events.record(caller, "consolidation_run", self.ctx.now(), None, run_id=None)
        return report

    def scheduled(self, caller: Caller) -> ConsolidationReport | None:
        """The daemon's job: a run when the last one is a day old (None: not due)."""
        with self.ctx.reading() as conn:
            last = conn.imports.last_consolidation()
        if last and moment(self.ctx.now()) - moment(last) < SCHEDULE:
            return None
        return self.run(caller, since=last)  # ~8 ms a judged record: the whole store only the first time

    def _find(self, conn: Store, limit: int, since: str | None) -> tuple[Findings, list[Memory]]:
        found = find(conn, limit, since)
        busy = {m.id for g in found.groups for m in g} | {i.id for pair in found.conflicts for i in pair}
        current = conn.memories.current(HOUSEKEEPER, limit)
        return found, [r for r in current if r.id not in busy and actions.is_stale(r, self.ctx.now())]

    @staticmethod
    def _report(found: Findings, stale: list[Memory], *, dry_run: bool) -> ConsolidationReport:
        return {
            "dry_run": dry_run,
            "run_id": None,
            "merged": [{"members": [m.id for m in g], "statement": g[0].statement, "id": None} for g in found.groups],
            "proposed": 0,
            "disputed": [{"ids": [a.id, b.id]} for a, b in found.conflicts],
            "lowered": len(stale),
            "records_seen": found.seen,
            "records_judged": found.judged,
        }

    def _apply(
        self, conn: Store, caller: Caller, found: Findings, stale: list[Memory], report: ConsolidationReport
    ) -> str:
        run_id, now = new_id("k"), self.ctx.now()
        conn.imports.create_batch(run_id, path="consolidation", fmt="consolidation", source_hash=run_id,
                                 options={}, chunks_total=1, now=now)  # fmt: skip
        disputed = {i.id for pair in found.conflicts for i in pair}
        for entry, group in zip(report["merged"], found.groups, strict=True):
            if not disputed & {m.id for m in group}:
                entry["id"] = actions.merge(conn, caller, run_id, group, now)
                report["proposed"] += entry["id"] is None
        for older, newer in found.conflicts:
            actions.dispute(conn, caller, run_id, older, newer, now)
        for record in stale:
            actions.lower(conn, caller, run_id, record, now)
        conn.imports.chunk_done(run_id, 1, {"merged": len(found.groups), "lowered": len(stale)}, now)
        conn.events.record(caller, "consolidation_run", now, None, run_id=run_id)
        return run_id

    def undo(self, caller: Caller, run_id: str) -> RollbackReport:
        require_owner(caller, "undoing a consolidation")
        return rollback(self.ctx, caller, run_id)
