"""Encrypted backups of the live store, taken while other processes keep writing.

A backup is a complete copy of the store made by SQLCipher's `sqlcipher_export`
inside one read transaction (a consistent snapshot), written straight into an
encrypted file with the store's own key: no plaintext copy ever touches the disk.
Each backup is recorded in the `backups` table (time, size, sha256, kind), so a
later purge can reach it. Beside it, `<backup>-keys` carries the store key wrapped
under the passphrase and the recovery key (see `core/security/key_backup.py`), never the raw key.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from memvault.core.maintenance.files import create_private, fsync_dir, fsync_file, remove_with_sides, sha256_of
from memvault.core.security import key_backup
from memvault.core.security.access import require_local
from memvault.core.store.context import Context
from memvault.core.vocabulary.errors import InvalidArgument, StoreUnavailable
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.results import BackupAnswer, BackupRow

log = logging.getLogger("memvault.maintenance")

KINDS = ("manual", "daily", "weekly", "pre-restore")
STAMP_FORMAT = "%Y%m%dT%H%M%SZ"  # the time in a backup's file name


@dataclass(frozen=True)
class BackupInfo:
    path: str
    created_at: str
    bytes: int
    sha256: str
    kind: str

    def to_dict(self) -> BackupAnswer:
        return {
            "path": self.path,
            "encrypted": True,
            "created_at": self.created_at,
            "bytes": self.bytes,
            "sha256": self.sha256,
            "kind": self.kind,
        }


def backup_name(stamp: str, kind: str) -> str:
    return f"memvault-{stamp}-{kind}.db"


def _free_path(folder: Path, stamp: str, kind: str) -> Path:
    candidate = folder / backup_name(stamp, kind)
    n = 2
    while candidate.exists():
        candidate = folder / f"memvault-{stamp}-{kind}-{n}.db"
        n += 1
    return candidate


def _target(ctx: Context, kind: str, to: str | Path | None) -> Path:
    stamp = ctx.clock.now().strftime(STAMP_FORMAT)
    if to is None:
        ctx.paths.ensure()
        return _free_path(ctx.paths.backups, stamp, kind)
    chosen = Path(to).expanduser().resolve()
    if chosen.is_dir():
        return _free_path(chosen, stamp, kind)
    if chosen.exists():
        raise InvalidArgument(f"{chosen} exists: memvault never overwrites a file with a backup")
    if not chosen.parent.is_dir():
        raise InvalidArgument(f"{chosen.parent} is not a folder")
    return chosen


def make_backup(ctx: Context, caller: Caller, *, kind: str = "manual", to: str | Path | None = None) -> BackupInfo:
    """Write an encrypted, consistent copy of the store and record it; the store is not paused."""
    require_local(caller, "backup")
    if kind not in KINDS:
        raise InvalidArgument(f"kind: expected one of {', '.join(KINDS)}")
    target = _target(ctx, kind, to)
    create_private(target)
    try:
        with ctx.holding() as conn:
            conn.maintenance.export_into(target)
        fsync_file(target)
        fsync_dir(target.parent)
        key_backup.write_beside(target, ctx.paths.key_file)  # the wrapped key travels with it
    except ctx.store.engine.errors as exc:
        remove_with_sides(target)
        raise StoreUnavailable(f"the backup could not be written ({exc}); nothing was kept") from None
    except BaseException:
        remove_with_sides(target)
        raise
    info = BackupInfo(str(target), ctx.now(), target.stat().st_size, sha256_of(target), kind)
    with ctx.transaction() as conn:
        conn.backups.record(ctx.paths.home, info.path, info.created_at, info.bytes, info.sha256, kind)
        conn.events.record(caller, "backup_made", info.created_at, None, kind=kind, bytes=info.bytes)
    log.info("backup made (%s, %d bytes)", kind, info.bytes)
    return info


def list_backups(ctx: Context, caller: Caller, *, include_removed: bool = False) -> list[BackupRow]:
    require_local(caller, "listing backups")
    with ctx.reading() as conn:
        rows = conn.backups.known(ctx.paths.home, include_removed=include_removed)
    for row in rows:
        row["exists"] = Path(row["path"]).exists()
    return cast(list[BackupRow], rows)
