"""The PostgreSQL engine's `Store`: its repositories (this package's modules) bound to one connection.

Issue 30 builds this engine repository by repository. `BUILT` names the repositories that exist; the
others answer every call with a clear error, and no vault opens a PostgreSQL store until all exist
(`core/store/engines.py` offers only SQLCipher).

Writers take turns across every machine (`WRITE_LOCK`, a transaction-scoped advisory lock), as
SQLite's writers do on one: event ids then commit in order, which the change feed relies on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, NoReturn, cast

from memvault.core.store import repositories as repo
from memvault.core.store.bound import Bound
from memvault.core.store.postgres import (
    change_rows,
    events,
    maintenance_rows,
    memories,
    migrations,
    proposals,
    record_kinds,
    search,
    settings_table,
    store_stamps,
    tombstone_checks,
    vector_rows,
)
from memvault.core.store.postgres.connection import IDLE, Connection, DatabaseError, open_connection
from memvault.core.store.seam import Store, TransactionMode
from memvault.core.vocabulary.errors import StoreUnavailable

WRITE_LOCK = 0x6D656D7772697465  # pg_advisory_xact_lock's key for "writing" ("memwrite")
LOCK_TIMEOUT = "10s"  # as long as the SQLCipher store's busy timeout
BUILT = frozenset(
    {
        "settings",
        "events",
        "changes",
        "proposals",
        "migrations",
        "memories",
        "record_kinds",
        "stamps",
        "vectors",
        "search",
        "maintenance",
        "tombstones",
    }
)


class Unbuilt:
    """A repository this engine does not have yet: every call says so."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, function: str) -> Callable[..., NoReturn]:
        def refuse(*_args: Any, **_kwargs: Any) -> NoReturn:
            raise StoreUnavailable(f"the PostgreSQL store has no {self._name}.{function} yet (issue 30)")

        return refuse


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
        for name in set(Store.__annotations__) - BUILT:
            setattr(self, name, Unbuilt(name))

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
        self.raw.execute(begin)
        try:
            if alone:
                self._take_write_lock()
            yield
        except BaseException:
            self.raw.execute("ROLLBACK")
            raise
        self.raw.execute("COMMIT")

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

    def open(self, location: str | Path, key: bytes, *, create: bool = False) -> PostgresStore:
        """`location`: a postgresql:// URL. `key` and `create` are the SQLCipher engine's concern: a
        database is made by its operator, and memvault's schema by `migrations.migrate`."""
        del key, create
        conn = open_connection(str(location))
        conn.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
        return PostgresStore(conn)

    def is_busy(self, exc: BaseException) -> bool:
        return isinstance(exc, DatabaseError) and getattr(exc, "sqlstate", None) in ("55P03", "40001", "40P01")


ENGINE = PostgresEngine()
