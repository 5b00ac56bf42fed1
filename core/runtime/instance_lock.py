"""One holder at a time: an exclusive lock on a file, taken without waiting, held for the holder's
life and let go by the operating system when the holder dies (a crash leaves nothing that blocks).

The file also carries a little text for others to read while it is held (the daemon records its pid
and socket there: `record`, `read_lines`).

- POSIX: `fcntl.flock` on the whole file; `held` probes with a shared lock.
- Windows: `msvcrt.locking` on one byte at `LOCK_OFFSET` (1 GiB), far past the text. Windows'
  byte-range locks are mandatory (another process cannot read a locked range), so the lock sits
  where nobody reads, as SQLite keeps its lock bytes at 1 GiB; the text stays readable. msvcrt has
  no shared lock: `held` takes the exclusive one and lets it go at once.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from dataclasses import dataclass
from pathlib import Path

LOCK_OFFSET = 1 << 30  # Windows: the locked byte (1 GiB: no text reaches it)

if sys.platform == "win32":
    import msvcrt

    _OPEN_FLAGS = os.O_BINARY  # no newline translation of the recorded text

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EDEADLOCK):  # another handle holds it
                return False
            raise
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

    _try_probe = _try_lock

else:
    import fcntl

    _OPEN_FLAGS = 0

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)

    def _try_probe(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


@dataclass
class InstanceLock:
    """The lock on `path`, held through the open descriptor `fd` until `release` (or the process ends)."""

    path: Path
    fd: int

    @classmethod
    def acquire(cls, path: Path) -> InstanceLock | None:
        """Take the lock (the file is created 0600 if missing); None when another process holds it."""
        fd = os.open(path, os.O_RDWR | os.O_CREAT | _OPEN_FLAGS, 0o600)
        try:
            if not _try_lock(fd):
                os.close(fd)
                return None
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd)

    def record(self, text: str) -> None:
        """Replace the file's text (read by others with `read_lines`)."""
        os.ftruncate(self.fd, 0)
        os.lseek(self.fd, 0, os.SEEK_SET)
        data = memoryview(text.encode())
        while data:
            data = data[os.write(self.fd, data) :]

    def release(self) -> None:
        """Empty the file (no reader finds a stale record), then let the lock go."""
        with contextlib.suppress(OSError):
            os.ftruncate(self.fd, 0)
        try:
            _unlock(self.fd)  # explicit: Windows frees a lock left at close only "eventually"
        except OSError:
            pass
        finally:
            os.close(self.fd)


def held(path: Path) -> bool:
    """Whether a live process holds the lock on `path` now."""
    try:
        fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS)
    except FileNotFoundError:
        return False
    try:
        if not _try_probe(fd):
            return True
        _unlock(fd)
        return False
    finally:
        os.close(fd)


def read_lines(path: Path) -> list[str]:
    """The text the holder recorded, as lines; empty when there is no file or nothing recorded."""
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
