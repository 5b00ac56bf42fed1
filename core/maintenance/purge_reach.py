"""After the store: a purge reaches the exports, every known backup and, by report, the rest.

Backups are rewritten, not deleted (files in backups/ that nobody recorded are recorded first,
`stray_backups`): each is opened with the home's key (`backup_files.opened`: attached beside a store
file, or opened as a store of its own when the home's store is shared), gets every tombstone the
store has, the purged records (and every record a tombstone names, so an earlier purge interrupted
half-way is finished too) are removed inside it with the same statements as in a store file, with
secure_delete on (freed bytes are zeroed), its text indexes are merged; its size and sha256 are
updated in `backups`. A backup that cannot be opened with the key is deleted (it may hold the text,
and memvault cannot restore it anyway) and reported. Exports are plaintext views: any file in
exports/ that names a purged id or carries a purged statement is deleted (make fresh ones with
`memvault export`).

On a shared store each machine reaches its own backups only (the list is kept per home): the others'
are files on other machines. The tombstones are in the store, so each of them applies this purge to
its own backups at its next purge, `purge --sweep`, or scheduled backup (`follow_purges`); the
report says so.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from memvault.core.maintenance import backup_files, stray_backups
from memvault.core.maintenance.files import fsync_file, remove_with_sides, sha256_of, side_files
from memvault.core.store.context import Context
from memvault.core.store.engines import file_engine
from memvault.core.store.seam import Store
from memvault.core.vocabulary.results import BackupsCleaned, PurgeReach

log = logging.getLogger("memvault.maintenance")
SCAN_LIMIT_BYTES = 256 * 1024 * 1024


def recipients(conn: Store, ids: Sequence[str]) -> dict[str, str]:
    """principal -> surface, for everyone a search result listing these records went to."""
    surfaces = conn.maintenance.principal_surfaces()
    return {name: surfaces.get(name, "local") for name in conn.maintenance.recipients(ids)}


def not_cleaned(recipients_by_surface: dict[str, str]) -> list[str]:
    notes = [
        "copies memvault does not know of: files you copied or moved out of memvault's folders, "
        "file-system snapshots and the disk blocks of replaced files",
    ]
    if recipients_by_surface:
        names = ", ".join(f"{name} ({surface})" for name, surface in sorted(recipients_by_surface.items()))
        notes.append(
            f"search results that listed it already went to: {names}; what an assistant received "
            "may remain in its conversation history, which memvault cannot reach"
        )
    return notes


def apply_tombstones(conn: Store, now: str, schema: str = "main") -> list[str]:
    """Purge, inside `schema`, every record its tombstones name (in the caller's transaction)."""
    pairs = conn.maintenance.tombstoned_present(schema)
    ids = [memory_id for memory_id, _ in pairs]
    texts = conn.maintenance.statements_of(ids, schema)
    by_category: dict[str, list[str]] = defaultdict(list)
    for memory_id, category in pairs:
        by_category[category].append(memory_id)
    for category, group in by_category.items():
        conn.maintenance.purge_records(group, now, category, schema)
    conn.maintenance.purge_texts(texts.values(), schema)
    return ids


def clean_exports(folder: Path, ids: Sequence[str], texts: Sequence[str]) -> list[str]:
    needles = [f"`{i}`".encode() for i in ids] + [t.encode("utf-8") for t in texts if t]
    removed: list[str] = []
    if not folder.is_dir() or not needles:
        return removed
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if path.stat().st_size <= SCAN_LIMIT_BYTES and any(n in path.read_bytes() for n in needles):
            path.unlink()
            removed.append(str(path))
    return removed


def _rewrite_backup(
    home: Store,
    key: bytes,
    path: Path,
    ids: Sequence[str],
    texts: Sequence[str],
    batch_id: str | None,
    category: str,
    now: str,
) -> str:
    tombstones = home.maintenance.tombstone_ids()
    with backup_files.opened(home, key, path, write=True) as opened:
        if opened is None or not opened[0].maintenance.is_store(opened[1]):
            return "unreadable"
        conn, copy = opened
        conn.maintenance.secure_delete_on(copy)
        with conn.transaction("DEFERRED"):
            extra = conn.maintenance.batch_members(batch_id, copy) if batch_id else []
            own_texts = conn.maintenance.statements_of([*ids, *extra], copy)
            conn.maintenance.add_tombstones(tombstones, copy)  # first: the store's categories win over `category`
            conn.maintenance.purge_records([*ids, *extra], now, category, copy)
            apply_tombstones(conn, now, copy)
            conn.maintenance.purge_texts({*texts, *own_texts.values()}, copy)
            if batch_id:
                conn.maintenance.purge_batch_rows(batch_id, copy)
            conn.maintenance.optimize_text_indexes(copy)
        # No VACUUM: secure_delete already zeroed every freed byte (tests decrypt every page to check),
        # and a VACUUM per backup would multiply the purge's time by the number of backups.
    return "rewritten"


def clean_backups(
    ctx: Context, ids: Sequence[str], texts: Sequence[str], batch_id: str | None, category: str
) -> BackupsCleaned:
    result: BackupsCleaned = {"rewritten": [], "deleted": [], "missing": [], "failed": []}
    now = ctx.now()
    owner = backup_files.home_id(ctx.paths)
    with ctx.lock:  # a backup written but never recorded (its writer was killed) holds the text too
        result["failed"] += stray_backups.adopt(ctx.store, ctx.key, ctx.paths, now).busy  # `purge --sweep` ends them
    with ctx.reading() as conn:
        rows = conn.backups.known(ctx.paths.home, owner)
    for row in rows:
        path = Path(row["path"])
        if not path.is_file():
            result["missing"].append(str(path))
            continue
        with ctx.lock:
            try:
                outcome = _rewrite_backup(ctx.store, ctx.key, path, ids, texts, batch_id, category, now)
            except backup_files.failures(ctx.store) as exc:  # busy: kept, a sweep finishes it; damaged: deleted
                outcome = "failed" if backup_files.is_busy(ctx.store, exc) else "unreadable"
                log.warning("a backup could not be rewritten (%s)", outcome)
        if outcome == "unreadable" and stray_backups.from_elsewhere(ctx.paths, path):
            log.warning("a backup is another home's, not broken: left in place")  # never deleted unproven
            result["failed"].append(str(path))
        elif outcome == "unreadable":
            remove_with_sides(path)
            result["deleted"].append(str(path))
        elif outcome == "failed":
            result["failed"].append(str(path))
        else:
            fsync_file(path)
            result["rewritten"].append(str(path))
    with ctx.transaction() as conn:
        for gone in result["deleted"] + result["missing"]:
            conn.backups.mark_removed(ctx.paths.home, owner, gone, now)
        for done in result["rewritten"]:
            conn.backups.update_digest(ctx.paths.home, owner, done, Path(done).stat().st_size, sha256_of(Path(done)))
    return result


def holding_purged(ctx: Context) -> list[str]:
    """This home's backups that still hold a record the store's tombstones name (a busy or damaged one is
    left to the next purge or sweep)."""
    with ctx.reading() as conn:
        rows = conn.backups.known(ctx.paths.home, backup_files.home_id(ctx.paths))
        purged = [memory_id for memory_id, _, _ in conn.maintenance.tombstone_ids()]
    holding: list[str] = []
    if not purged:
        return holding
    for row in rows:
        path = Path(row["path"])
        if not path.is_file():
            continue
        with ctx.lock:
            try:
                with backup_files.opened(ctx.store, ctx.key, path) as opened:
                    if opened is not None and opened[0].maintenance.existing_ids(purged, opened[1]):
                        holding.append(str(path))
            except backup_files.failures(ctx.store):  # busy or damaged: the next purge or sweep sees to it
                continue
    return holding


def follow_purges(ctx: Context) -> BackupsCleaned | None:
    """On a shared store: apply the purges another machine confirmed to this machine's backups (their
    tombstones are in the store). None when none of them holds a purged record."""
    if ctx.store.engine.name == file_engine().name or not holding_purged(ctx):
        return None
    log.info("applying purges made elsewhere to this machine's backups")
    return clean_backups(ctx, [], [], None, "other")


def elsewhere_note(ctx: Context) -> list[str]:
    """What a purge on a shared store cannot reach itself: the other machines' backups."""
    if ctx.store.engine.name == file_engine().name:
        return []
    return [
        "backups other machines made of this shared store are files on those machines: each applies this "
        "purge to its own backups at its next purge, `memvault purge --sweep` or scheduled backup "
        "(the daemon's), and `memvault doctor` there reports a backup that still holds it"
    ]


def scan_plaintext(ctx: Context, texts: Sequence[str], skip: set[Path]) -> list[str]:
    """Files under MEMVAULT_HOME, other than the encrypted store and backups, that still carry a text."""
    needles = [t.encode("utf-8") for t in texts if t]
    found: list[str] = []
    if not needles:
        return found
    for path in sorted(p for p in ctx.paths.home.rglob("*") if p.is_file()):
        if path in skip or path.stat().st_size > SCAN_LIMIT_BYTES:
            continue
        if any(n in path.read_bytes() for n in needles):
            found.append(f"{path} still contains the text: memvault did not make this file; delete it yourself")
    return found


def reach_everywhere(
    ctx: Context, ids: Sequence[str], texts: Sequence[str], batch_id: str | None, category: str
) -> PurgeReach:
    exports = clean_exports(ctx.paths.exports, ids, texts)
    backups = clean_backups(ctx, ids, texts, batch_id, category)
    skip = {ctx.paths.store, *side_files(ctx.paths.store)}
    for kept in backups["rewritten"]:
        skip |= {Path(kept), *side_files(Path(kept))}
    return {"exports_removed": exports, "backups": backups, "plaintext_copies": scan_plaintext(ctx, texts, skip)}
