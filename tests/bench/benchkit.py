"""What the command-line benchmarks share: the installed `memvault`, and a fresh fictional home."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

MEMVAULT = str(Path(sys.executable).with_name("memvault"))


def initialised_home(prefix: str) -> tuple[Path, dict[str, str]]:
    """A temporary folder holding a new passphrase store (`home/`) and a private runtime folder, and
    the environment that points memvault at them."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    env = {
        **os.environ,
        "MEMVAULT_HOME": str(work / "home"),
        "MEMVAULT_PASSPHRASE": "bench passphrase (fictional)",
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
        "XDG_RUNTIME_DIR": str(work / "runtime"),
    }
    (work / "runtime").mkdir(mode=0o700)
    subprocess.run([MEMVAULT, "init"], env=env, check=True, capture_output=True)
    return work, env
