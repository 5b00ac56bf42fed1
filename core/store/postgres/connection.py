"""The one place that opens a PostgreSQL store: where it may be, what the server must offer.

A store on another machine is reached over TLS with the server's certificate and name verified
(`sslmode=verify-full`) or not at all: memory text crosses that network. A local socket or the
loopback address needs no TLS. The server must run PostgreSQL 14 or newer with pgvector 0.5 or
newer available (HNSW indexes came with 0.5).
"""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import parse_qs, urlsplit

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.rows import dict_row

from memvault.core.vocabulary.errors import InvalidArgument, StoreUnavailable

Connection = psycopg.Connection[dict[str, Any]]
DatabaseError = psycopg.Error
OperationalError = psycopg.OperationalError
IDLE = TransactionStatus.IDLE  # outside any transaction
MIN_SERVER = 140000  # server_version_num
MIN_PGVECTOR = (0, 5)
CONNECT_SECONDS = 10


def _is_local(host: str) -> bool:
    if not host or host.startswith("/") or host == "localhost":
        return True  # a Unix socket (libpq's default), or this machine by name
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_location(url: str) -> None:
    """A clear error for a URL memvault will not use: not PostgreSQL, or another machine without
    verified TLS. Credentials never appear in the message."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres"):
        raise InvalidArgument("store: expected a postgresql:// URL")
    query = parse_qs(parts.query)
    host = (query.get("host") or [parts.hostname or ""])[0]
    if _is_local(host):
        return
    if (query.get("sslmode") or [""])[0] != "verify-full":
        raise InvalidArgument(
            f"store: {host} is another machine; memvault reaches it only over TLS that verifies the server: "
            "add sslmode=verify-full (and sslrootcert=... when its certificate is not signed by a system CA)"
        )


def open_connection(url: str, password: str | None = None) -> Connection:
    """Connect (outside any transaction: every transaction is begun explicitly) and check the server.
    `password`: the store's, from the keyring (the URL memvault keeps has none)."""
    check_location(url)
    try:  # a password of None is left out: libpq then looks where it always does (~/.pgpass)
        conn = psycopg.connect(
            url, autocommit=True, row_factory=dict_row, connect_timeout=CONNECT_SECONDS, password=password
        )
    except psycopg.OperationalError as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise StoreUnavailable(f"the PostgreSQL store could not be reached ({reason})") from None
    try:
        check_server(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def check_server(conn: Connection) -> None:
    """PostgreSQL 14+ with pgvector 0.5+ available, or an error naming the fix."""
    version = int(conn.info.server_version)
    if version < MIN_SERVER:
        raise StoreUnavailable(f"the PostgreSQL server is version {version // 10000}; memvault needs 14 or newer")
    row = conn.execute("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'").fetchone()
    if row is None:
        raise StoreUnavailable(
            "the PostgreSQL server does not offer pgvector: install it (https://github.com/pgvector/pgvector; "
            "Debian/Ubuntu: postgresql-NN-pgvector) or, on a managed service, enable the 'vector' extension"
        )
    found = tuple(int(part) for part in str(row["default_version"]).split(".")[:2])
    if found < MIN_PGVECTOR:
        raise StoreUnavailable(
            f"the PostgreSQL server offers pgvector {row['default_version']}; memvault needs 0.5 or newer "
            "(HNSW indexes): upgrade the extension"
        )
