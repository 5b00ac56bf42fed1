"""The daily backup the daemon runs, and the retention that keeps 7 daily and 4 weekly copies.

`run_scheduled` is cheap to call often (the daemon may call it every hour): it
makes at most one scheduled backup per UTC day. That backup is a `weekly` one
when no weekly backup is younger than seven days, a `daily` one otherwise.
Retention then removes the oldest scheduled backups beyond 7 daily and 4
weekly; manual and pre-restore backups are never removed automatically.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

from memvault.core.maintenance import backup_files, purge_reach
from memvault.core.maintenance.backup import make_backup
from memvault.core.maintenance.files import remove_with_sides
from memvault.core.store.context import Context
from memvault.core.vocabulary.clock import format_time, parse_time
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.results import BackupAnswer, ScheduledBackup

log = logging.getLogger("memvault.maintenance")

KEEP = {"daily": 7, "weekly": 4}


def run_scheduled(ctx: Context, caller: Caller) -> ScheduledBackup:
    """Make today's scheduled backup if it is not made yet, then apply retention."""
    now = ctx.clock.now()
    with ctx.reading() as conn:
        rows = [r for r in conn.backups.known(ctx.paths.home, backup_files.home_id(ctx.paths)) if r["kind"] in KEEP]
    today = now.date()
    made: BackupAnswer | None = None
    if not any(parse_time(r["created_at"], "created_at").date() == today for r in rows):
        week_ago = format_time(now - timedelta(days=7))
        weekly_due = not any(r["kind"] == "weekly" and r["created_at"] > week_ago for r in rows)
        made = make_backup(ctx, caller, kind="weekly" if weekly_due else "daily").to_dict()
    removed = apply_retention(ctx, caller)
    purge_reach.follow_purges(ctx)  # a shared store: purges another machine confirmed reach our backups
    return {"made": made, "removed": removed}


def apply_retention(ctx: Context, caller: Caller) -> list[str]:
    removed: list[str] = []
    owner = backup_files.home_id(ctx.paths)
    with ctx.reading() as conn:
        rows = conn.backups.known(ctx.paths.home, owner)
    for kind, keep in KEEP.items():
        of_kind = sorted((r for r in rows if r["kind"] == kind), key=lambda r: r["created_at"], reverse=True)
        for row in of_kind[keep:]:
            remove_with_sides(Path(row["path"]))
            removed.append(row["path"])
    if removed:
        now = ctx.now()
        with ctx.transaction() as conn:
            for path in removed:
                conn.backups.mark_removed(ctx.paths.home, owner, path, now)
            conn.events.record(caller, "backups_expired", now, None, count=len(removed))
        log.info("retention removed %d scheduled backups", len(removed))
    return removed
