"""Move a home's store to another engine: its SQLCipher file into an empty PostgreSQL database
(`to_shared`), or its shared store into a SQLCipher file of its own (`to_local`).

Every logical table crosses in one transaction on the target and is verified there, table by table
(`store_copy.py`), before the home changes: until then the home uses its old store, and a copy that
fails or is interrupted is rolled back (the database stays empty; a half-written file is deleted).
The source is held still meanwhile: a store file alone under an exclusive lock (refused while
another process has it open, as a restore is), a shared store read in one snapshot. The copy into a
database also writes a marker there, in the same transaction (`COPY_MARKER`, a settings row: which
store, and each table's tally): should the move stop after the commit but before the home switched,
the same move run again finds that copy, checks it still matches the store file and the database,
and only switches the home (the marker is removed once the home switched).

Then the home switches, in two steps: the new location is named (the store file is closed only
then: no other process opens it once both are named, and Windows moves no file a process has open),
then the old one let go. A failure or an interrupt on the way puts the home back on its file. A store
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
from typing import Any, TypedDict

from memvault.core.maintenance import backup_files
from memvault.core.maintenance.backup import STAMP_FORMAT
from memvault.core.maintenance.files import (
    copy_private,
    fsync_dir,
    fsync_file,
    remove_with_sides,
    side_files,
    unused_name,
)
from memvault.core.maintenance.restore import hold_alone, take_alone
from memvault.core.maintenance.store_copy import (
    BATCH,
    Progress,
    copy_into_file,
    copy_tallied,
    quiet,
    refuse_filled,
)
from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import keys
from memvault.core.store import engines
from memvault.core.store.seam import Store
from memvault.core.store.transfer_tables import TABLES, Tally
from memvault.core.vocabulary.clock import Clock
from memvault.core.vocabulary.errors import Conflict, StoreUnavailable

log = logging.getLogger("memvault.maintenance")
RETIRED_PREFIX = "migrated-"  # backups/migrated-<time>/: the store file a migration left, and its backups
STAGED_INFIX = ".migrating-"  # memvault.db.migrating-<random>.tmp: a file being filled
COPY_MARKER = "_migration_copy"  # a setting the copy writes in its own transaction: which store, which tallies
TABLE_NAMES = tuple(spec.name for spec in TABLES)  # what a move copies, in its order (a front end's progress)


class MigrateReport(TypedDict):
    engine: str  # where the home's store is now: "postgresql" or "sqlcipher"
    store: str  # the shared store's URL (without password) or the store file
    rows: dict[str, int]  # rows copied, by table
    previous_store_kept_as: str | None  # the retired store file (to a shared store)
    backups_moved: list[str]  # its backups, moved beside it (to a shared store)
    shared_store_left: str | None  # the shared store the home left, untouched (to a file)
    resumed: bool  # the copy an interrupted move of this store had left was used: nothing was copied again


class SharedTarget(TypedDict):
    store: str  # its URL, without password
    verified_tls: bool  # reached over TLS that verified the server (else: on this machine, where none is needed)
    schema_version: int | None  # memvault's schema there (None: its tables are not there yet; a move makes them)
    latest_schema: int  # the schema this memvault makes or brings a store to
    rows: dict[str, int]  # the memvault records it holds already, by table (empty: a store can move there)
    copy_of_this_store: bool  # it holds the copy an interrupted move of this home's store left: a move resumes


def check_shared(url: str, home: str | os.PathLike[str] | None = None) -> SharedTarget:
    """What `to_shared` would find at `url`, touching no home and changing nothing in the database: a
    server reached by memvault's rules (verified TLS to another machine; PostgreSQL 14+ with pgvector
    0.5+ available), memvault's schema version there (if its tables exist), what it holds and whether
    that is the copy an interrupted move of `home`'s store left. The reason, otherwise. Only
    `to_shared` makes or upgrades memvault's tables."""
    target, kept, _ = engines.open_shared(url, migrate=False)
    try:
        version = target.maintenance.schema_version()
        names = target.maintenance.table_names() if version is not None else set()
        rows = {spec.name: n for spec in TABLES if spec.name in names and (n := target.transfer.count(spec.name))}
        marker = target.settings.read(COPY_MARKER) if "settings" in names else None
    finally:
        target.close()
    return {
        "store": kept,
        "verified_tls": "sslmode=verify-full" in kept.replace(" ", ""),
        "schema_version": version,
        "latest_schema": target.engine.latest_schema,
        "rows": rows,
        "copy_of_this_store": isinstance(marker, dict) and marker.get("store_id") == _store_id(home),
    }


