"""Backup files in backups/ that the `backups` table does not list.

A backup is written first and recorded after; a process killed in between (a backup, a restore's
safety copy, the daemon's upkeep child) leaves a complete file nobody recorded. Retention, restore
lists and, above all, a purge follow the table, so such a file would keep a purged record's text.
`adopt` records the sound ones and deletes the broken ones; the purge calls it before it rewrites
the backups, and `memvault doctor --fix` does. On a shared store "recorded" means recorded by this
home: a file of ours is checked with this home's key, opened on its own (`backup_files.opened`).

A backup of another memvault home (another machine's, or this home's before it was made anew) that a
person put in backups/ does not open with this home's key, but it is not broken: the `-keys` beside it
names another store. Such a file is never deleted; it is left where it is and reported (`carried`),
with how to restore it or where it belongs. Only a file that is provably ours (no `-keys`, or one
naming this home) and does not open or is damaged is deleted.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from memvault.core.maintenance import backup_files
from memvault.core.maintenance.backup import KINDS, STAMP_FORMAT
from memvault.core.maintenance.files import remove_with_sides, sha256_of
from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import key_backup
from memvault.core.store.seam import Store
from memvault.core.vocabulary.clock import format_time
from memvault.core.vocabulary.errors import InvalidArgument


@dataclass
class Adopted:
    kept: int = 0  # sound files, now recorded
    dropped: int = 0  # broken files, deleted
    busy: list[str] = field(default_factory=list)  # held by another process (SQLite lock): left for later
    carried: list[str] = field(default_factory=list)  # another home's backups: left in place, reported


def unrecorded(conn: Store, paths: VaultPaths) -> list[Path]:
    """The memvault backup files in backups/ that no row (even a removed one) names."""
    if not paths.backups.is_dir():
        return []
    owner = backup_files.home_id(paths)
    known = {Path(r["path"]) for r in conn.backups.known(paths.home, owner, include_removed=True)}
    return sorted(p for p in paths.backups.glob("memvault-*.db") if p not in known)


def adopt(conn: Store, key: bytes, paths: VaultPaths, now: str) -> Adopted:
    """Record every sound unrecorded backup (kind and time from its name, `now` when the name
    does not tell) and delete the broken ones. A file another process holds locked (a backup
    being exported holds its write lock) is left, and listed as busy; another home's backup is
    left, and listed as carried."""
    done = Adopted()
    for path in unrecorded(conn, paths):
        state = sound(conn, key, path)
        if state is None:
            done.busy.append(str(path))
        elif not state and from_elsewhere(paths, path):
            done.carried.append(str(path))
        elif state:
            made, kind = _named(path, now)
            with conn.transaction():
                conn.backups.record(
                    paths.home, backup_files.home_id(paths), path, made, path.stat().st_size, sha256_of(path), kind
                )
            done.kept += 1
        else:
            remove_with_sides(path)
            done.dropped += 1
    return done


def from_elsewhere(paths: VaultPaths, path: Path) -> bool:
    """Whether the `-keys` beside a backup says another memvault home wrote it (or cannot be read, so
    that nothing proves the file is this home's)."""
    if not key_backup.sidecar(path).exists():
        return False
    try:
        carried = key_backup.read_beside(path)
    except InvalidArgument:
        return True
    return str(carried["store_id"]) != backup_files.home_id(paths)


def carried_advice(path: str) -> str:
    """What to do with another home's backup found in backups/."""
    return (
        f"{path} is a backup from another memvault home: restore it with `memvault restore {shlex.quote(path)}` "
        "(its -keys beside it), or move it out of backups/ (keep it anywhere else)"
    )


def sound(conn: Store, key: bytes, path: Path) -> bool | None:
    """Whether a backup file is a sound memvault store under the key; None while it is busy."""
    try:
        with backup_files.opened(conn, key, path) as copy:
            if copy is None:
                return False
            store, schema = copy
            return store.maintenance.is_store(schema) and not store.maintenance.integrity(schema)
    except backup_files.failures(conn) as exc:
        return None if backup_files.is_busy(conn, exc) else False


def _named(path: Path, now: str) -> tuple[str, str]:
    """(created_at, kind) from a `backup_name` (`memvault-<stamp>-<kind>[-n].db`). An unknown kind
    counts as manual: retention never removes those."""
    parts = path.stem.split("-", 2)
    if len(parts) < 3:
        return now, "manual"
    try:
        made = format_time(datetime.strptime(parts[1], STAMP_FORMAT).replace(tzinfo=UTC))
    except ValueError:
        made = now
    kind = next((k for k in KINDS if parts[2] == k or parts[2].startswith(f"{k}-")), "manual")
    return made, kind
