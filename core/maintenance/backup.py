"""Encrypted backups of the live store, taken while other processes keep writing.

A backup is a SQLCipher file under the home's key, whatever engine the store is on. A store file is
copied by SQLCipher's `sqlcipher_export` inside one read transaction (a consistent snapshot), written
straight into an encrypted file with the store's own key: no plaintext copy ever touches the disk. A
shared (PostgreSQL) store is copied table by table into a new store file by `store_copy` (one read
snapshot; the file's tables are read back and their row counts and checksums compared before it
commits), encrypted from its first page with the home's key. Either way the result is checked to
start with no plaintext header.
Each backup is recorded in the `backups` table (time, size, sha256, kind, and on a shared store the
home that wrote it: `backup_files.home_id`), so a later purge can reach it. Beside it,
`<backup>-keys` carries the key wrapped under the passphrase and the recovery key (see
`core/security/key_backup.py`), never the raw key.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from memvault.core.maintenance import backup_files
from memvault.core.maintenance.files import create_private, fsync_dir, fsync_file, remove_with_sides, sha256_of
from memvault.core.maintenance.store_copy import copy_into_file
from memvault.core.security import key_backup
from memvault.core.security.access import require_local
from memvault.core.store.context import Context
from memvault.core.store.engines import file_engine
from memvault.core.store.seam import Store
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
    with ctx.holding() as conn:
        write_file(conn, ctx.key, target, ctx.paths.key_file)
    info = BackupInfo(str(target), ctx.now(), target.stat().st_size, sha256_of(target), kind)
    with ctx.transaction() as conn:
        conn.backups.record(
            ctx.paths.home,
            backup_files.home_id(ctx.paths),
            info.path,
            info.created_at,
            info.bytes,
            info.sha256,
            kind,
        )
        conn.events.record(caller, "backup_made", info.created_at, None, kind=kind, bytes=info.bytes)
    log.info("backup made (%s, %d bytes)", kind, info.bytes)
    return info


def write_file(conn: Store, key: bytes, target: Path, key_file: Path) -> None:
    """Write the backup file `target` (absent) of the store `conn`, encrypted with `key`, with the
    wrapped key beside it; a failure leaves no file. A store file exports itself; a shared store is
    copied into a new store file (in the caller's transaction when there is one: a restore's safety
    copy then holds exactly what the restore replaces)."""
    create_private(target)
    try:
        if conn.engine.name == file_engine().name:
            conn.maintenance.export_into(target)
        else:
            copy_into_file(conn, target, key)
            if not backup_files.is_encrypted(target):
                raise StoreUnavailable("the copy came out unencrypted; it was deleted")
        fsync_file(target)
        fsync_dir(target.parent)
        key_backup.write_beside(target, key_file)  # the wrapped key travels with it
    except backup_files.failures(conn) as exc:
        remove_with_sides(target)
        # A server's message may quote a row: of its errors only the kind is told.
        detail = str(exc) if isinstance(exc, file_engine().errors) else type(exc).__name__
        raise StoreUnavailable(f"the backup could not be written ({detail}); nothing was kept") from None
    except BaseException:
        remove_with_sides(target)
        raise


def list_backups(ctx: Context, caller: Caller, *, include_removed: bool = False) -> list[BackupRow]:
    require_local(caller, "listing backups")
    with ctx.reading() as conn:
        rows = conn.backups.known(ctx.paths.home, backup_files.home_id(ctx.paths), include_removed=include_removed)
    for row in rows:
        row["exists"] = Path(row["path"]).exists()
    return cast(list[BackupRow], rows)
