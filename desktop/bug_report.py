"""Where the CLI records a bug: the exception's type and frames, never its message (it may quote data).

The record goes to `logs/cli.log` in the memvault folder when that exists, else to the user
log folder, so even a failure before `memvault init` leaves something to report.
"""

from __future__ import annotations

import os
import time
import traceback
from pathlib import Path

import platformdirs

from memvault import __version__
from memvault.core.runtime.paths import VaultPaths


def log_file(home: str | None) -> Path:
    logs = VaultPaths.from_env(home).logs
    if logs.is_dir():
        return logs / "cli.log"
    return Path(platformdirs.user_log_dir("memvault")) / "cli.log"


def record(exc: BaseException, home: str | None) -> Path:
    """Append the bug's type and frames to the CLI log; returns the log's path (or where it would be)."""
    target = log_file(home)
    frames = "".join(traceback.format_tb(exc.__traceback__))
    entry = (
        f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} memvault {__version__} bug: "
        f"{type(exc).__module__}.{type(exc).__name__} (message withheld: it may quote data)\n{frames}\n"
    )
    try:
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as handle:
            handle.write(entry)
    except OSError:
        pass  # no log is no reason to hide the bug: the caller still reports it
    return target
