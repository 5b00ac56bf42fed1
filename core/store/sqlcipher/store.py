"""The SQLCipher engine's `Store`: its repositories (this package's modules, each a set of functions
of the connection) bound to one connection (`core/store/bound.py`). `tests/store/test_seam.py` holds
every module to its repository's signatures (`core/store/repositories.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import cast

from memvault.core.store import repositories as repo
from memvault.core.store.bound import Bound
from memvault.core.store.seam import Store, TransactionMode
from memvault.core.store.sqlcipher import (
    backup_rows,
    change_rows,
    conversation_rows,
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
    transactions,
    transfer_rows,
    vector_rows,
    view_queries,
    word_index_rows,
)
from memvault.core.store.sqlcipher.connection import (
    Connection,
    DatabaseError,
    open_connection,
    open_read_only,
    read_snapshot,
    savepoint,
    write_transaction,
)


class SQLCipherStore:
    """One open SQLCipher store (`Store`): one connection, its repositories bound to it."""

    def __init__(self, conn: Connection) -> None:
        self.raw = conn  # the driver's connection: for this package, and for tests of this engine
        self.memories = cast(repo.MemoryRows, Bound(memories, conn, repo.MemoryRows))
        self.events = cast(repo.EventRows, Bound(events, conn, repo.EventRows))
        self.proposals = cast(repo.ProposalRows, Bound(proposals, conn, repo.ProposalRows))
        self.record_kinds = cast(repo.RecordKindRows, Bound(record_kinds, conn, repo.RecordKindRows))
        self.views = cast(repo.ViewQueries, Bound(view_queries, conn, repo.ViewQueries))
        self.search = cast(repo.SearchRows, Bound(search, conn, repo.SearchRows))
        self.vectors = cast(repo.VectorRows, Bound(vector_rows, conn, repo.VectorRows))
        self.word_index = cast(repo.WordIndexRows, Bound(word_index_rows, conn, repo.WordIndexRows))
        self.neighbours = cast(repo.NeighbourRows, Bound(neighbour_rows, conn, repo.NeighbourRows))
        self.domains = cast(repo.DomainRows, Bound(domain_rows, conn, repo.DomainRows))
        self.maintenance = cast(repo.MaintenanceRows, Bound(maintenance_rows, conn, repo.MaintenanceRows))
        self.backups = cast(repo.BackupRows, Bound(backup_rows, conn, repo.BackupRows))
        self.tombstones = cast(repo.TombstoneChecks, Bound(tombstone_checks, conn, repo.TombstoneChecks))
        self.migrations = cast(repo.Migrations, Bound(migrations, conn, repo.Migrations))
        self.stamps = cast(repo.StampRows, Bound(store_stamps, conn, repo.StampRows))
        self.changes = cast(repo.ChangeRows, Bound(change_rows, conn, repo.ChangeRows))
        self.settings = cast(repo.SettingRows, Bound(settings_table, conn, repo.SettingRows))
        self.shadow_log = cast(repo.ShadowLog, Bound(shadow_log, conn, repo.ShadowLog))
        self.principals = cast(repo.PrincipalRows, Bound(principals, conn, repo.PrincipalRows))
        self.oauth = cast(repo.OAuthRows, Bound(oauth_rows, conn, repo.OAuthRows))
        self.imports = cast(repo.ImportRows, Bound(import_rows, conn, repo.ImportRows))
        self.conversations = cast(repo.ConversationRows, Bound(conversation_rows, conn, repo.ConversationRows))
        self.transfer = cast(repo.TransferRows, Bound(transfer_rows, conn, repo.TransferRows))

    @property
    def engine(self) -> SQLCipherEngine:
        return ENGINE

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    @contextmanager
    def write_transaction(self) -> Iterator[Store]:
        with write_transaction(self.raw):
            yield self

    @contextmanager
    def read_snapshot(self) -> Iterator[Store]:
        with read_snapshot(self.raw):
            yield self

    @contextmanager
    def transaction(self, mode: TransactionMode = "IMMEDIATE") -> Iterator[Store]:
        with transactions.transaction(self.raw, mode):
            yield self

    def savepoint(self) -> AbstractContextManager[Callable[[], None]]:
        return savepoint(self.raw)

    def begin_exclusive(self) -> None:
        transactions.begin_exclusive(self.raw)

    def close(self) -> None:
        self.raw.close()


class SQLCipherEngine:
    """The embedded default: one encrypted SQLite file (SQLCipher) on this machine."""

    name = "sqlcipher"
    latest_schema = migrations.LATEST
    errors: tuple[type[Exception], ...] = (DatabaseError,)

    def open(
        self, location: str | Path, key: bytes, *, create: bool = False, read_only: bool = False
    ) -> SQLCipherStore:
        if read_only:
            return SQLCipherStore(open_read_only(Path(location), key))
        return SQLCipherStore(open_connection(Path(location), key, create=create))

    def listen(self, location: str | Path, wake: Callable[[], None]) -> AbstractContextManager[object]:
        """Nothing to add: a store file is written by this machine's processes, which the change
        signal (core/runtime/change_signal.py) already covers."""
        return nullcontext()

    def is_busy(self, exc: BaseException) -> bool:
        return maintenance_rows.is_busy(exc)


ENGINE = SQLCipherEngine()
