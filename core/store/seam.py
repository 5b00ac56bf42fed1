"""The seam between memvault and the database engine its store lives on.

Everything that speaks a database dialect (SQL text, the word and trigram indexes, vectors, locking,
purge) lives below this seam, in one package an engine (`core/store/sqlcipher/`, the embedded
default). Above it, retrieval, the writer, the operations and the facade hold a `Store` (one open
connection to a store) and call its repositories (`core/store/repositories.py`); they never know
which engine answers.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Literal, Protocol

from memvault.core.store.repositories import (
    BackupRows,
    ChangeRows,
    ConversationRows,
    DomainRows,
    EventRows,
    ImportRows,
    MaintenanceRows,
    MemoryRows,
    Migrations,
    NeighbourRows,
    OAuthRows,
    PrincipalRows,
    ProposalRows,
    RecordKindRows,
    SearchRows,
    SettingRows,
    ShadowLog,
    StampRows,
    TombstoneChecks,
    TransferRows,
    VectorRows,
    ViewQueries,
    WordIndexRows,
)

TransactionMode = Literal["DEFERRED", "IMMEDIATE", "EXCLUSIVE"]


class Store(Protocol):
    """One open store: its repositories, bound to one connection, and the transactions they run in.

    One thread uses a `Store` at a time (`core/store/context.py` holds the lock).
    """

    memories: MemoryRows
    events: EventRows
    proposals: ProposalRows
    record_kinds: RecordKindRows
    views: ViewQueries
    search: SearchRows
    vectors: VectorRows
    word_index: WordIndexRows
    neighbours: NeighbourRows
    domains: DomainRows
    maintenance: MaintenanceRows
    backups: BackupRows
    tombstones: TombstoneChecks
    migrations: Migrations
    stamps: StampRows
    changes: ChangeRows
    settings: SettingRows
    shadow_log: ShadowLog
    principals: PrincipalRows
    oauth: OAuthRows
    imports: ImportRows
    conversations: ConversationRows
    transfer: TransferRows

    @property
    def engine(self) -> Engine: ...

    @property
    def in_transaction(self) -> bool: ...

    def write_transaction(self) -> AbstractContextManager[Store]:
        """A short write transaction that never upgrades mid-way; `StoreUnavailable` when the store
        stays busy. Commits after the block, rolls back when it raises."""
        ...

    def read_snapshot(self) -> AbstractContextManager[Store]:
        """One consistent snapshot for the whole block (inside a running transaction: that one)."""
        ...

    def transaction(self, mode: TransactionMode = "IMMEDIATE") -> AbstractContextManager[Store]:
        """A transaction taken in `mode` (maintenance, on a store of its own): commit or roll back."""
        ...

    def savepoint(self) -> AbstractContextManager[Callable[[], None]]:
        """A part of the running transaction that can be undone alone: the block gets `undo`."""
        ...

    def begin_exclusive(self) -> None:
        """Hold the store alone until it is closed (a restore's swap)."""
        ...

    def close(self) -> None: ...


class Engine(Protocol):
    """A database engine a store can live on."""

    @property
    def name(self) -> str: ...

    @property
    def latest_schema(self) -> int:
        """The newest schema version this memvault writes on this engine (`Migrations`)."""
        ...

    @property
    def errors(self) -> tuple[type[Exception], ...]:
        """What the engine's driver raises when the store cannot do what was asked (busy, damaged)."""
        ...

    def open(self, location: str | Path, key: bytes, *, create: bool = False, read_only: bool = False) -> Store:
        """Open the store at `location` (a file, a URL: the engine's), creating an empty one with `create`
        where the engine makes stores itself; its schema is upgraded by `migrations`. `read_only`: to
        read it only, changing nothing (not even a file's journal mode: a backup being checked)."""
        ...

    def listen(self, location: str | Path, wake: Callable[[], None]) -> AbstractContextManager[object]:
        """For the block: call `wake` (on another thread; quick, never raising) when another machine
        may have written to the store at `location`. The processes of this machine are heard through
        the change signal."""
        ...

    def is_busy(self, exc: BaseException) -> bool:
        """Whether `exc` (one of `errors`) says another process holds the store: worth trying later."""
        ...
