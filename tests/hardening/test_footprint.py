"""Issue 13: nothing outside memvault's folders, nothing phoned home.

Every command runs once with an empty HOME and the XDG folders inside a temp folder;
afterwards every file there lies inside memvault's own folders (the data folder, the
cache folder for the rewritten embedding model, the runtime folder for the daemon's socket).
onnxruntime's telemetry folder (`~/.cache/Microsoft/...`) was the file that appeared before.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = Path(__file__).with_name("footprint_driver.py")


@pytest.mark.slow
def test_every_command_leaves_files_only_in_memvaults_folders(tmp_path: Path) -> None:
    root = tmp_path / "machine"
    env = {key: value for key, value in os.environ.items() if not key.startswith(("XDG_", "MEMVAULT_HOME", "ORT_"))}
    folders = {name: root / name for name in ("home", "data", "config", "cache", "state", "runtime", "scratch")}
    for folder in folders.values():
        folder.mkdir(parents=True, mode=0o700)
    env.update(
        HOME=str(folders["home"]),
        XDG_DATA_HOME=str(folders["data"]),
        XDG_CONFIG_HOME=str(folders["config"]),
        XDG_CACHE_HOME=str(folders["cache"]),
        XDG_STATE_HOME=str(folders["state"]),
        XDG_RUNTIME_DIR=str(folders["runtime"]),
    )
    done = subprocess.run(
        [sys.executable, str(DRIVER), str(folders["scratch"])],
        env=env,
        capture_output=True,
        text=True,
        timeout=1500,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    codes = [m.groups() for m in re.finditer(r"^(\d+) (\S+)", done.stderr, re.MULTILINE)]
    assert not [argv for code, argv in codes if int(code) >= 100], done.stderr[-3000:]  # every command was understood
    assert {"init", "add", "backup", "mcp", "demo", "doctor", "purge"} <= {argv for _, argv in codes}
    allowed = [
        folders["data"] / "memvault",
        folders["data"] / "memvault-demo",
        folders["cache"] / "memvault",  # the embedding model's integer rewrite (removed by uninstall)
        folders["runtime"] / "memvault",
        folders["scratch"],
    ]
    stray = [
        path
        for path in root.rglob("*")
        if path.is_file() and not any(path.is_relative_to(folder) for folder in allowed)
    ]
    assert stray == []
