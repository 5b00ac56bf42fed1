"""What every core operation works with: the open store, the clock, the folders, the settings."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from memvault.core import change_signal
from memvault.core.clock import Clock, format_time
from memvault.core.paths import VaultPaths
from memvault.core.settings import setting
from memvault.core.store import change_rows, settings_table
from memvault.core.store.connection import Connection, read_snapshot, write_transaction


@dataclass
class Context:
    conn: Connection
    paths: VaultPaths
    clock: Clock
    # One writer per connection: SQLite serialises writers anyway; this keeps threads polite.
    lock: threading.RLock = field(default_factory=threading.RLock)
    # The store key, for a second connection (`Vault.for_upkeep`); SQLCipher holds it in this
    # process's memory for `conn` anyway. Never logged, never shown.
    key: bytes = field(default=b"", repr=False)

    def now(self) -> str:
        return format_time(self.clock.now())

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A short write transaction (one writer per process; SQLite serialises processes).

        When it wrote events, the change signal tells other processes after the commit.
        """
        with self.lock:
            with write_transaction(self.conn) as conn:
                before = change_rows.cursor(conn)
                yield conn
                after = change_rows.cursor(conn)
            if after != before:
                change_signal.notify(self.paths, after)

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A consistent read: one snapshot for the whole operation."""
        with self.lock, read_snapshot(self.conn) as conn:
            yield conn

    def setting(self, name: str) -> Any:
        declared = setting(name)
        from_env = declared.from_env()
        if from_env is not None:  # the store is not read
            return from_env
        with self.lock:
            return declared.value(settings_table.read(self.conn, name))

    def settings(self) -> Callable[[str], Any]:
        """Every setting as stored now, read at once: `setting` for an operation that asks for many
        (a search reads ~20; in a snapshot, the values of that snapshot)."""
        with self.lock:
            stored = settings_table.read_all(self.conn)
        return lambda name: setting(name).value(stored.get(name))
