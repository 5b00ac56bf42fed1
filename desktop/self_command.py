"""This memvault as a command line for a child process (the benchmark's servers, the daemon's upkeep)."""

from __future__ import annotations

import sys


def this_memvault() -> list[str]:
    """The argv prefix that runs this installation's CLI (a desktop bundle is its own executable)."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    return [sys.executable, "-m", "memvault.desktop.cli"]
