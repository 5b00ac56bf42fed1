"""What every core operation works with: the open store, the clock, the folders, the settings."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from memvault.core.runtime import change_signal
from memvault.core.runtime.heap import release_freed_memory
from memvault.core.runtime.paths import VaultPaths
from memvault.core.runtime.settings import setting
from memvault.core.security.kill_switch import Positions
from memvault.core.store import engines, later_writes
from memvault.core.store.later_writes import LaterWrites, Write
from memvault.core.store.seam import Store
from memvault.core.vocabulary.clock import Clock, format_time
from memvault.core.vocabulary.errors import MemvaultError

log = logging.getLogger("memvault.store")


@dataclass
class Context:
    store: Store
    paths: VaultPaths
    clock: Clock
    # One writer per connection: the engine serialises writers anyway; this keeps threads polite.
    lock: threading.RLock = field(default_factory=threading.RLock)
    # The store key, for a second connection (`Vault.for_upkeep`); the engine holds it in this
    # process's memory for `store` anyway. Never logged, never shown.
    key: bytes = field(default=b"", repr=False)
    # Writes queued to follow an answer (`later`): written before the next use of `store`.
    queued: LaterWrites = field(default_factory=LaterWrites, repr=False)
    _renew: bool = field(default=False, init=False, repr=False)  # `renew_connection` asked inside a snapshot

    def now(self) -> str:
        return format_time(self.clock.now())

    @contextmanager
    def transaction(self) -> Iterator[Store]:
        """A short write transaction (one writer per process; the engine serialises processes).

        When it wrote events, the change signal tells other processes after the commit.
        """
        with self.lock:
            self._write_queued()
            with self.store.write_transaction() as store:
                before = store.changes.cursor()
                yield store
                after = store.changes.cursor()
            self._renew_if_asked()
            if after != before:
                change_signal.notify(self.paths, after)

    @contextmanager
    def reading(self) -> Iterator[Store]:
        """A consistent read: one snapshot for the whole operation."""
        with self.lock:
            self._write_queued()
            with self.store.read_snapshot() as store:
                yield store
            self._renew_if_asked()

    @contextmanager
    def holding(self) -> Iterator[Store]:
        """The store itself, for work outside a snapshot or a transaction (a backup's copy,
        closing the store), with the queued writes written first."""
        with self.lock:
            self._write_queued()
            yield self.store

    def renew_connection(self) -> None:
        """Open the store on a new connection and close this one (after a purge: what a connection
        keeps of the text it read and wrote goes with it: its cached statements, which hold their
        last bound values, its page cache of decrypted pages, its temp tables). Now, or, inside a
        snapshot or a transaction, as it ends."""
        with self.lock:
            self._renew = True
            self._renew_if_asked()

    def _renew_if_asked(self) -> None:
        if not self._renew or self.store.in_transaction:
            return
        self._renew = False
        failures: tuple[type[Exception], ...] = (MemvaultError, *self.store.engine.errors)
        try:
            fresh = engines.open_store(self.paths, self.key)
        except failures as exc:  # the store moved or is busy: keep serving on this one
            log.warning("the store's connection was not opened anew after a purge (%s)", type(exc).__name__)
            return
        stale, self.store = self.store, fresh
        stale.close()
        release_freed_memory()

    def later(self, write: Write, records: int) -> None:
        """Queue a write that need not hold up the answer it follows (a search's usage, touching
        `records` records): a thread writes it soon (under a `later_writes.Hold`, once released),
        and the next use of the store first."""
        if self.queued.add(write, records):
            later_writes.start(self.write_queued)

    def write_queued(self) -> None:
        with self.lock:
            self._write_queued()

    def _write_queued(self) -> None:
        # Inside a transaction (a read nested in a write) the queue was written when it began.
        if self.queued and not self.store.in_transaction:
            self.queued.write_all(self.store)

    def setting(self, name: str) -> Any:
        declared = setting(name)
        from_env = declared.from_env()
        if from_env is not None:  # the store is not read
            return from_env
        with self.lock:
            return declared.value(self.store.settings.read(name))

    def kill_switch(self) -> Positions:
        """The kill switch's positions as they are now: this machine's and the store's (the stronger
        is in force). Every check reads them afresh."""
        return Positions.read(self.paths, self.setting("kill_switch"))

    def settings(self) -> Callable[[str], Any]:
        """Every setting as stored now, read at once: `setting` for an operation that asks for many
        (a search reads ~20; in a snapshot, the values of that snapshot)."""
        with self.lock:
            stored = self.store.settings.read_all()
        return lambda name: setting(name).value(stored.get(name))
