"""The one place that opens the store: key, cipher settings and pragmas.

Everything else asks this module for a connection; nothing else imports the driver.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import sqlcipher3
from sqlcipher3 import dbapi2

from memvault.core.vocabulary.errors import StoreUnavailable, WrongPassphrase

log = logging.getLogger("memvault.store")

if TYPE_CHECKING:  # sqlcipher3 ships no type hints; its API is the standard library's sqlite3
    from sqlite3 import Connection as Connection
    from sqlite3 import DatabaseError as DatabaseError
    from sqlite3 import IntegrityError as IntegrityError
    from sqlite3 import OperationalError as OperationalError
    from sqlite3 import complete_statement as complete_statement
else:
    Connection = dbapi2.Connection
    DatabaseError = dbapi2.DatabaseError
    IntegrityError = dbapi2.IntegrityError
    OperationalError = dbapi2.OperationalError
    complete_statement = dbapi2.complete_statement

BUSY_TIMEOUT_MS = 10_000
PLAINTEXT_HEADER = b"SQLite format 3\x00"


def _apply_key(conn: Connection, key: bytes) -> None:
    # Silence SQLCipher's own stderr lines on a wrong key; we raise a clear error instead.
    # Each answer is read to its end (as every pragma's in `open_connection`: see there).
    conn.execute("PRAGMA cipher_log_level = NONE").fetchall()
    # A raw 32-byte key skips SQLCipher's KDF: the key is already random.
    conn.execute(f"PRAGMA key = \"x'{key.hex()}'\"").fetchall()


def open_connection(path: Path, key: bytes, *, create: bool = False) -> Connection:
    """Open (or create) the encrypted store with every pragma memvault relies on."""
    if len(key) != 32:
        raise StoreUnavailable("the store key has the wrong length")
    if not create and not path.exists():
        raise StoreUnavailable(f"no store at {path}: run `memvault init` first")
    if create and not path.exists():
        # Create the file private to the user before SQLite writes a byte into it.
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    conn: Connection = sqlcipher3.connect(
        str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    try:
        _apply_key(conn, key)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except DatabaseError:
        conn.close()
        raise WrongPassphrase(
            "the store could not be decrypted with this key (wrong passphrase or not a memvault store)"
        ) from None
    for pragma in (
        "PRAGMA journal_mode = WAL",
        "PRAGMA synchronous = NORMAL",
        "PRAGMA foreign_keys = ON",
        f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
        "PRAGMA secure_delete = ON",
        "PRAGMA temp_store = MEMORY",
        # Temp holds scratch tables of memory text (`word_index_rows.tokenized`), in this process's
        # memory: what they delete is zeroed too (the setting above leaves temp out).
        "PRAGMA temp.secure_delete = ON",
    ):
        conn.execute(pragma).fetchall()  # each answer read to its end: no statement is left pending
    # Switching a file from rollback-journal mode to WAL (above) leaves the connection's read of the
    # file open until a statement next reads it: the next checkpoint or journal-mode change would
    # fail ("database table is locked") as if another process held the file. One read closes it.
    conn.execute("PRAGMA user_version").fetchall()
    conn.row_factory = dbapi2.Row
    return conn


def open_read_only(path: Path, key: bytes) -> Connection:
    """Open an encrypted file to read it only (a `mode=ro` URI, `query_only`): not a byte of it changes,
    not its journal mode (a backup's recorded sha256 stays true). A file in WAL mode may not open so."""
    if len(key) != 32:
        raise StoreUnavailable("the store key has the wrong length")
    if not path.is_file():
        raise StoreUnavailable(f"no store at {path}")
    conn: Connection = sqlcipher3.connect(
        f"{path.resolve().as_uri()}?mode=ro",
        uri=True,
        timeout=BUSY_TIMEOUT_MS / 1000,
        isolation_level=None,
        check_same_thread=False,
    )
    try:
        _apply_key(conn, key)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except DatabaseError as exc:
        conn.close()
        if "not a database" not in str(exc):  # could not be read so (locked, WAL without its files): not a verdict
            raise
        raise WrongPassphrase(
            "the file could not be decrypted with this key (another key, or not a memvault store)"
        ) from None
    for pragma in (f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}", "PRAGMA temp_store = MEMORY", "PRAGMA query_only = ON"):
        conn.execute(pragma).fetchall()
    conn.row_factory = dbapi2.Row
    return conn


def is_encrypted_file(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(len(PLAINTEXT_HEADER)) != PLAINTEXT_HEADER


@contextmanager
def write_transaction(conn: Connection) -> Iterator[Connection]:
    """A short write transaction, taken with BEGIN IMMEDIATE so it never upgrades mid-way."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except OperationalError as exc:
        raise StoreUnavailable(f"the store is busy or unwritable ({exc})") from None
    with until_commit(conn):
        yield conn


@contextmanager
def until_commit(conn: Connection) -> Iterator[Connection]:
    """Ends the transaction the caller began: COMMIT after the block, ROLLBACK when it raises."""
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextmanager
def savepoint(conn: Connection) -> Iterator[Callable[[], None]]:
    """A part of the running transaction that can be undone alone: the block gets `undo`, which rolls
    back what the block wrote so far (the transaction goes on). Should the block raise, the
    transaction's own ROLLBACK undoes everything."""
    conn.execute("SAVEPOINT part")

    def undo() -> None:
        conn.execute("ROLLBACK TO part")

    yield undo
    conn.execute("RELEASE part")


@contextmanager
def read_snapshot(conn: Connection) -> Iterator[Connection]:
    """A consistent read: one snapshot for the whole operation (inside a running transaction: that one)."""
    if conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        conn.execute("COMMIT")
