"""The PostgreSQL engine's `Store`: its repositories (this package's modules) bound to one connection.

Writers take turns across every machine (`WRITE_LOCK`, a transaction-scoped advisory lock), as
SQLite's writers do on one: event ids then commit in order, which the change feed relies on. A write
that records an event notifies every machine listening, at its commit (schema 1's `events_notify`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import cast

from memvault.core.store import repositories as repo
from memvault.core.store.bound import Bound
from memvault.core.store.postgres import (
    backup_rows,
    change_rows,
    conversation_rows,
    credentials,
    domain_rows,
    events,
    import_rows,
    maintenance_rows,
    memories,
    migrations,
    neighbour_rows,
    oauth_rows,
    principals,
    proposals,
    record_kinds,
    search,
    settings_table,
    shadow_log,
    store_stamps,
    tombstone_checks,
    transfer_rows,
    vector_rows,
    view_queries,
    word_index_rows,
)
from memvault.core.store.postgres.connection import IDLE, Connection, DatabaseError, open_connection
from memvault.core.store.postgres.listen import Listening
from memvault.core.store.seam import Store, TransactionMode
from memvault.core.vocabulary.errors import StoreUnavailable

WRITE_LOCK = 0x6D656D7772697465  # pg_advisory_xact_lock's key for "writing" ("memwrite")
LOCK_TIMEOUT = "10s"  # as long as the SQLCipher store's busy timeout


class PostgresStore:
    """One open PostgreSQL store (`Store`): one connection, its repositories bound to it."""

    def __init__(self, conn: Connection) -> None:
        self.raw = conn
        self.settings = cast(repo.SettingRows, Bound(settings_table, conn, repo.SettingRows))
        self.events = cast(repo.EventRows, Bound(events, conn, repo.EventRows))
        self.changes = cast(repo.ChangeRows, Bound(change_rows, conn, repo.ChangeRows))
        self.proposals = cast(repo.ProposalRows, Bound(proposals, conn, repo.ProposalRows))
        self.migrations = cast(repo.Migrations, Bound(migrations, conn, repo.Migrations))
        self.memories = cast(repo.MemoryRows, Bound(memories, conn, repo.MemoryRows))
        self.record_kinds = cast(repo.RecordKindRows, Bound(record_kinds, conn, repo.RecordKindRows))
        self.stamps = cast(repo.StampRows, Bound(store_stamps, conn, repo.StampRows))
        self.vectors = cast(repo.VectorRows, Bound(vector_rows, conn, repo.VectorRows))
        self.search = cast(repo.SearchRows, Bound(search, conn, repo.SearchRows))
        self.maintenance = cast(repo.MaintenanceRows, Bound(maintenance_rows, conn, repo.MaintenanceRows))
        self.tombstones = cast(repo.TombstoneChecks, Bound(tombstone_checks, conn, repo.TombstoneChecks))
        self.imports = cast(repo.ImportRows, Bound(import_rows, conn, repo.ImportRows))
        self.conversations = cast(repo.ConversationRows, Bound(conversation_rows, conn, repo.ConversationRows))
        self.word_index = cast(repo.WordIndexRows, Bound(word_index_rows, conn, repo.WordIndexRows))
        self.principals = cast(repo.PrincipalRows, Bound(principals, conn, repo.PrincipalRows))
        self.oauth = cast(repo.OAuthRows, Bound(oauth_rows, conn, repo.OAuthRows))
        self.backups = cast(repo.BackupRows, Bound(backup_rows, conn, repo.BackupRows))
        self.domains = cast(repo.DomainRows, Bound(domain_rows, conn, repo.DomainRows))
        self.views = cast(repo.ViewQueries, Bound(view_queries, conn, repo.ViewQueries))
        self.neighbours = cast(repo.NeighbourRows, Bound(neighbour_rows, conn, repo.NeighbourRows))
        self.shadow_log = cast(repo.ShadowLog, Bound(shadow_log, conn, repo.ShadowLog))
        self.transfer = cast(repo.TransferRows, Bound(transfer_rows, conn, repo.TransferRows))

    @property
    def engine(self) -> PostgresEngine:
        return ENGINE

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != IDLE

    @contextmanager
    def write_transaction(self) -> Iterator[Store]:
        with self._transaction("BEGIN", alone=True):
            yield cast(Store, self)

    @contextmanager
    def read_snapshot(self) -> Iterator[Store]:
        if self.in_transaction:
            yield cast(Store, self)
            return
        with self._transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", alone=False):
            yield cast(Store, self)

    @contextmanager
    def transaction(self, mode: TransactionMode = "IMMEDIATE") -> Iterator[Store]:
        with self._transaction("BEGIN", alone=mode != "DEFERRED"):
            yield cast(Store, self)

    def savepoint(self) -> AbstractContextManager[Callable[[], None]]:
        return self._savepoint()

    @contextmanager
    def _savepoint(self) -> Iterator[Callable[[], None]]:
        self.raw.execute("SAVEPOINT part")

        def undo() -> None:
            self.raw.execute("ROLLBACK TO SAVEPOINT part")

        yield undo
        self.raw.execute("RELEASE SAVEPOINT part")

    def begin_exclusive(self) -> None:
        self.raw.execute("BEGIN")
        self._take_write_lock()

    def close(self) -> None:
        self.raw.close()

    @contextmanager
    def _transaction(self, begin: str, *, alone: bool) -> Iterator[None]:
        if self.in_transaction:  # PostgreSQL would only warn, and the inner COMMIT end the outer one
            raise RuntimeError("a transaction inside a transaction")
        if alone:
            self._begin_writing(begin)
        else:
            self.raw.execute(begin)
        try:
            yield
        except BaseException:
            self.raw.execute("ROLLBACK")
            raise
        self.raw.execute("COMMIT")

    def _begin_writing(self, begin: str) -> None:
        """`begin` and the write lock in one round trip (one simple query, never prepared)."""
        try:
            self.raw.execute(f"{begin}; SELECT pg_advisory_xact_lock({WRITE_LOCK})", prepare=False)
        except DatabaseError as exc:
            if not self.in_transaction:  # BEGIN itself failed: the connection's error, as before
                raise
            self.raw.execute("ROLLBACK")
            raise StoreUnavailable(f"the store is busy or unwritable ({type(exc).__name__})") from None

    def _take_write_lock(self) -> None:
        try:
            self.raw.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        except DatabaseError as exc:
            raise StoreUnavailable(f"the store is busy or unwritable ({type(exc).__name__})") from None


class PostgresEngine:
    """A store in a PostgreSQL database with pgvector, shared by several machines."""

    name = "postgresql"
    latest_schema = migrations.LATEST
    errors: tuple[type[Exception], ...] = (DatabaseError,)

    def open(
        self,
        location: str | Path,
        key: bytes,
        *,
        create: bool = False,
        read_only: bool = False,
        password: str | None = None,
    ) -> PostgresStore:
        """`location`: a postgresql:// URL without its password, which comes from the keyring (or
        `password`, when a home is joining). `key` and `create` are the SQLCipher engine's concern: a
        database is made by its operator, memvault's schema by `migrations.migrate`. `read_only`: every
        transaction of the session is read-only."""
        del key, create
        url = str(location)
        conn = open_connection(url, password or credentials.password_for(url))
        conn.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
        if read_only:
            conn.execute("SET default_transaction_read_only = on")
        return PostgresStore(conn)

    def listen(self, location: str | Path, wake: Callable[[], None]) -> AbstractContextManager[object]:
        """Call `wake` whenever any machine commits a write to the store."""
        return Listening(str(location), wake)

    def is_busy(self, exc: BaseException) -> bool:
        return isinstance(exc, DatabaseError) and getattr(exc, "sqlstate", None) in ("55P03", "40001", "40P01")


ENGINE = PostgresEngine()
