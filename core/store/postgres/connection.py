"""The one place that opens a PostgreSQL store: where it may be, what the server must offer.

A store on another machine is reached over TLS with the server's certificate and name verified
(`sslmode=verify-full`) or not at all: memory text crosses that network. A local socket or the
loopback address needs no TLS. The server must run PostgreSQL 14 or newer with pgvector 0.5 or
newer available (HNSW indexes came with 0.5).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.pq import TransactionStatus
from psycopg.rows import dict_row

from memvault.core.vocabulary.errors import InvalidArgument, StoreUnavailable

Connection = psycopg.Connection[dict[str, Any]]
DatabaseError = psycopg.Error
OperationalError = psycopg.OperationalError
IDLE = TransactionStatus.IDLE  # outside any transaction
MIN_SERVER = 140000  # server_version_num
MIN_PGVECTOR = (0, 5)
CONNECT_SECONDS = "10"  # unless the URL says otherwise: libpq would wait for ever
# The word index (GIN) keeps new entries in a pending list that every word lookup reads through until
# it is merged: up to 4 MB by default (thousands of records; ~10 ms a term was measured at 10k), merged
# by autovacuum only after a fifth of the table is new. A writer of this session merges it past 256 kB
# instead (a few hundred records' words: under 1 ms a term, and adds cost no more).
PENDING_WORDS = "256kB"


def _is_local(host: str) -> bool:
    if not host or host.startswith("/") or host == "localhost":
        return True  # a Unix socket (libpq's default), or this machine by name
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def parsed(location: str) -> dict[str, str]:
    """The connection's options as libpq reads them (the last of a repeated option wins); a clear error,
    never quoting the location (it may hold a password), for one it cannot read."""
    if "://" in location and location.split("://", 1)[0] not in ("postgresql", "postgres"):
        raise InvalidArgument("store: expected a postgresql:// URL")
    try:
        options = conninfo_to_dict(location)
    except psycopg.ProgrammingError:
        raise InvalidArgument("store: the URL does not read as a PostgreSQL connection string") from None
    if not all(part.strip().isdigit() for part in str(options.get("port", "5432")).split(",")):
        raise InvalidArgument(
            "store: the URL does not read as user:password@host/database: percent-encode the password's "
            "special characters (/ as %2F, @ as %40, : as %3A)"
        )
    return {key: str(value) for key, value in options.items()}


def without_password(location: str) -> tuple[str, str | None]:
    """The connection string with its password taken out (wherever it was: the URL's user part or a
    `password=` option; decoded as libpq decodes it), and the password (None when it had none)."""
    options = parsed(location)
    password = options.pop("password", None)
    if password is None:
        return location, None
    return make_conninfo("", **options), password


def is_local(options: dict[str, str]) -> bool:
    """Whether every host libpq may try is this machine (the environment's PGHOST counts when the
    URL names none)."""
    hosts = options.get("host") or os.environ.get("PGHOST", "")
    return all(_is_local(host.strip()) for host in hosts.split(","))


def check_location(location: str) -> None:
    """A clear error for a store memvault will not use: not PostgreSQL, a host it cannot vouch for, or
    another machine without verified TLS. The location is never quoted."""
    options = parsed(location)
    if "hostaddr" in options or "service" in options or os.environ.get("PGHOSTADDR") or os.environ.get("PGSERVICE"):
        raise InvalidArgument("store: name the server by host in the URL (no hostaddr, service or PGHOSTADDR)")
    if not is_local(options) and options.get("sslmode") != "verify-full":
        raise InvalidArgument(
            "store: another machine is reached only over TLS that verifies the server: "
            "add sslmode=verify-full (and sslrootcert=... when its certificate is not signed by a system CA)"
        )


def open_connection(url: str, password: str | None = None) -> Connection:
    """Connect (outside any transaction: every transaction is begun explicitly) and check the server.
    `password`: the store's, from the keyring (the URL memvault keeps has none)."""
    check_location(url)
    # Not this machine: TLS that verifies the server, whatever the environment says (PGSSLMODE).
    options = parsed(url)
    try:  # an option of None is left out: libpq then looks where it always does (~/.pgpass for a password)
        conn = psycopg.connect(
            url,
            autocommit=True,
            row_factory=dict_row,
            password=password,
            sslmode=None if is_local(options) else "verify-full",  # whatever PGSSLMODE says
            connect_timeout=None if "connect_timeout" in options else CONNECT_SECONDS,
        )
    except psycopg.Error as exc:  # the type and libpq's first line: never the connection string
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise StoreUnavailable(f"the PostgreSQL store could not be reached ({reason})") from None
    try:
        check_server(conn)
        conn.execute(f"SET gin_pending_list_limit = '{PENDING_WORDS}'")
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


@contextmanager
def privileges_explained() -> Iterator[None]:
    """Making the schema with a role that lacks what docs/postgresql.md asks for: an error naming the
    fix instead of the server's "permission denied"."""
    try:
        yield
    except psycopg.errors.InsufficientPrivilege as exc:
        if "extension" in str(exc):
            raise StoreUnavailable(
                "the vector extension does not exist in this database and this role may not create it: "
                "a superuser runs `CREATE EXTENSION vector;` in it once (a managed service: enable 'vector')"
            ) from None
        raise StoreUnavailable(
            "this role may not create memvault's tables in this database: the role must own the database "
            "(`createdb --owner ROLE`), or be allowed to create in its schema"
        ) from None
