"""The tray daemon's serving core: one process per user and store that unlocks the store once and
serves MCP to every `memvault mcp` bridge over a private Unix socket (on Windows, a loopback port
that serves only a peer proving the secret of this run: `mcp_bridge/loopback.py`, decision 0017).

- Single instance: an exclusive lock on `run/daemon.lock` in the store's folder
  (`core/runtime/instance_lock.py`; it also records the pid and the socket); a second daemon for
  the same store refuses to start.
- The socket is 0600 inside a 0700 folder (see `mcp_bridge.relay.DaemonAddress`), and each
  connection's peer must be this same user (SO_PEERCRED where the OS tells).
- Each connection is one MCP session as the local assistant, run by the same server code as the
  embedded bridge (`mcp_bridge.server.serve_streams`) over newline-delimited JSON-RPC, unless
  its first line subscribes to the change feed (`desktop/change_push.py`) or asks it to stop.
- SIGTERM, SIGINT or SIGHUP (Windows: Ctrl+C or Ctrl+Break in its console, or `memvault daemon
  --stop`, which asks over a connection) stop it cleanly: no new sessions, open ones are cancelled
  between calls (a store call is synchronous, so no transaction is cut), the socket file is
  removed, the store closed, the lock released.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memvault.core.runtime import instance_lock
from memvault.core.runtime.paths import VaultPaths
from memvault.core.vocabulary.errors import EnvironmentProblem, StoreUnavailable
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, Caller
from memvault.desktop import change_push, upkeep_process
from memvault.mcp_bridge import relay
from memvault.mcp_bridge.stdio import setup_logging

if TYPE_CHECKING:
    from anyio.abc import SocketStream
    from anyio.streams.buffered import BufferedByteReceiveStream

    from memvault.core.vault import Vault
    from memvault.mcp_bridge.socket_transport import SessionServer

log = logging.getLogger("memvault.daemon")

STOP_SIGNALS = upkeep_process.STOP_SIGNALS
# How often upkeep is looked at; each job is cheap when nothing is due (one backup a day at most).
HOUSEKEEPING_INTERVAL_S = 3600


class DaemonAlreadyRunning(EnvironmentProblem):
    pass


@dataclass
class DaemonLock:
    """The store's single-instance lock (`core/runtime/instance_lock.py`), held for the daemon's whole
    life; the file records its pid and socket path."""

    lock: instance_lock.InstanceLock

    @classmethod
    def acquire(cls, path: Path, socket_path: Path) -> DaemonLock:
        """Take the lock and record `pid` and the socket path (how bridges with a stripped environment find it)."""
        lock = instance_lock.InstanceLock.acquire(path)
        if lock is None:
            pid = read_pid(path)
            raise DaemonAlreadyRunning(f"a memvault daemon already serves this store (pid {pid or 'unknown'})")
        lock.record(f"{os.getpid()}\n{socket_path}\n")
        return cls(lock)

    def release(self) -> None:
        self.lock.release()


def read_pid(path: Path) -> int | None:
    lines = instance_lock.read_lines(path)
    return int(lines[0]) if lines and lines[0].isdigit() else None


def running_pid(address: relay.DaemonAddress) -> int | None:
    """The pid of the daemon holding this store's lock, or None when none runs."""
    return read_pid(address.lock) if instance_lock.held(address.lock) else None