def _store_id(home: str | os.PathLike[str] | None) -> str | None:
    paths = VaultPaths.from_env(home)
    return backup_files.home_id(paths) if paths.key_file.exists() else None


def to_shared(
    home: str | os.PathLike[str] | None,
    url: str,
    *,
    clock: Clock,
    progress: Progress = quiet,
    passphrase: str | None = None,
) -> MigrateReport:
    """Move the home's store file into the empty PostgreSQL database at `url`; or, when that database
    holds the verified copy an interrupted move of this very store left (and the store has not changed
    since), switch the home to it without copying again."""
    paths = VaultPaths.from_env(home)
    if engines.is_shared(paths):
        raise Conflict(f"{paths.home} uses a shared store already: to move it elsewhere, migrate it to local first")
    if not paths.store.exists():
        raise StoreUnavailable(f"no memvault store in {paths.home}: run `memvault init`")
    key = keys.load_key(paths.key_file, passphrase=passphrase)
    source_id = backup_files.home_id(paths)
    target, kept, password = engines.open_shared(url)
    try:
        marker = target.settings.read(COPY_MARKER)
        if not marker:
            refuse_filled(target, "that database")  # joining a store is `memvault init --store`
        holder = hold_alone(paths, key, "migrate")
        if holder is None:
            raise StoreUnavailable("the store file does not open (damaged?): see `memvault doctor`; nothing changed")
        try:
            holder.migrations.migrate()
            take_alone(holder, "migrate")
            rows = _copied_before(target, holder, marker, source_id, progress)
            resumed = rows is not None
            if rows is None:
                refuse_filled(target, "that database")
                with target.transaction():
                    tallies = copy_tallied(holder, target, progress)
                    target.settings.write(COPY_MARKER, {"store_id": source_id, "tables": _as_json(tallies)})
                rows = {name: tally.rows for name, tally in tallies.items()}
            try:
                folder, backups = _retire(
                    paths, clock, lambda: engines.point_at_shared(paths, kept, password), holder.close
                )
            except Exception as exc:
                raise StoreUnavailable(
                    f"the database holds a verified copy, but this home could not switch to it "
                    f"({type(exc).__name__}: {exc}); the home still uses its store file. Run the same migrate "
                    "again to switch to that copy (it is recognized while the store file is unchanged), or "
                    "empty that database (or make a new one) before migrating again"
                ) from None
        finally:
            holder.close()
        _forget_copy(target)
    finally:
        target.close()
    _flush(paths, folder)
    log.info("store moved to a shared store (%d rows%s)", sum(rows.values()), ", copied before" if resumed else "")
    return {
        "engine": "postgresql",
        "store": kept,
        "rows": rows,
        "previous_store_kept_as": str(folder / paths.store.name),
        "backups_moved": backups,
        "shared_store_left": None,
        "resumed": resumed,
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
        "resumed": False,
    }


def _tallies(store: Store) -> tuple[dict[str, Tally], dict[str, Tally]]:
    """Each table's tally in `store`: of every row, and leaving out the copy's marker."""
    whole: dict[str, Tally] = {}
    unmarked: dict[str, Tally] = {}
    with store.read_snapshot():
        for spec in TABLES:
            whole[spec.name], unmarked[spec.name] = Tally(), Tally()
            for rows in store.transfer.batches(spec.name, BATCH):
                whole[spec.name].add(spec, rows)
                unmarked[spec.name].add(spec, [r for r in rows if spec.name != "settings" or r[0] != COPY_MARKER])
    return whole, unmarked


