"""The daemon on a loopback port, as it serves on Windows (mcp_bridge/loopback.py, decision 0017),
run here on Linux: a peer must prove the secret before anything is served, the bridge relays only to
a daemon that proves it back, and the stops Windows relies on (a request over the connection, Ctrl+C
handed to the loop by Python's own handler) stop it cleanly."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import stat
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import anyio
import pytest

from memvault.core.vault import Vault
from memvault.desktop.daemon import Daemon
from memvault.mcp_bridge import loopback, relay
from memvault.mcp_bridge.server import serve_streams

from .bridgekit import INIT


def _daemon(vault: Vault, home: Path, *, handle_signals: bool = False) -> tuple[Daemon, relay.DaemonAddress]:
    where = relay.DaemonAddress.for_home(home.resolve(), loopback=True)
    where.ensure_folders()
    return Daemon(vault, where, serve_streams, handle_signals=handle_signals), where


@contextlib.contextmanager
def _running(daemon: Daemon) -> Iterator[Future[Any]]:
    """Served on a thread of its own event loop (as the tray hosts it); stopped by a call on exit
    unless the test stopped it."""
    ready = threading.Event()
    with anyio.from_thread.start_blocking_portal() as portal:
        done = portal.start_task_soon(daemon.run, ready.set)
        assert ready.wait(30)
        try:
            yield done
        finally:
            if not done.done():
                portal.call(daemon.request_stop)
            done.result(timeout=30)


def _initialize(sock: socket.socket) -> dict[str, Any]:
    sock.settimeout(30)
    sock.sendall(json.dumps(INIT).encode() + b"\n")
    answer: dict[str, Any] = json.loads(sock.makefile("rb").readline())
    return answer


def _closed_without_answer(sock: socket.socket) -> bool:
    sock.settimeout(30)
    try:
        return sock.recv(4096) == b""
    except ConnectionResetError:
        return True


def test_a_session_on_the_loopback_port_after_both_proofs(vault: Vault, home: Path) -> None:
    daemon, where = _daemon(vault, home)
    assert where.loopback and where.socket == home.resolve() / "run" / "daemon.port"
    with _running(daemon):
        endpoint = loopback.read_endpoint(where.socket)
        assert endpoint is not None and endpoint.host == "127.0.0.1" and len(endpoint.secret) == loopback.SECRET_BYTES
        assert stat.S_IMODE(where.socket.stat().st_mode) == 0o600
        sock = relay.connect(where)
        assert sock is not None
        with sock:
            assert _initialize(sock)["id"] == 1
        assert daemon.sessions_started == 1
    assert not where.socket.exists()  # gone with the daemon, like a Unix socket file


def test_a_peer_that_does_not_prove_the_secret_is_served_nothing(
    vault: Vault, home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="memvault.daemon")
    monkeypatch.setattr(loopback, "HANDSHAKE_S", 1.0)
    daemon, where = _daemon(vault, home)
    with _running(daemon):
        endpoint = loopback.read_endpoint(where.socket)
        assert endpoint is not None
        port = (endpoint.host, endpoint.port)
        with socket.create_connection(port) as plain:  # an MCP client that skips the handshake
            plain.sendall(json.dumps(INIT).encode() + b"\n")
            assert _closed_without_answer(plain)
        with socket.create_connection(port) as guesser:  # a hello, then a proof made with another secret
            nonce = os.urandom(loopback.NONCE_BYTES)
            guesser.sendall(loopback.HELLO + b" " + nonce.hex().encode() + b"\n")
            reply = guesser.makefile("rb").readline().split()
            assert len(reply) == 2 and reply[0] != b""
            wrong = loopback._proof(b"x" * loopback.SECRET_BYTES, b"bridge", bytes.fromhex(reply[1].decode()))
            guesser.sendall(wrong + b"\n" + json.dumps(INIT).encode() + b"\n")
            assert _closed_without_answer(guesser)
        with socket.create_connection(port) as silent:  # says nothing: dropped after the handshake's time
            assert _closed_without_answer(silent)
        assert daemon.sessions_started == 0
        sock = relay.connect(where)  # the daemon still serves who proves it
        assert sock is not None
        with sock:
            assert _initialize(sock)["id"] == 1
    assert caplog.text.count("refused a loopback connection that did not prove the secret") == 3


def test_the_bridge_does_not_relay_to_a_process_that_took_a_stale_port(tmp_path: Path) -> None:
    """The daemon is gone and something else listens on its recorded port: it cannot give the
    daemon's proof, so the bridge serves from the store instead, and it never sees the secret."""
    secret = loopback.new_secret()
    heard: list[bytes] = []
    with socket.create_server(("127.0.0.1", 0)) as impostor:
        endpoint_file = tmp_path / "daemon.port"
        loopback.write_endpoint(endpoint_file, impostor.getsockname()[1], secret)

        def answer_anything() -> None:
            peer, _ = impostor.accept()
            with peer:
                heard.append(peer.recv(4096))
                peer.sendall(b"0" * 64 + b" " + b"1" * 32 + b"\n")
                heard.append(peer.recv(4096))

        thread = threading.Thread(target=answer_anything)
        thread.start()
        assert loopback.connect(endpoint_file) is None
        thread.join(30)
    assert heard[0].startswith(loopback.HELLO) and heard[1] == b""  # no proof sent back, no session
    assert secret.hex().encode() not in b"".join(heard)


def test_no_daemon_behind_the_recorded_port_means_no_connection(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as closed:
        port = closed.getsockname()[1]
    loopback.write_endpoint(tmp_path / "daemon.port", port, loopback.new_secret())
    assert loopback.connect(tmp_path / "daemon.port") is None
    assert loopback.connect(tmp_path / "absent.port") is None


def test_a_stop_request_over_the_connection_stops_it(
    vault: Vault, home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`memvault daemon --stop` on Windows, where os.kill would end the process with its store open."""
    caplog.set_level(logging.INFO, logger="memvault.daemon")
    daemon, where = _daemon(vault, home)
    with _running(daemon) as done:
        assert relay.request_stop(where)
        done.result(timeout=30)
    assert not where.socket.exists()
    assert "asked to stop over a connection" in caplog.text


def test_ctrl_c_reaches_the_loop_through_pythons_own_handler(
    vault: Vault, home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Windows' signal path (asyncio has no add_signal_handler there), run here in the main thread."""
    caplog.set_level(logging.INFO, logger="memvault.daemon")
    monkeypatch.setattr(Daemon, "_stop_on_signal", Daemon._stop_on_console_signal)
    daemon, where = _daemon(vault, home, handle_signals=True)
    before = signal.getsignal(signal.SIGINT)

    def interrupt_when_ready() -> None:
        threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()

    anyio.run(daemon.run, interrupt_when_ready)
    assert signal.getsignal(signal.SIGINT) == before  # its handlers are put back
    assert not where.socket.exists()
    assert "SIGINT received, stopping" in caplog.text
