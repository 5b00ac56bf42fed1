"""The daemon's upkeep runs in a child process: it gets the key through a pipe only, does the jobs,
and stops cleanly however the daemon ends it."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import anyio
import pytest

from memvault.core.runtime.paths import VaultPaths
from memvault.core.store.sqlcipher import word_index_rows
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.self_command import this_memvault
from memvault.desktop.upkeep_process import STOP_SIGNALS, STOPPED, UPKEEP_FLAG, StopSignals, run_upkeep


def _child(home: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*this_memvault(), "--home", str(home), "daemon", UPKEEP_FLAG],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _started(home: Path, child: subprocess.Popen[bytes]) -> None:
    """Wait until the child handles stop signals and reads its stdin."""
    log, deadline = home / "logs" / "daemon.log", time.monotonic() + 60
    while not (log.exists() and f"upkeep process {child.pid} started" in log.read_text()):
        assert time.monotonic() < deadline, "the upkeep process did not start"
        time.sleep(0.05)


def _upkeep_children(home: Path) -> list[int]:
    """Pids of upkeep processes still running for this store."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if UPKEEP_FLAG.encode() in argv and str(home).encode() in argv:
            found.append(int(proc.name))
    return found


def test_a_pass_takes_the_backup_with_the_key_from_the_pipe(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Vault.open(home) as vault:
        key = vault.ctx.key
        for topic in ("oolong", "cedar planks", "violin strings", "bike chain", "sourdough", "tiles"):
            vault.add(OWNER, Draft.of(statement=f"Fictional: bought {topic} on Saturday", domain="home"))
        with vault.ctx.reading() as conn:
            assert word_index_rows.segment_count(conn.raw) > 1  # one add, one segment (FTS5 merges at four)
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")  # the child could not unlock the store any other way
    assert anyio.run(run_upkeep, VaultPaths.from_env(home), key) == 0
    with Vault.open(home, passphrase="correct horse battery staple (fictional)") as vault:
        (backup,) = vault.list_backups(OWNER)
        with vault.ctx.reading() as conn:
            assert word_index_rows.segment_count(conn.raw) == 1  # the pass merged the word index
    assert Path(backup["path"]).is_file()
    assert "upkeep done" in (home / "logs" / "daemon.log").read_text()


def test_the_key_is_in_neither_argv_nor_the_environment(vault: Vault, home: Path) -> None:
    key = vault.ctx.key.hex().encode()
    child = _child(home)
    try:
        _started(home, child)  # it waits for the key on stdin
        seen = (Path(f"/proc/{child.pid}/cmdline").read_bytes(), Path(f"/proc/{child.pid}/environ").read_bytes())
        assert all(key not in place for place in seen)
        assert child.stdin is not None and child.stderr is not None
        child.stdin.write(key + b"\n")
        child.stdin.flush()  # and kept open, as the daemon does while it lives
        code = child.wait(timeout=120)
        err = child.stderr.read()
    finally:
        child.kill()
    assert code == 0, err.decode()[-2000:]
    assert key not in err


def test_a_stop_signal_ends_it_cleanly(vault: Vault, home: Path) -> None:
    child = _child(home)
    _started(home, child)
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=60)
    assert child.returncode == STOPPED, err.decode()[-2000:]
    assert b"Traceback" not in err


def test_when_the_daemon_goes_it_stops_and_leaves_no_half_backup(vault: Vault, home: Path) -> None:
    child = _child(home)
    assert child.stdin is not None
    child.stdin.write(vault.ctx.key.hex().encode() + b"\n")
    child.stdin.close()  # what the daemon's death does to the pipe
    assert child.wait(timeout=60) == STOPPED
    recorded = {b["path"] for b in vault.list_backups(OWNER)}
    assert {str(p) for p in (home / "backups").glob("*.db")} <= recorded
    assert vault.status(OWNER)["store"]["encrypted"]


def test_cancelling_the_pass_stops_the_child(vault: Vault, home: Path) -> None:
    async def cancelled_soon() -> None:
        with anyio.move_on_after(1.0):
            await run_upkeep(vault.paths, vault.ctx.key)

    started = time.monotonic()
    anyio.run(cancelled_soon)
    assert time.monotonic() - started < 30
    assert _upkeep_children(home) == []


def test_a_stop_during_the_backup_waits_for_its_end() -> None:
    """The backup's file and its row in `backups` (which purge follows) are never parted."""
    before = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    stops = StopSignals()
    stops.install()
    backed_up = False
    try:
        with pytest.raises(SystemExit) as stopped, stops.deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # the handler has run by now
            backed_up = True
        assert backed_up and stopped.value.code == STOPPED
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN  # a second signal cannot cut the clean-up
        stops.install()
        with pytest.raises(SystemExit):  # outside the backup, a stop is immediate
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            raise AssertionError("not stopped")
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
