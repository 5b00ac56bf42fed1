"""The file-system signal of the change feed: "something was committed", across processes.

Each process that commits events rewrites one small file, `MEMVAULT_HOME/run/changes`, right
after the commit. It holds only the newest event id (a number: no text). Listeners watch the
folder with watchdog (inotify on Linux) and, when woken, read `Vault.changes_since` from their
own cursor, so a lost or merged wake-up costs nothing but latency: the cursor is the truth,
the file only says "look now" (`core/runtime/change_watch.py` watches it). The signal has a folder of
its own because the store's folder changes on every page written to the WAL.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from memvault.core.runtime.paths import VaultPaths

log = logging.getLogger("memvault.changes")

SIGNAL_FOLDER = "run"
SIGNAL_FILE = "changes"


def signal_path(paths: VaultPaths) -> Path:
    return paths.home / SIGNAL_FOLDER / SIGNAL_FILE


def notify(paths: VaultPaths, cursor: int) -> None:
    """Tell listeners in other processes that events up to `cursor` are committed.

    Never raises: the commit already happened, and a listener catches up at its next wake-up.
    """
    path = signal_path(paths)
    content = f"{cursor}\n".encode()
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        # Overwritten in place, then cut to length: truncating a file with data to zero and
        # rewriting it makes ext4 flush the data at close (its replace-via-truncate guard),
        # ~2.5 ms on every commit; this costs ~25 us.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            os.write(fd, content)  # a fresh descriptor writes from the start
            os.ftruncate(fd, len(content))
        finally:
            os.close(fd)
    except OSError as exc:
        log.warning("change signal not written (%s): listeners learn of this commit later", exc.strerror)
