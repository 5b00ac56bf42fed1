"""The daemon never reads a dropped export itself: its dry run runs in the upkeep process, so the
daemon's store, memory and sessions stay free while it runs (the latency is measured by
tests/bench/bench_import_memory.py --cases daemon)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from importkit import FIXTURES

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from memvault.mcp_bridge import relay

STAGED = re.compile(r"^\S+ \S+ (\d+) memvault\.import\.inbox INFO inbox: claude\.json staged as", re.MULTILINE)


@contextmanager
def _daemon(home: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = {**os.environ, "MEMVAULT_HOME": str(home), "MEMVAULT_EMBEDDINGS": "off"}
    command = [sys.executable, "-m", "memvault.desktop.cli", "daemon", "--headless"]
    proc = subprocess.Popen(
        command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        _wait(lambda: relay.connect(relay.DaemonAddress.for_home(home.resolve())) is not None, proc)
        yield proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait(done: object, proc: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not done():  # type: ignore[operator]
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:] if proc.stderr else ""
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_a_dropped_export_is_dry_run_by_the_upkeep_process_not_the_daemon(home: Path) -> None:
    log = home / "logs" / "daemon.log"
    with _daemon(home) as daemon:
        inbox = home / "imports" / "inbox"
        _wait(inbox.is_dir, daemon)
        shutil.copy(FIXTURES / "claude_conversations.json", inbox / "claude.json")
        _wait(lambda: log.exists() and STAGED.search(log.read_text()) is not None, daemon)
        pids = {int(match) for match in STAGED.findall(log.read_text())}
    assert pids and daemon.pid not in pids  # staged by a child, not by the daemon
    with Vault.open(home) as vault:
        (proposal,) = [p for p in vault.proposals(OWNER) if p["kind"] == "import"]
    assert "add 5" in str(proposal["reason"])