@dataclass
class Daemon:
    vault: Vault
    address: relay.DaemonAddress
    serve: SessionServer
    caller: Caller = LOCAL_ASSISTANT
    sessions_started: int = 0
    sessions_open: int = 0
    upkeep_passes: int = 0  # finished passes of the upkeep process
    # Watch imports/inbox: dropped exports are dry-run in the upkeep process, never in this one.
    inbox: bool = False
    # False when the daemon runs in a thread of a bigger process (the tray): signals belong to its main thread.
    handle_signals: bool = True
    _stopping: bool = field(default=False, repr=False)
    _serving: Any = field(default=None, repr=False)
    _secret: bytes = field(default=b"", repr=False)  # a loopback address's: proved by every peer
    _hub: change_push.ChangeHub | None = field(default=None, repr=False)

    async def run(self, on_ready: Callable[[], None] | None = None) -> None:
        """Listen until a stop signal arrives; then close every session and the listener."""
        import anyio  # noqa: PLC0415

        serving = self._serving = anyio.CancelScope()
        try:
            async with anyio.create_task_group() as watcher:
                # Stop signals are handled before the socket exists, and until the very end (a second
                # SIGTERM during shutdown is only logged): a client that can connect can stop it cleanly.
                if self.handle_signals:
                    await watcher.start(self._stop_on_signal, serving)
                with serving:
                    async with anyio.create_task_group() as group:
                        self._hub = change_push.ChangeHub(self.vault.paths)
                        await group.start(self._hub.run)
                        listener = await self._listen()
                        log.info("daemon: listening (pid %d)", os.getpid())
                        if on_ready is not None:
                            on_ready()
                        group.start_soon(self._warm_up)
                        group.start_soon(self._housekeeping)
                        if self.inbox:
                            group.start_soon(self._imports_inbox)
                        async with listener:
                            await listener.serve(self._session, task_group=group)
                watcher.cancel_scope.cancel()
        finally:
            with contextlib.suppress(FileNotFoundError):
                self.address.socket.unlink()
            # An add answered just before the stop is still embedding on its thread: it lands before
            # the store closes, or that record would have no vector until a later catch-up.
            self.vault.serving.settle()
            log.info("daemon: stopped after %d sessions", self.sessions_started)

    def request_stop(self) -> None:
        """Stop serving (from the daemon's event loop, e.g. through an anyio portal in the tray)."""
        self._stopping = True
        if self._serving is not None:
            self._serving.cancel()

    async def _listen(self) -> Any:
        import anyio  # noqa: PLC0415

        with contextlib.suppress(FileNotFoundError):
            self.address.socket.unlink()  # stale: we hold the lock, so no live daemon owns it
        if self.address.loopback:
            return await self._listen_on_loopback()
        old_umask = os.umask(0o177)  # the socket is born 0600
        try:
            listener = await anyio.create_unix_listener(self.address.socket)
        finally:
            os.umask(old_umask)
        os.chmod(self.address.socket, 0o600)
        return listener

    async def _listen_on_loopback(self) -> Any:
        """A loopback port chosen by the OS, recorded with a new secret where bridges look for it."""
        import anyio  # noqa: PLC0415
        from anyio.abc import SocketAttribute  # noqa: PLC0415

        from memvault.mcp_bridge import loopback  # noqa: PLC0415

        listener = await anyio.create_tcp_listener(local_host=loopback.HOST, local_port=0)
        try:
            self._secret = loopback.new_secret()
            port = listener.extra(SocketAttribute.local_port)  # noqa: S610 - anyio, not Django
            loopback.write_endpoint(self.address.socket, port, self._secret)
        except BaseException:
            await listener.aclose()
            raise
        return listener

    async def _admitted(self, stream: SocketStream, lines: BufferedByteReceiveStream) -> bool:
        """Whether a loopback peer proves the secret (`mcp_bridge/loopback.py`) within the time allowed."""
        import anyio  # noqa: PLC0415

        from memvault.mcp_bridge import loopback  # noqa: PLC0415

        with anyio.move_on_after(loopback.HANDSHAKE_S):
            try:
                answer = loopback.answer_hello(self._secret, await lines.receive_until(b"\n", loopback.MAX_LINE))
                if answer is None:
                    return False
                reply, nonce = answer
                await stream.send(reply)
                return loopback.proved(self._secret, nonce, await lines.receive_until(b"\n", loopback.MAX_LINE))
            except (anyio.EndOfStream, anyio.IncompleteRead, anyio.DelimiterNotFound, anyio.BrokenResourceError):
                return False
        return False

    async def _warm_up(self) -> None:
        """Load what a search needs now (the model, the vector index, the word postings), beside the
        first sessions, so no assistant's call pays for it."""
        import anyio  # noqa: PLC0415

        started = time.monotonic()
        if await anyio.to_thread.run_sync(self.vault.serving.warm_quietly, self.caller):
            log.info("daemon: search warm in %.0f ms", (time.monotonic() - started) * 1000)

    async def _housekeeping(self) -> None:
        """Daily backup with retention, domain upkeep and consolidation; at start and every hour after.

        Each pass runs in a child process (desktop/upkeep_process.py): its peak memory and CPU leave
        with it, and a stop of the daemon stops it too (this task is cancelled with the others).
        """
        import anyio  # noqa: PLC0415

        while True:
            code = await upkeep_process.run_upkeep(self.vault.paths, self.vault.key_for_child())
            if code == 0:
                self.upkeep_passes += 1
            else:
                log.error("daemon: the upkeep process ended with code %d", code)
            await anyio.sleep(HOUSEKEEPING_INTERVAL_S)

    async def _imports_inbox(self) -> None:
        """Exports dropped into imports/inbox get their dry run in an upkeep process of their own
        (`upkeep_process.INBOX`): reading a large export and judging its candidates would otherwise
        hold this process's store, memory and interpreter while every session's call waited. Here the
        folder is only watched (watchdog's thread) and the files dropped are handed on, a pass at a time."""
        import anyio  # noqa: PLC0415

        arrived = threading.Event()
        pending: set[Path | None] = set()  # None: look at the whole folder
        lock = threading.Lock()

        def dropped(path: Path | None) -> None:  # on watchdog's thread
            with lock:
                pending.add(path)
            arrived.set()

        watcher = self.vault.imports.inbox_watcher(on_drop=dropped)
        watcher.start()  # asks for a look at the whole folder first: files dropped while nothing watched
        waiting = anyio.CapacityLimiter(1)  # the wait does not take a session's worker thread
        try:
            while True:
                await anyio.to_thread.run_sync(arrived.wait, abandon_on_cancel=True, limiter=waiting)
                with lock:
                    arrived.clear()
                    paths = None if None in pending else sorted(str(p) for p in pending if p is not None)
                    pending.clear()
                log.info("daemon: imports inbox: %s", "the whole folder" if paths is None else f"{len(paths)} file(s)")
                code = await upkeep_process.run_upkeep(
                    self.vault.paths, self.vault.key_for_child(), (upkeep_process.INBOX,), paths
                )
                if code != 0:
                    log.error("daemon: the imports inbox pass ended with code %d", code)
        finally:
            watcher.stop()
            arrived.set()  # the abandoned wait ends

    async def _stop_on_signal(self, scope: Any, *, task_status: Any) -> None:
        if sys.platform == "win32":
            await self._stop_on_console_signal(scope, task_status=task_status)
            return
        import anyio  # noqa: PLC0415

        with anyio.open_signal_receiver(*STOP_SIGNALS) as signals:
            task_status.started()
            async for signum in signals:
                self._signalled(signum, scope)

    async def _stop_on_console_signal(self, scope: Any, *, task_status: Any) -> None:
        """Windows: asyncio has no `add_signal_handler` there, which anyio's signal receiver needs.
        Python's own handlers (on the main thread, which runs this loop; its wake-up fd makes the
        loop run them at once) hand each signal to the loop. The daemon runs on anyio's asyncio backend."""
        import asyncio  # noqa: PLC0415

        loop = asyncio.get_running_loop()
        arrived: asyncio.Queue[int] = asyncio.Queue()

        def on_signal(signum: int, frame: Any) -> None:
            loop.call_soon_threadsafe(arrived.put_nowait, signum)

        previous = {signum: signal.signal(signum, on_signal) for signum in STOP_SIGNALS}
        try:
            task_status.started()
            while True:
                self._signalled(await arrived.get(), scope)
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)

    def _signalled(self, signum: int, scope: Any) -> None:
        log.info(
            "daemon: %s received, %s", signal.Signals(signum).name, "already stopping" if self._stopping else "stopping"
        )
        self._stopping = True
        scope.cancel()

    async def _session(self, stream: SocketStream) -> None:
        from anyio.abc import SocketAttribute  # noqa: PLC0415
        from anyio.streams.buffered import BufferedByteReceiveStream  # noqa: PLC0415

        async with stream:
            lines = BufferedByteReceiveStream(stream)
            if self.address.loopback:
                if not await self._admitted(stream, lines):
                    log.warning("daemon: refused a loopback connection that did not prove the secret")
                    return
            elif sys.platform != "win32":
                uid = relay.peer_uid(stream.extra(SocketAttribute.raw_socket))  # noqa: S610 - anyio, not Django
                if uid is not None and uid != os.getuid():
                    log.warning("daemon: refused a connection from another user (uid %d)", uid)
                    return
            self.sessions_started += 1
            self.sessions_open += 1
            number = self.sessions_started
            log.info("daemon: session %d opened (%d open)", number, self.sessions_open)
            try:
                await self._serve_connection(stream, lines)
            except Exception as exc:
                # Type and frames only: an exception's text could quote what a client sent.
                frames = "".join(traceback.format_tb(exc.__traceback__))
                log.error("daemon: session %d failed: %s\n%s", number, _kinds(exc), frames)
            finally:
                self.sessions_open -= 1
                log.info("daemon: session %d closed (%d open)", number, self.sessions_open)

    async def _serve_connection(self, stream: SocketStream, lines: BufferedByteReceiveStream) -> None:
        """An MCP session, or a change subscription or a stop request when the first line asks for one."""
        from memvault.mcp_bridge.socket_transport import next_line, serve_socket_session  # noqa: PLC0415

        first = await next_line(lines)
        if first is None:
            return
        if _asks_to_stop(first):
            log.info("daemon: asked to stop over a connection")
            self.request_stop()
            return
        request = change_push.subscription(first)
        if request is not None and self._hub is not None:
            await change_push.serve_subscription(self.vault, self.caller, stream, lines, request, self._hub)
        else:
            await serve_socket_session(self.vault, self.caller, stream, self.serve, lines, first)


