"""Small file helpers the maintenance modules share: private files, fsync, digests, sizes."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

SIDE_SUFFIXES = ("-wal", "-shm", "-journal", "-keys")  # -keys: a backup's wrapped key


def create_private(path: Path) -> None:
    """Create an empty file readable by its owner only; refuse to reuse an existing one."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(folder: Path) -> None:
    """Make a folder's entries (a file created, renamed or removed in it) durable. Nothing on Windows:
    `os.open` cannot open a folder there, so no flush of one is offered."""
    if sys.platform == "win32":
        return
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def copy_private(source: Path, target: Path) -> None:
    """Copy bytes into a new 0600 file and make them durable before returning."""
    create_private(target)
    with source.open("rb") as src, target.open("r+b") as dst:
        shutil.copyfileobj(src, dst, 1024 * 1024)
        dst.flush()
        os.fsync(dst.fileno())


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1024 * 1024), b""):
            digest.update(block)
    return digest.hexdigest()


def side_files(db: Path) -> list[Path]:
    """The -wal, -shm and -journal companions of a database file (and a backup's -keys) that exist now."""
    return [Path(f"{db}{suffix}") for suffix in SIDE_SUFFIXES if Path(f"{db}{suffix}").exists()]


def remove_with_sides(db: Path) -> list[str]:
    removed = []
    for path in [db, *side_files(db)]:
        try:
            path.unlink()
            removed.append(str(path))
        except FileNotFoundError:
            pass
    return removed


def unused_name(folder: Path, stem: str, suffix: str = "") -> Path:
    """`folder/<stem><suffix>`, or the first `folder/<stem>-<n><suffix>` (n from 2) that does not exist yet."""
    candidate = folder / f"{stem}{suffix}"
    n = 2
    while candidate.exists():
        candidate = folder / f"{stem}-{n}{suffix}"
        n += 1
    return candidate


def size_of(path: Path) -> int:
    """Bytes of a file, or of every file under a folder; 0 when absent."""
    if path.is_file():
        return path.stat().st_size
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return 0
