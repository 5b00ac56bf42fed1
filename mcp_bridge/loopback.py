"""The daemon's connection where there are no Unix sockets (Windows): a loopback TCP port that
serves only a peer proving the secret of this run of the daemon (decision 0017).

Any process on the machine may connect to a loopback port, so neither side says anything of a
session before each has proved it knows the secret the daemon wrote, with its port, into the
store's `run/daemon.port` (`write_endpoint`: a file of the store's folder, which on Windows the
profile's permissions close to other users). The secret itself never crosses the connection:

    bridge -> daemon   MVHELLO1 <bridge nonce>
    daemon -> bridge   <HMAC-SHA256(secret, "daemon" + bridge nonce)> <daemon nonce>
    bridge -> daemon   <HMAC-SHA256(secret, "bridge" + daemon nonce)>

Then the connection carries what the Unix socket carries. A process that took the port of a daemon
gone cannot give the first proof, so the bridge never hands it a session. Standard library only,
like relay.py: the bridge imports this on Windows at every start.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import os
import socket
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("memvault.relay")

HOST = "127.0.0.1"
HELLO = b"MVHELLO1"
NONCE_BYTES = 16
SECRET_BYTES = 32
MAX_LINE = 256  # every line of the handshake is shorter
HANDSHAKE_S = 5.0  # a peer silent this long is dropped (daemon) or given up on (bridge)


@dataclass(frozen=True)
class Endpoint:
    host: str
    port: int
    secret: bytes


def new_secret() -> bytes:
    return os.urandom(SECRET_BYTES)


def write_endpoint(path: Path, port: int, secret: bytes) -> None:
    """Record where the daemon listens, private to the user, whole (a reader never sees half)."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, f"{HOST} {port} {secret.hex()}\n".encode())
    finally:
        os.close(fd)
    os.replace(tmp, path)


def read_endpoint(path: Path) -> Endpoint | None:
    try:
        host, port, secret = path.read_text(encoding="ascii").split()
        return Endpoint(host, int(port), bytes.fromhex(secret))
    except (OSError, ValueError):
        return None


def _proof(secret: bytes, role: bytes, nonce: bytes) -> bytes:
    return hmac.new(secret, role + nonce, "sha256").hexdigest().encode()


# -- the daemon's side (its reads and writes are the daemon's: these only judge the lines) ---------
def answer_hello(secret: bytes, line: bytes) -> tuple[bytes, bytes] | None:
    """The daemon's reply to a bridge's hello and the nonce the bridge must prove next; None when
    the line is no hello."""
    parts = line.split()
    if len(parts) != 2 or parts[0] != HELLO:
        return None
    try:
        nonce = bytes.fromhex(parts[1].decode("ascii"))
    except ValueError:
        return None
    if len(nonce) != NONCE_BYTES:
        return None
    mine = os.urandom(NONCE_BYTES)
    return _proof(secret, b"daemon", nonce) + b" " + mine.hex().encode() + b"\n", mine


def proved(secret: bytes, nonce: bytes, line: bytes) -> bool:
    """Whether the bridge's last line proves the secret for the daemon's nonce."""
    return hmac.compare_digest(line.strip(), _proof(secret, b"bridge", nonce))


# -- the bridge's side -----------------------------------------------------------------------------
def connect(endpoint_file: Path) -> socket.socket | None:
    """A connection to the daemon recorded in `endpoint_file`, both proofs given; None when no daemon
    answers there (no file, a stale port) or the one that answers does not know the secret."""
    endpoint = read_endpoint(endpoint_file)
    if endpoint is None:
        return None
    try:
        sock = socket.create_connection((endpoint.host, endpoint.port), timeout=HANDSHAKE_S)
    except OSError as exc:
        if not isinstance(exc, ConnectionRefusedError):
            log.warning("daemon port unusable (%s): serving from the store", exc.strerror)
        return None
    try:
        if _handshake(sock, endpoint.secret):
            sock.settimeout(None)  # the relay waits with select, as on a Unix socket
            return sock
        log.warning("the process on the daemon's port does not know its secret: not relaying")
    except OSError as exc:
        log.warning("daemon handshake failed (%s): serving from the store", exc.strerror or type(exc).__name__)
    with contextlib.suppress(OSError):
        sock.close()
    return None


def _handshake(sock: socket.socket, secret: bytes) -> bool:
    nonce = os.urandom(NONCE_BYTES)
    sock.sendall(HELLO + b" " + nonce.hex().encode() + b"\n")
    parts = _line(sock).split()
    if len(parts) != 2 or not hmac.compare_digest(parts[0], _proof(secret, b"daemon", nonce)):
        return False
    try:
        theirs = bytes.fromhex(parts[1].decode("ascii"))
    except ValueError:
        return False
    sock.sendall(_proof(secret, b"bridge", theirs) + b"\n")
    return True


def _line(sock: socket.socket) -> bytes:
    """One line of the handshake (the daemon sends nothing after it until the bridge's proof)."""
    data = b""
    while not data.endswith(b"\n") and len(data) < MAX_LINE:
        chunk = sock.recv(MAX_LINE - len(data))
        if not chunk:
            break
        data += chunk
    return data