def _asks_to_stop(line: bytes) -> bool:
    if relay.STOP_METHOD.encode() not in line:  # a session's first line is parsed only where it may ask
        return False
    try:
        message = json.loads(line)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("method") == relay.STOP_METHOD


def _kinds(exc: BaseException) -> str:
    """The exception's type, or its leaves' types for an exception group."""
    if isinstance(exc, BaseExceptionGroup):
        return ", ".join(_kinds(inner) for inner in exc.exceptions)
    return type(exc).__name__


def default_server() -> SessionServer:
    from memvault.mcp_bridge.server import serve_streams  # noqa: PLC0415

    return serve_streams


def run(home: str | os.PathLike[str] | None = None, *, headless: bool = True, verbose: bool = False) -> int:
    """`memvault daemon`: serve until stopped. Returns the process exit code."""
    import anyio  # noqa: PLC0415

    from memvault.core.vault import Vault  # noqa: PLC0415

    paths = VaultPaths.from_env(home)
    setup_logging(paths, "daemon.log", verbose=verbose)
    if not headless:
        log.warning("daemon: the tray is not part of this build yet; running headless")
    address = relay.DaemonAddress.for_home(paths.home)
    address.ensure_folders()
    lock = DaemonLock.acquire(address.lock, address.socket)
    try:
        with Vault.open(paths.home) as vault:  # the one unlock of the daemon's life
            # inbox: exports dropped into imports/inbox wait, dry-run by the upkeep process, in the approval inbox
            daemon = Daemon(vault, address, default_server(), inbox=True)
            anyio.run(daemon.run, _announce(paths))
            for signum in STOP_SIGNALS:  # the last steps (close the store, release the lock) run to the end
                signal.signal(signum, signal.SIG_IGN)
    finally:
        lock.release()
    return 0


