"""Restore the store from a backup: verify first, keep the current store, then swap atomically.

1. The candidate is copied beside the store (a private file) and that copy is
   verified: it opens with this store's key, passes PRAGMA integrity_check,
   has memvault's tables and a schema this memvault understands. A random
   file, a plaintext SQLite file, a store under another key or a newer schema
   is refused and nothing else is touched.
2. The current store is kept as a `pre-restore` backup (an encrypted export;
   if it cannot be opened, its bytes are moved into backups/ as they are).
3. The current store's WAL is checkpointed and the store switched out of WAL
   mode under an exclusive lock (refused while another process holds it), then
   the verified copy is renamed over it (fsync, rename, fsync the folder);
   stale -wal/-shm files are moved aside first, never replayed into the new file.
   Before that, while it is still a private copy, the verified copy is
   migrated to this memvault's schema, learns the backups the old store knew
   of, and every record the old store's tombstones name is purged again; a
   tombstone written meanwhile is applied under the exclusive lock, before
   the rename. The restored store is never live with a purged record in it.
A kill at any point leaves either the old store or the fully settled restored one in place.
Into an empty home (no store, no key file: a new machine) the key comes from the
backup's `-keys` sidecar, unwrapped with the recovery key or the passphrase
(`core/security/key_backup.py`); the home gets its own key file once the backup verified.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memvault.core.maintenance import purge_reach
from memvault.core.maintenance.backup import STAMP_FORMAT
from memvault.core.maintenance.files import (
    copy_private,
    create_private,
    fsync_dir,
    fsync_file,
    remove_with_sides,
    sha256_of,
    side_files,
)
from memvault.core.runtime import change_signal
from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import key_backup, keys
from memvault.core.store import backup_rows, change_rows, events, migrations, tombstone_checks, transactions
from memvault.core.store import maintenance as sql
from memvault.core.store.connection import Connection, DatabaseError, OperationalError, open_connection
from memvault.core.store.transactions import transaction
from memvault.core.vocabulary.clock import Clock, format_time
from memvault.core.vocabulary.errors import InvalidArgument, StoreTooNew, StoreUnavailable, WrongPassphrase
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.results import RestoreReport

log = logging.getLogger("memvault.maintenance")
STAGED_PREFIX = "memvault.db.restore-"


def verify(path: Path, key: bytes) -> dict[str, Any]:
    """Check a file is a sound memvault store under `key` that this memvault can open.

    Opens the file for writing (journal mode changes): call it on a private copy.
    """
    try:
        conn = open_connection(path, key)
    except WrongPassphrase:
        raise InvalidArgument("not a memvault backup of this store: it does not open with this store's key") from None
    try:
        problems = sql.integrity(conn)
        if problems:
            raise InvalidArgument(f"the backup is damaged (integrity check: {problems[0][:120]})")
        if not sql.table_names(conn) >= sql.REQUIRED_TABLES:
            raise InvalidArgument("the file opens with this key but is not a memvault store")
        version = sql.schema_version(conn) or 0
        if version > migrations.LATEST:
            raise StoreTooNew(
                f"the backup has schema {version}, newer than this memvault understands ({migrations.LATEST})"
            )
        records = tombstone_checks.record_count(conn)
        sql.journal_mode(conn, "delete")
    except DatabaseError as exc:
        raise InvalidArgument(f"the backup is damaged ({exc})") from None
    finally:
        conn.close()
    return {"schema_version": version, "records": records}


def _stage(paths: VaultPaths, source: Path) -> Path:
    staged = paths.home / f"{STAGED_PREFIX}{secrets.token_hex(4)}.tmp"
    copy_private(source, staged)
    return staged


def _hold(paths: VaultPaths, key: bytes) -> Connection | None:
    """Open the current store alone: WAL checkpointed and switched off; None if it cannot be opened."""
    if not paths.store.exists():
        return None
    try:
        holder = open_connection(paths.store, key)
    except (WrongPassphrase, DatabaseError):
        return None
    try:
        sql.checkpoint_truncate(holder)
        if sql.journal_mode(holder, "delete") != "delete":
            raise OperationalError("database is locked (still in WAL mode)")
    except DatabaseError as exc:
        holder.close()
        if sql.is_busy(exc):
            raise StoreUnavailable(
                "another memvault process has the store open (the app or the daemon): close it and restore again"
            ) from None
        return None  # damaged: it will be kept aside as it is
    return holder


def _keep_current(
    paths: VaultPaths, holder: Connection | None, now: str, stamp: str
) -> tuple[dict[str, Any] | None, dict[str, Any], Connection | None]:
    """Back up the current store before it is replaced.

    Returns that backup, what the store knew (backups, tombstones), and the holder to swap
    with (None when the store turned out damaged and was moved aside as it is).
    """
    paths.ensure()
    target = paths.backups / f"memvault-{stamp}-pre-restore.db"
    n = 2
    while target.exists():
        target = paths.backups / f"memvault-{stamp}-pre-restore-{n}.db"
        n += 1
    nothing: dict[str, Any] = {"backups": [], "tombstones": []}
    if holder is None:
        return (_move_damaged(paths, target, now) if paths.store.exists() else None), nothing, None
    create_private(target)
    try:
        known = {
            "backups": backup_rows.known(holder, paths.home, include_removed=True),
            "tombstones": sql.tombstone_ids(holder),
        }
        sql.export_into(holder, target)
        fsync_file(target)
        key_backup.write_beside(target, paths.key_file)
    except DatabaseError as exc:
        remove_with_sides(target)
        if sql.is_busy(exc):
            raise
        holder.close()  # it opens, but is damaged further in: keep its pages as they are instead
        return _move_damaged(paths, target, now), nothing, None
    except BaseException:
        remove_with_sides(target)
        raise
    return _row(target, "pre-restore", now), known, holder


def _move_damaged(paths: VaultPaths, target: Path, now: str) -> dict[str, Any]:
    """A store that cannot be opened is kept as it is (it is encrypted), with its WAL beside it."""
    damaged = target.with_name(target.stem + "-unopened.db")
    for side in side_files(paths.store):
        os.replace(side, Path(f"{damaged}{side.name[len(paths.store.name) :]}"))
    os.replace(paths.store, damaged)
    return _row(damaged, "pre-restore", now)


def _row(path: Path, kind: str, now: str) -> dict[str, Any]:
    return {
        "path": str(path),
        "created_at": now,
        "bytes": path.stat().st_size,
        "sha256": sha256_of(path),
        "kind": kind,
        "removed_at": None,
    }


def _swap(paths: VaultPaths, holder: Connection | None, staged: Path, key: bytes, known: dict[str, Any]) -> None:
    """Rename the settled copy over the store while no other process can use the old one."""
    if holder is not None:
        try:
            transactions.begin_exclusive(holder)
        except OperationalError:
            raise StoreUnavailable(
                "another memvault process opened the store meanwhile: close it and restore again"
            ) from None
        late = sorted(set(sql.tombstone_ids(holder)) - set(known["tombstones"]))
        if late:  # a purge finished after the old store was read: it reaches the copy too
            with _opened(staged, key) as conn:
                _purge_again(conn, late, late[-1][1])
    for stale in side_files(paths.store):  # never let an old WAL be replayed into the new file
        os.replace(stale, stale.with_name(stale.name + ".stale"))
    os.replace(staged, paths.store)
    fsync_dir(paths.home)
    for stale in paths.home.glob(f"{paths.store.name}-*.stale"):
        stale.unlink(missing_ok=True)


@contextlib.contextmanager
def _opened(staged: Path, key: bytes) -> Iterator[Connection]:
    """The private copy, left as one file (no WAL beside it) for the rename."""
    conn = open_connection(staged, key)
    try:
        yield conn
        sql.checkpoint_truncate(conn)
        sql.journal_mode(conn, "delete")
    finally:
        conn.close()


def _purge_again(conn: Connection, tombstones: list[tuple[str, str, str]], now: str) -> list[str]:
    with transaction(conn):
        sql.add_tombstones(conn, tombstones)
        repurged = purge_reach.apply_tombstones(conn, now)
    if repurged:
        sql.optimize_text_indexes(conn)
        sql.vacuum(conn)
    return repurged


def _settle(
    paths: VaultPaths, staged: Path, key: bytes, known: dict[str, Any], done: dict[str, Any]
) -> tuple[list[str], int]:
    """Make the private copy what the restored store must be before it goes live."""
    pre = done["pre"]
    with _opened(staged, key) as conn:
        migrations.migrate(conn)
        with transaction(conn):
            backup_rows.merge(conn, paths.home, [*known["backups"], *([pre] if pre else [])])
        repurged = _purge_again(conn, known["tombstones"], done["now"])
        with transaction(conn):
            events.record(
                conn,
                OWNER,
                "restored_from_backup",
                done["now"],
                None,
                repurged=len(repurged),
                kept_as=pre["path"] if pre else None,
                source_name=done["source"].name,
            )
        return repurged, change_rows.cursor(conn)


def clean_stale(paths: VaultPaths) -> list[str]:
    """Staged copies a killed restore left behind (they are encrypted; still, no clutter)."""
    removed = []
    for staged in paths.home.glob(f"{STAGED_PREFIX}*.tmp"):
        removed += remove_with_sides(staged)
    return removed


def _key_for(paths: VaultPaths, backup: Path, *, fresh: bool, secret: str | None) -> tuple[dict[str, Any], bytes, bool]:
    """This store's key; into an empty home, the backup's own, unwrapped with the passphrase or recovery key."""
    if not fresh:
        return {}, keys.load_key(paths.key_file, passphrase=secret), False
    carried = key_backup.read_beside(backup)
    key, by_recovery_key = key_backup.unlock(carried, secret or key_backup.secret_from_person())
    return carried, key, by_recovery_key


def restore_backup(
    source: str | os.PathLike[str],
    home: str | os.PathLike[str] | None = None,
    *,
    clock: Clock,
    secret: str | None = None,
    new_passphrase: str | None = None,
) -> RestoreReport:
    paths = VaultPaths.from_env(home)
    chosen = Path(source).expanduser().resolve()
    if not chosen.is_file():
        raise InvalidArgument(f"{chosen} is not a file")
    if chosen == paths.store:
        raise InvalidArgument("that is the store itself")
    fresh = not paths.key_file.exists() and not paths.store.exists()
    carried, key, by_recovery_key = _key_for(paths, chosen, fresh=fresh, secret=secret)
    paths.ensure()
    clean_stale(paths)
    staged = _stage(paths, chosen)
    now = format_time(clock.now())
    try:
        checked = verify(staged, key)
        if fresh:  # a new machine: the home gets a key file of its own, only for a backup that opened
            key_backup.install(
                paths.key_file, carried, key, by_recovery_key=by_recovery_key, new_passphrase=new_passphrase
            )
        holder = _hold(paths, key)
        try:
            pre, known, holder = _keep_current(paths, holder, now, clock.now().strftime(STAMP_FORMAT))
            try:
                repurged, cursor = _settle(paths, staged, key, known, {"pre": pre, "now": now, "source": chosen})
                _swap(paths, holder, staged, key, known)
            except BaseException:
                if pre is not None and holder is not None:
                    remove_with_sides(Path(pre["path"]))
                raise
        finally:
            if holder is not None:
                holder.close()
    except BaseException:
        remove_with_sides(staged)
        if fresh:
            paths.key_file.unlink(missing_ok=True)
        raise
    change_signal.notify(paths, cursor)  # listeners reload (their cursor may be ahead)
    log.info("store restored from a backup (%d records, %d purged again)", checked["records"], len(repurged))
    return {
        "restored_from": str(chosen),
        "records": checked["records"] - len(repurged),
        "schema_version": max(checked["schema_version"], migrations.LATEST),
        "previous_store_kept_as": pre["path"] if pre else None,
        "purged_again": len(repurged),
    }
