"""Move a home's store to another engine: its SQLCipher file into an empty PostgreSQL database
(`to_shared`), or its shared store into a SQLCipher file of its own (`to_local`).

Every logical table crosses in one transaction on the target and is verified there, table by table
(`store_copy.py`), before the home changes: until then the home uses its old store, and a copy that
fails or is interrupted is rolled back (the database stays empty; a half-written file is deleted).
The source is held still meanwhile: a store file alone under an exclusive lock (refused while
another process has it open, as a restore is), a shared store read in one snapshot.

Then the home switches, in two steps: the new location is named, then the old one let go. A store
file is kept, encrypted and never deleted, in `backups/migrated-<time>/` with its backups (moved
there first: a shared store does not record this machine's files, so a later purge reaches none of
them) and a copy of its key file. A shared store's address leaves the home; its database is left as
it is for the other machines. A kill between the two steps leaves a home naming both, which memvault
refuses to open until one is removed, without choosing for you.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TypedDict

from memvault.core.maintenance.backup import STAMP_FORMAT
from memvault.core.maintenance.files import copy_private, fsync_dir, fsync_file, remove_with_sides, side_files
from memvault.core.maintenance.restore import hold_alone
from memvault.core.maintenance.store_copy import Progress, copy_into_file, copy_store, held_rows, quiet, refuse_filled
from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import keys
from memvault.core.store import engines
from memvault.core.store.seam import Store
from memvault.core.store.transfer_tables import TABLES
from memvault.core.vocabulary.clock import Clock
from memvault.core.vocabulary.errors import Conflict, StoreUnavailable

log = logging.getLogger("memvault.maintenance")
RETIRED_PREFIX = "migrated-"  # backups/migrated-<time>/: the store file a migration left, and its backups
STAGED_INFIX = ".migrating-"  # memvault.db.migrating-<random>.tmp: a file being filled
TABLE_NAMES = tuple(spec.name for spec in TABLES)  # what a move copies, in its order (a front end's progress)


class MigrateReport(TypedDict):
    engine: str  # where the home's store is now: "postgresql" or "sqlcipher"
    store: str  # the shared store's URL (without password) or the store file
    rows: dict[str, int]  # rows copied, by table
    previous_store_kept_as: str | None  # the retired store file (to a shared store)
    backups_moved: list[str]  # its backups, moved beside it (to a shared store)
    shared_store_left: str | None  # the shared store the home left, untouched (to a file)


class SharedTarget(TypedDict):
    store: str  # its URL, without password
    verified_tls: bool  # reached over TLS that verified the server (else: on this machine, where none is needed)
    rows: dict[str, int]  # the memvault records it holds already, by table (empty: a store can move there)


def check_shared(url: str) -> SharedTarget:
    """What `to_shared` would find at `url`, touching no home: a server reached by memvault's rules
    (verified TLS to another machine; PostgreSQL 14+ with pgvector 0.5+), memvault's schema made in it
    (as a move would; a store already there is left as it is) and what it holds. The reason, otherwise."""
    target, kept, _ = engines.open_shared(url)
    try:
        rows = held_rows(target)
    finally:
        target.close()
    return {"store": kept, "verified_tls": "sslmode=verify-full" in kept.replace(" ", ""), "rows": rows}


def to_shared(
    home: str | os.PathLike[str] | None,
    url: str,
    *,
    clock: Clock,
    progress: Progress = quiet,
    passphrase: str | None = None,
) -> MigrateReport:
    """Move the home's store file into the empty PostgreSQL database at `url`."""
    paths = VaultPaths.from_env(home)
    if engines.is_shared(paths):
        raise Conflict(f"{paths.home} uses a shared store already: to move it elsewhere, migrate it to local first")
    if not paths.store.exists():
        raise StoreUnavailable(f"no memvault store in {paths.home}: run `memvault init`")
    key = keys.load_key(paths.key_file, passphrase=passphrase)
    target, kept, password = engines.open_shared(url)
    try:
        refuse_filled(target, "that database")  # joining a store is `memvault init --store`
        holder = hold_alone(paths, key, "migrate")
        if holder is None:
            raise StoreUnavailable("the store file does not open (damaged?): see `memvault doctor`; nothing changed")
        try:
            holder.migrations.migrate()
            _take_alone(holder)
            with target.transaction():
                rows = copy_store(holder, target, progress)
            try:
                folder, backups = _retire(paths, clock, lambda: engines.point_at_shared(paths, kept, password))
            except Exception as exc:
                raise StoreUnavailable(
                    f"the database holds a verified copy, but this home could not switch to it "
                    f"({type(exc).__name__}: {exc}); the home still uses its store file. Empty that database "
                    "(or make a new one) before migrating again"
                ) from None
        finally:
            holder.close()
    finally:
        target.close()
    log.info("store moved to a shared store (%d rows)", sum(rows.values()))
    return {
        "engine": "postgresql",
        "store": kept,
        "rows": rows,
        "previous_store_kept_as": str(folder / paths.store.name),
        "backups_moved": backups,
        "shared_store_left": None,
    }