def _announce(paths: VaultPaths) -> Callable[[], None]:
    def ready() -> None:
        print(f"memvault daemon: serving {paths.home} (pid {os.getpid()})", file=sys.stderr, flush=True)

    return ready


def stop(home: str | os.PathLike[str] | None = None) -> int | None:
    """Ask this store's daemon to stop (SIGTERM; on a loopback address, over a connection: on Windows
    `os.kill` ends a process at once, its store unclosed); returns its pid, or None when none runs."""
    address = relay.DaemonAddress.for_home(VaultPaths.from_env(home).home)
    pid = running_pid(address)
    if pid is not None and not (address.loopback and relay.request_stop(address)):
        os.kill(pid, signal.SIGTERM)  # (loopback: a daemon not listening yet has served nothing to cut)
    return pid


def status(home: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """Whether a daemon holds this store's lock, and whether it answers yet (it unlocks the store and
    loads before it listens)."""
    address = relay.DaemonAddress.for_home(VaultPaths.from_env(home).home)
    pid = running_pid(address)
    listening = False
    if pid is not None:
        probe = relay.connect(address)
        listening = probe is not None
        if probe is not None:
            probe.close()
    return {"running": pid is not None, "listening": listening, "pid": pid, "socket": str(address.socket)}


def refuse_while_running(home: str | os.PathLike[str] | None, doing: str) -> None:
    """A daemon (of another process: the app stops its own first) keeps the store open, or a shared
    one in use: `doing` (restore, migrate, uninstall…) waits until it is stopped."""
    running = status(home)
    if running["running"]:
        raise StoreUnavailable(
            f"another memvault process serves this store (the daemon, pid {running['pid']}): stop it with "
            f"`memvault daemon --stop`, then {doing} again"
        )
