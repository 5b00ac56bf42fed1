"""The byte pipe between an MCP client's stdio and the tray daemon's Unix socket.

`memvault mcp` runs this when the daemon answers: the client's newline-delimited
JSON-RPC goes to the daemon unchanged and the daemon's answers come back
unchanged, so the warm daemon serves the session; a line no server would answer
(not JSON, too deep, an unpaired surrogate, params that are not an object, a line
too long: see `jsonrpc_guard`) is answered here, as the daemon and the embedded
bridge answer it. Only the standard library is imported here (no MCP SDK, no
pydantic, no store): every client start pays for this module.

The daemon's address is private to the user: a socket (0600) inside a folder
(0700) under `$XDG_RUNTIME_DIR/memvault` (or `/run/user/UID/memvault`), or
`MEMVAULT_HOME/run` where there is no runtime folder. Its name carries a hash of
the store's folder, so each store has its own daemon and two stores never meet
on one socket. The daemon's lock file lives in the store's own `run/` folder and
records its pid and socket path: a bridge spawned with a stripped environment
(Codex passes only HOME, PATH, USER and a few more to MCP servers) still finds it.
Windows has no Unix sockets for Python: there the daemon listens on a loopback
port that serves only a peer proving its secret (`loopback.py`, decision 0017),
recorded in `MEMVAULT_HOME/run/daemon.port`; the relay is the same either way.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import select
import socket
import stat
import struct
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memvault.mcp_bridge import jsonrpc_guard

log = logging.getLogger("memvault.relay")

CHUNK = 64 * 1024
# sockaddr_un holds 108 bytes on Linux (104 on the BSDs) including the final NUL.
MAX_SOCKET_PATH = 100
# After the client's stdin closes, how long the daemon may take to finish its answers.
DRAIN_SECONDS = 30.0
# The first line of a connection that asks the daemon to stop (`memvault daemon --stop` where a
# signal cannot do it: on Windows `os.kill` ends a process without letting it close its store).
STOP_METHOD = "memvault/stop_daemon"


class UnsafeRuntimeDir(Exception):
    """The runtime folder belongs to someone else or is open to others."""


@dataclass(frozen=True)
class DaemonAddress:
    """Where the daemon of one store listens, and the lock (in the store's folder) that keeps it single.

    `socket` is the Unix socket; with `loopback` (Windows), the file naming the loopback port and
    secret (`loopback.write_endpoint`). Either exists while the daemon listens and goes when it stops.
    """

    folder: Path
    socket: Path
    lock: Path
    loopback: bool = False

    @classmethod
    def for_home(cls, home: Path, *, loopback: bool = False) -> DaemonAddress:
        """The address of `home`'s daemon: a Unix socket, or on Windows (or when asked) a loopback port."""
        run = home / "run"
        if loopback or sys.platform == "win32":
            return cls(folder=run, socket=run / "daemon.port", lock=run / "daemon.lock", loopback=True)
        tag = hashlib.sha256(os.fsencode(home)).hexdigest()[:16]
        folder = _runtime_folder(home)
        if len(os.fsencode(folder / f"daemon-{tag}.sock")) > MAX_SOCKET_PATH:
            import tempfile  # noqa: PLC0415 - rare, and tempfile costs every bridge start ~10 ms

            folder = Path(tempfile.gettempdir()) / f"memvault-{os.getuid()}"
        return cls(folder=folder, socket=folder / f"daemon-{tag}.sock", lock=run / "daemon.lock")

    def ensure_folders(self) -> None:
        for folder in (self.folder, self.lock.parent):
            ensure_private_folder(folder)

    def recorded_socket(self) -> Path | None:
        """The socket the running daemon wrote into its lock file (second line), if any."""
        try:
            lines = self.lock.read_text().splitlines()
        except OSError:
            return None
        return Path(lines[1]) if len(lines) > 1 and lines[1].startswith("/") else None


def ensure_private_folder(folder: Path) -> None:
    """Create the folder 0700, or check that an existing one is ours and closed to others."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if sys.platform == "win32":
        return  # no owner or mode bits there: the folder keeps the permissions of the profile that holds the store
    info = folder.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise UnsafeRuntimeDir(f"{folder} is not a folder owned by this user")
    if stat.S_IMODE(info.st_mode) & 0o077:
        os.chmod(folder, 0o700)


def _runtime_folder(home: Path) -> Path:
    if sys.platform == "win32":
        return home / "run"
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return Path(runtime) / "memvault"
    systemd = Path(f"/run/user/{os.getuid()}")  # the standard runtime folder, when the variable was stripped
    with contextlib.suppress(OSError):
        if systemd.is_dir() and systemd.stat().st_uid == os.getuid():
            return systemd / "memvault"
    return home / "run"


def peer_uid(sock: socket.socket) -> int | None:
    """The user id of the process at the other end (Linux), or None where the OS cannot tell."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return None
    creds = sock.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    return int(struct.unpack("3i", creds)[1])


def connect(address: DaemonAddress) -> socket.socket | None:
    """A connection to a running daemon of this user, or None when none answers."""
    if address.loopback:
        from memvault.mcp_bridge import loopback  # noqa: PLC0415 - Windows' path; the others never pay for it

        return loopback.connect(address.socket)
    for path in dict.fromkeys((address.socket, address.recorded_socket())):
        if path is not None and path.exists():
            sock = _connect(path)
            if sock is not None:
                return sock
    return None


def _connect(path: Path) -> socket.socket | None:
    if sys.platform == "win32":  # no AF_UNIX in CPython there (a daemon address there is a loopback one)
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(os.fspath(path))
    except OSError as exc:
        sock.close()
        if exc.errno not in (errno.ECONNREFUSED, errno.ENOENT):
            log.warning("daemon socket unusable (%s): serving from the store", exc.strerror)
        return None
    uid = peer_uid(sock)
    if uid is not None and uid != os.getuid():
        sock.close()
        log.warning("the process on the daemon socket runs as another user: not relaying")
        return None
    return sock


def request_stop(address: DaemonAddress, timeout: float = 30.0) -> bool:
    """Ask the daemon to stop over its connection (where no signal stops it cleanly); True once it
    has closed the connection, i.e. it is stopping."""
    sock = connect(address)
    if sock is None:
        return False
    try:
        sock.settimeout(timeout)
        sock.sendall(b'{"jsonrpc": "2.0", "method": "%s"}\n' % STOP_METHOD.encode())
        while sock.recv(CHUNK):
            pass
    except OSError:
        return False
    finally:
        sock.close()
    return True


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class ClientWire:
    """The client's end: the server's bytes pass in whole lines, so an error answer never splits one."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._lock = threading.Lock()
        self._pending = b""

    def forward(self, data: bytes) -> None:
        with self._lock:
            self._pending += data
            cut = self._pending.rfind(b"\n") + 1
            if cut:
                write_all(self.fd, self._pending[:cut])
                self._pending = self._pending[cut:]

    def answer(self, line: bytes) -> None:
        with self._lock:
            write_all(self.fd, line)

    def finish(self) -> None:
        with self._lock:
            if self._pending:
                write_all(self.fd, self._pending)
                self._pending = b""


def guarded_lines(in_fd: int, send: Callable[[bytes], None], wire: ClientWire) -> None:
    """Client -> server, line by line: a line the server would never answer is answered here (a line
    over `jsonrpc_guard.MAX_LINE_BYTES` without being held whole); the last line, should the input
    end without its newline, is passed on with one, so the server reads it as the embedded bridge does."""
    lines = jsonrpc_guard.LineSplitter()
    while data := os.read(in_fd, CHUNK):
        _pass_on(lines.feed(data), send, wire)
    _pass_on(lines.end(), send, wire)


def _pass_on(lines: list[bytes], send: Callable[[bytes], None], wire: ClientWire) -> None:
    passed = []
    for line in lines:
        error = jsonrpc_guard.problem(line)
        if error is None:
            passed.append(line + b"\n")
        elif error:  # empty: dropped without an answer
            wire.answer(error)
    if passed:
        send(b"".join(passed))


def _upstream(sock: socket.socket, in_fd: int, wire: ClientWire, done: threading.Event) -> None:
    """Client -> daemon, until the client closes its end; then half-close towards the daemon."""
    try:
        guarded_lines(in_fd, sock.sendall, wire)
    except OSError as exc:
        log.info("relay: client side ended (%s)", exc.strerror)
    finally:
        done.set()
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_WR)


def pipe(sock: socket.socket, in_fd: int = 0, out_fd: int = 1) -> int:
    """Relay both ways until the daemon closes the session; returns the bytes received for the client."""
    client_done = threading.Event()
    wire = ClientWire(out_fd)
    threading.Thread(target=_upstream, args=(sock, in_fd, wire, client_done), name="relay-up", daemon=True).start()
    sent = 0
    deadline: float | None = None
    try:
        while True:
            # Wait with select, not a socket timeout: a timeout would also cut the other thread's sendall.
            if not select.select([sock], [], [], 1.0)[0]:
                if client_done.is_set():
                    # The client is gone: give the daemon a bounded time to answer what it already has.
                    deadline = deadline or time.monotonic() + DRAIN_SECONDS
                    if time.monotonic() > deadline:
                        log.warning(
                            "relay: the daemon did not answer within %.0f s of the client leaving", DRAIN_SECONDS
                        )
                        break
                continue
            data = sock.recv(CHUNK)
            if not data:
                break
            wire.forward(data)
            sent += len(data)
    except OSError as exc:
        log.info("relay: session ended (%s)", exc.strerror)
    finally:
        wire.finish()
        sock.close()
    return sent
