"""Opening what the person chose to import, and nothing else: regular files only, never a device,
a FIFO or a socket (reading /dev/zero never ends, opening a FIFO waits for a writer), and in a
chosen folder no link that leads out of it.

A file is opened without blocking and checked on its open descriptor (`fstat`), so a path swapped
for a FIFO after it was looked at is still refused. Errors name the file, never its content.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from memvault.core.vocabulary.errors import InvalidArgument

HASH_BLOCK = 1 << 20
NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # opening a FIFO does not wait for a writer (POSIX)


def _kind(mode: int) -> str:
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def refuse_special(path: Path, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise InvalidArgument(f"{path}: {_kind(mode)}, not a regular file; nothing was imported")


def open_regular(path: Path) -> BinaryIO:
    """`path` opened for reading if it is a regular file (links followed: the person chose the path)."""
    try:
        fd = os.open(path, os.O_RDONLY | NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InvalidArgument(f"{path}: no such file or folder") from None
    except OSError as exc:
        raise InvalidArgument(f"{path}: cannot be opened ({exc.strerror or type(exc).__name__})") from None
    try:
        refuse_special(path, os.fstat(fd).st_mode)
        if sys.platform != "win32" and NONBLOCK:  # (Windows has no O_NONBLOCK: nothing to undo)
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def size_of(path: Path) -> int:
    """The size of a regular file (a special file is refused before anything reads it)."""
    with open_regular(path) as handle:
        return os.fstat(handle.fileno()).st_size


def digest(files: Iterable[tuple[bytes, Path]]) -> str:
    """sha256 of the files' bytes, each after its label (a folder's relative names), read in blocks."""
    sha = hashlib.sha256()
    for label, path in files:
        sha.update(label)
        with open_regular(path) as handle:
            while block := handle.read(HASH_BLOCK):
                sha.update(block)
    return sha.hexdigest()


def files_within(folder: Path, pattern: str) -> list[Path]:
    """The files under `folder` whose name matches `pattern`, in name order. A link is followed only
    when it stays inside the folder; one that leads out, or a match that is not a regular file, is
    refused (naming it), since reading it would import what the person did not choose."""
    root = folder.resolve()
    found: list[Path] = []
    for path in _walk(folder, pattern):
        try:
            real = path.resolve(strict=True)
            mode = real.stat().st_mode
        except (OSError, RuntimeError):
            raise InvalidArgument(f"{path}: a broken link or unreadable file; nothing was imported") from None
        if not real.is_relative_to(root):
            raise InvalidArgument(f"{path}: a link to outside {folder}, not followed; nothing was imported")
        refuse_special(path, mode)
        found.append(path)
    return sorted(found)


def _walk(folder: Path, pattern: str) -> Iterator[Path]:
    """Entries matching `pattern` under `folder`, without entering linked folders."""
    for here, _folders, names in os.walk(folder, followlinks=False):
        for name in names:
            path = Path(here) / name
            if path.match(pattern):
                yield path


def within(folder: Path, path: Path) -> bool:
    """`path` is a regular file whose real place is inside `folder` (the watched inbox)."""
    try:
        real = path.resolve(strict=True)
        return real.is_relative_to(folder.resolve()) and stat.S_ISREG(real.stat().st_mode)
    except (OSError, RuntimeError):
        return False
