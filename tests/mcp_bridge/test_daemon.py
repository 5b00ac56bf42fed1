"""`memvault daemon`: one per store, a private socket, clean stops, and the kill switch reaching it."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import stat
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client
from mcp.types import TextContent

from memvault.core.retrieval.pipeline import HybridRetriever
from memvault.core.store.context import Context
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER, Caller
from memvault.desktop.daemon import Daemon, DaemonLock, running_pid
from memvault.mcp_bridge import relay
from memvault.mcp_bridge.server import serve_streams
from memvault.mcp_bridge.socket_transport import MAX_LINE_BYTES

from .bridgekit import (
    INIT,
    MEMVAULT,
    address,
    bridge_params,
    env_for,
    raw_session,
    run_cli,
    running_daemon,
    start_daemon,
    stop_daemon,
)


def socket_exchange(home: Path, lines: list[dict[str, Any]]) -> socket.socket:
    """A raw connection to the daemon that has sent `lines` and read the initialize answer."""
    sock = relay.connect(address(home))
    assert sock is not None
    sock.settimeout(30)
    sock.sendall(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    answer = sock.makefile("rb").readline()
    assert json.loads(answer)["id"] == 1
    return sock


def wait_for_line(log: Path, any_of: tuple[str, ...], timeout: float = 60) -> None:
    """The daemon's warm-up is over (a model load competes for the CPU with what a test measures)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.exists() and any(text in log.read_text() for text in any_of):
            return
        time.sleep(0.1)
    raise AssertionError(f"none of {any_of} in {log}")


def test_the_socket_is_private_and_the_daemon_single(home: Path) -> None:
    with running_daemon(home) as daemon:
        where = address(home)
        assert stat.S_IMODE(where.folder.stat().st_mode) == 0o700
        assert stat.S_ISSOCK(where.socket.stat().st_mode)
        assert stat.S_IMODE(where.socket.stat().st_mode) == 0o600
        assert stat.S_IMODE(where.lock.stat().st_mode) == 0o600
        assert running_pid(where) == daemon.pid
        second = run_cli(home, "daemon", "--headless", timeout=60)
        assert second.returncode == 2, second.stderr.decode()[:3000]
        assert f"already serves this store (pid {daemon.pid})" in second.stderr.decode()
        status = run_cli(home, "--json", "daemon", "--status")
        assert json.loads(status.stdout) == {
            "running": True,
            "listening": True,
            "pid": daemon.pid,
            "socket": str(where.socket),
        }
    assert json.loads(run_cli(home, "--json", "daemon", "--status").stdout)["running"] is False


def test_a_daemon_that_holds_the_lock_but_does_not_listen_yet_is_starting(home: Path) -> None:
    where = address(home)
    where.ensure_folders()
    lock = DaemonLock.acquire(where.lock, where.socket)  # what a daemon holds while it unlocks the store
    try:
        answer = run_cli(home, "daemon", "--status")
        assert f"daemon starting (pid {os.getpid()}): not listening yet" in answer.stdout.decode()
        assert json.loads(run_cli(home, "--json", "daemon", "--status").stdout)["listening"] is False
    finally:
        lock.release()


def test_the_daemon_takes_the_daily_backup(home: Path) -> None:
    assert not list((home / "backups").glob("*"))
    log = home / "logs" / "daemon.log"
    with running_daemon(home):
        wait_for_line(log, ("upkeep done",))
        made = list((home / "backups").glob("*.db"))
    assert len(made) == 1
    with Vault.open(home) as vault:
        (recorded,) = vault.list_backups(OWNER)
    assert recorded["kind"] in ("daily", "weekly") and Path(recorded["path"]) == made[0]
    log.unlink()
    with running_daemon(home):  # a second start on the same day makes no second backup
        wait_for_line(log, ("upkeep done",))
    assert list((home / "backups").glob("*.db")) == made