def _as_json(tallies: dict[str, Tally]) -> dict[str, list[int | str]]:
    return {name: [tally.rows, format(tally.digest, "x")] for name, tally in tallies.items()}


def _copied_before(
    target: Store, holder: Store, marker: Any, source_id: str, progress: Progress
) -> dict[str, int] | None:
    """The rows of the verified copy of this store that an interrupted move left in `target` (its
    marker names this store, the store file holds what was copied, and the database holds exactly
    that), or None when the database holds no such copy. A copy of this store that no longer matches
    is refused: the store or the database changed since."""
    if not isinstance(marker, dict) or marker.get("store_id") != source_id:
        return None
    source, source_unmarked = _tallies(holder)
    _, found = _tallies(target)
    if marker.get("tables") != _as_json(source) or found != source_unmarked:
        raise Conflict(
            "that database holds a copy of this store that an earlier migrate made, but the store or the "
            "database changed since; nothing was changed. Empty that database (or make a new one) and "
            "migrate again"
        )
    for name, tally in found.items():
        progress(name, tally.rows, tally.rows)
    return {name: tally.rows for name, tally in found.items()}


def _forget_copy(target: Store) -> None:
    """The move is done: the copy's marker goes (a failure here leaves it, one settings row)."""
    try:
        with target.transaction():
            target.settings.forget(COPY_MARKER)
    except target.engine.errors as exc:
        log.warning("the moved store keeps its copy marker (%s)", type(exc).__name__)


def _flush(paths: VaultPaths, folder: Path) -> None:
    """Make the switch durable. It happened already: a failure says so, true to the state."""
    try:
        for changed in (folder, paths.backups, paths.home):
            fsync_dir(changed)
    except OSError as exc:
        raise StoreUnavailable(
            f"this home now uses the shared store and its store file was moved to {folder}, but the folders "
            f"could not be flushed to disk ({type(exc).__name__}: {exc}); should the computer lose power now, "
            "run `memvault doctor` afterwards"
        ) from None


def _retire(
    paths: VaultPaths, clock: Clock, name_shared: Callable[[], None], let_go: Callable[[], None]
) -> tuple[Path, list[str]]:
    """Keep the store file, its backups and a copy of its key file in `backups/migrated-<time>/` (the
    backups first, while the home still uses the file; the file once `name_shared` named the new
    store, and `let_go` closed the file: Windows renames no file a process holds open, and with both
    named no other process opens it). A failure or an interrupt on the way puts everything back and
    takes the new store's name (and kept password) out of the home again. Returns the folder and the
    backups moved."""
    folder = unused_name(paths.backups, f"{RETIRED_PREFIX}{clock.now().strftime(STAMP_FORMAT)}")
    paths.ensure()
    folder.mkdir(mode=0o700)
    moved: list[tuple[Path, Path]] = []
    try:
        copy_private(paths.key_file, folder / paths.key_file.name)
        backups = sorted(paths.backups.glob("memvault-*.db"))
        _move_into(backups, folder, moved)
        name_shared()
        let_go()
        _move_into([paths.store], folder, moved)
    except BaseException:
        for source, kept in reversed(moved):
            os.replace(kept, source)
        engines.leave(paths)  # after the file is back: a home naming nothing would look empty
        (folder / paths.key_file.name).unlink(missing_ok=True)
        folder.rmdir()
        raise
    return folder, [str(folder / backup.name) for backup in backups]


def _move_into(files: list[Path], folder: Path, moved: list[tuple[Path, Path]]) -> None:
    """Move each file and those beside it (WAL, journal, a backup's -keys) into `folder`, noting each move."""
    for file in files:
        for part in [file, *side_files(file)]:
            os.replace(part, folder / part.name)
            moved.append((part, folder / part.name))