def to_local(
    home: str | os.PathLike[str] | None,
    *,
    progress: Progress = quiet,
    passphrase: str | None = None,
) -> MigrateReport:
    """Copy the home's shared store into a store file of its own, which the home uses from then on."""
    paths = VaultPaths.from_env(home)
    if not engines.is_shared(paths):
        raise Conflict(f"{paths.home} uses a store file already")
    key = keys.load_key(paths.key_file, passphrase=passphrase)
    shared = str(engines.location_of(paths)[1])
    for stale in paths.home.glob(f"{paths.store.name}{STAGED_INFIX}*.tmp"):  # a killed migration's
        remove_with_sides(stale)
    source = engines.open_store(paths, key)
    staged = paths.home / f"{paths.store.name}{STAGED_INFIX}{secrets.token_hex(4)}.tmp"
    try:
        source.migrations.migrate()
        rows = copy_into_file(source, staged, key, progress)
        fsync_file(staged)
        os.replace(staged, paths.store)
        try:
            engines.leave(paths)
        except BaseException:
            paths.store.unlink()
            raise
        fsync_dir(paths.home)
    except BaseException:
        remove_with_sides(staged)
        raise
    finally:
        source.close()
    log.info("store moved from a shared store to a file (%d rows)", sum(rows.values()))
    return {
        "engine": "sqlcipher",
        "store": str(paths.store),
        "rows": rows,
        "previous_store_kept_as": None,
        "backups_moved": [],
        "shared_store_left": shared,
    }


def _take_alone(holder: Store) -> None:
    try:
        holder.begin_exclusive()
    except holder.engine.errors as exc:
        if not holder.engine.is_busy(exc):
            raise
        raise StoreUnavailable(
            "another memvault process opened the store meanwhile: close it and migrate again"
        ) from None


def _retire(paths: VaultPaths, clock: Clock, name_shared: Callable[[], None]) -> tuple[Path, list[str]]:
    """Keep the store file, its backups and a copy of its key file in `backups/migrated-<time>/` (the
    backups first, while the home still uses the file; the file once `name_shared` named the new
    store). A failure on the way puts everything back. Returns the folder and the backups moved."""
    stamp = clock.now().strftime(STAMP_FORMAT)
    folder = paths.backups / f"{RETIRED_PREFIX}{stamp}"
    n = 2
    while folder.exists():
        folder = paths.backups / f"{RETIRED_PREFIX}{stamp}-{n}"
        n += 1
    paths.ensure()
    folder.mkdir(mode=0o700)
    moved: list[tuple[Path, Path]] = []
    try:
        copy_private(paths.key_file, folder / paths.key_file.name)
        backups = sorted(paths.backups.glob("memvault-*.db"))
        _move_into(backups, folder, moved)
        name_shared()
        try:
            _move_into([paths.store], folder, moved)
        except BaseException:
            engines.leave(paths)
            raise
    except BaseException:
        for source, kept in reversed(moved):
            os.replace(kept, source)
        (folder / paths.key_file.name).unlink(missing_ok=True)
        folder.rmdir()
        raise
    for changed in (folder, paths.backups, paths.home):
        fsync_dir(changed)
    return folder, [str(folder / backup.name) for backup in backups]


def _move_into(files: list[Path], folder: Path, moved: list[tuple[Path, Path]]) -> None:
    """Move each file and those beside it (WAL, journal, a backup's -keys) into `folder`, noting each move."""
    for file in files:
        for part in [file, *side_files(file)]:
            os.replace(part, folder / part.name)
            moved.append((part, folder / part.name))