def test_each_store_has_its_own_daemon(home: Path, tmp_path: Path) -> None:
    other = tmp_path / "other-store"
    assert run_cli(other, "init").returncode == 0
    assert address(home).socket != address(other).socket
    with running_daemon(home), running_daemon(other):
        assert relay.connect(address(home)) is not None
        assert relay.connect(address(other)) is not None


def test_sigterm_stops_it_cleanly_with_a_session_open(home: Path) -> None:
    daemon = start_daemon(home)
    sock = socket_exchange(home, [INIT])
    daemon.send_signal(signal.SIGTERM)
    time.sleep(0.02)
    daemon.send_signal(signal.SIGTERM)  # impatient: a second one while it stops changes nothing
    assert stop_daemon(daemon) == 0  # (it fails when the daemon hangs past its bound: no wall-clock guess here)
    assert sock.recv(1024) == b""  # the open session was closed, not left hanging
    sock.close()
    where = address(home)
    assert not where.socket.exists()
    assert running_pid(where) is None
    assert "daemon: stopped after" in (home / "logs" / "daemon.log").read_text()


def test_memvault_daemon_stop_asks_it_to_stop(home: Path) -> None:
    daemon = start_daemon(home)
    result = run_cli(home, "daemon", "--stop")
    assert result.returncode == 0 and str(daemon.pid) in result.stderr.decode()
    assert daemon.wait(20) == 0
    assert "no daemon runs" in run_cli(home, "daemon", "--stop").stderr.decode()


def test_a_crashed_daemon_leaves_nothing_that_blocks(home: Path) -> None:
    daemon = start_daemon(home)
    daemon.send_signal(signal.SIGKILL)
    daemon.wait(20)
    assert address(home).socket.exists()  # stale: nobody listens
    assert relay.connect(address(home)) is None
    # The bridge serves from the store meanwhile, and a new daemon takes over the address.
    result = raw_session(home, [INIT])
    assert result.returncode == 0 and json.loads(result.lines[0])["id"] == 1
    with running_daemon(home):
        assert relay.connect(address(home)) is not None


def test_a_misbehaving_client_does_not_hurt_the_daemon(home: Path) -> None:
    with running_daemon(home) as daemon:
        sock = relay.connect(address(home))
        assert sock is not None
        sock.sendall(b'this is not json\n{"jsonrpc": "2.0", "id": 1, "method"')
        sock.close()  # mid-message
        sock = socket_exchange(home, [INIT])
        sock.close()
        result = raw_session(home, [INIT])
        assert result.returncode == 0
        assert daemon.poll() is None


def test_a_line_over_the_limit_does_not_end_a_socket_session(home: Path) -> None:
    """A client on the daemon's socket itself (no relay in front to refuse it): the line is refused
    on its own, with its id, and the next request is answered."""
    big = {"name": "memory_add", "arguments": {"statement": "x" * (MAX_LINE_BYTES + 256 * 1024)}}
    with running_daemon(home):
        sock = socket_exchange(home, [INIT])
        sock.sendall(
            b"".join(
                json.dumps(message).encode() + b"\n"
                for message in (
                    {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": big},
                    {"jsonrpc": "2.0", "id": 3, "method": "ping"},
                )
            )
        )
        reader = sock.makefile("rb")
        answers = {answer["id"]: answer for answer in (json.loads(reader.readline()) for _ in range(2))}
        sock.close()
    assert answers[2]["error"]["code"] == -32600
    assert answers[3]["result"] == {}


def test_the_runtime_folder_falls_back_to_the_store_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    home = tmp_path / "h"
    systemd = Path(f"/run/user/{os.getuid()}/memvault")
    assert relay.DaemonAddress.for_home(home).folder in (home / "run", systemd)
    assert relay.DaemonAddress.for_home(home).lock == home / "run" / "daemon.lock"
    deep = tmp_path / ("x" * 90)
    far = relay.DaemonAddress.for_home(deep)
    assert far.folder == Path("/tmp") / f"memvault-{os.getuid()}" or len(os.fsencode(far.socket)) <= 100


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to hand a folder to another user")
# The folder is made under tmp_path, not through DaemonAddress: with a long tmp_path the address
# falls back to the shared /tmp/memvault-UID, which these tests must neither expect absent nor chown.
def test_a_runtime_folder_owned_by_someone_else_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "memvault"
    folder.mkdir(mode=0o700)
    os.chown(folder, 65534, 65534)
    with pytest.raises(relay.UnsafeRuntimeDir):
        relay.ensure_private_folder(folder)


def test_an_open_runtime_folder_is_tightened(tmp_path: Path) -> None:
    folder = tmp_path / "memvault"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    relay.ensure_private_folder(folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def _text(result: Any) -> dict[str, Any]:
    block = result.content[0]
    assert isinstance(block, TextContent)
    data: dict[str, Any] = json.loads(block.text)
    return data


@pytest.mark.anyio
async def test_the_kill_switch_reaches_daemon_sessions_within_a_second(home: Path, tmp_path: Path) -> None:
    with running_daemon(home), (tmp_path / "stderr.txt").open("w") as err:
        wait_for_line(home / "logs" / "daemon.log", ("search warm in", "search warm-up stopped"))
        async with (
            stdio_client(bridge_params(home), errlog=err) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            before = await session.call_tool("memory_status", {})
            assert not before.is_error
            # Another process (the person's CLI) flips the switch in the store.
            flipped = subprocess.run(
                [*MEMVAULT, "kill-switch", "all"], env=env_for(home), capture_output=True, check=True
            )
            assert flipped.stdout.strip() == b"all"
            flipped_at = time.monotonic()
            refused = await session.call_tool("memory_search", {"query": "anything"})
            latency = time.monotonic() - flipped_at
            assert refused.is_error and _text(refused)["error"]["code"] == "kill_switch"
            assert latency < 1.0
            subprocess.run([*MEMVAULT, "kill-switch", "off"], env=env_for(home), capture_output=True, check=True)
            again = await session.call_tool("memory_status", {})
            assert not again.is_error and _text(again)["kill_switch"] == "off"


@contextlib.contextmanager
def _running(daemon: Daemon) -> Iterator[None]:
    """The daemon served on a thread of its own event loop, as the tray hosts it; stopped by a call on exit."""
    ready = threading.Event()
    with anyio.from_thread.start_blocking_portal() as portal:
        done = portal.start_task_soon(daemon.run, ready.set)
        assert ready.wait(30)
        yield
        portal.call(daemon.request_stop)
        done.result(timeout=30)


def test_the_daemon_core_runs_inside_another_process_and_stops_on_request(vault: Vault, home: Path) -> None:
    """How the tray hosts it: in a thread of its own event loop, no signal handling, stopped by a call."""
    where = address(home)
    where.ensure_folders()
    daemon = Daemon(vault, where, serve_streams, handle_signals=False)
    with _running(daemon):
        sock = socket_exchange(home, [INIT])
    assert sock.recv(1024) == b""
    sock.close()
    assert not where.socket.exists()
    assert daemon.sessions_started == 1


class SettleRecorder(HybridRetriever):
    """The real retrieval brain, noting when the daemon waits for its background embedding."""

    def __init__(self) -> None:
        super().__init__()
        self.settled = 0

    def settle(self) -> None:
        self.settled += 1
        super().settle()

    def warm(self, ctx: Context, caller: Caller) -> None:
        """Not warmed: its search would settle too, and this recorder counts the stop's wait alone."""


def test_the_daemon_waits_for_background_embedding_before_it_stops(vault: Vault, home: Path) -> None:
    """An add answered just before the stop is embedded before the store closes, not at a later catch-up."""
    recorder = SettleRecorder()
    served = Vault(vault.ctx, retriever=recorder)
    where = address(home)
    where.ensure_folders()
    daemon = Daemon(served, where, serve_streams, handle_signals=False)
    with _running(daemon):
        assert recorder.settled == 0
    assert recorder.settled == 1
