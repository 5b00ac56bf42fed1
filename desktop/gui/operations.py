"""`Operations`: how every window reaches the `Vault`, off the GUI thread.

Work runs on one worker thread (the store serialises writers anyway); its answer comes back on the
GUI thread. After a write, `changed` carries a `Changes` value (the change feed's kinds,
`ChangeKind`, and ids) so each view decides whether to redraw; writes made by other processes
arrive the same way (see `live.py`).
"""

from __future__ import annotations

import itertools
import logging
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal, Slot

from memvault.core.operations.changes import ChangeBatch, ChangeKind
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import OWNER, Caller

log = logging.getLogger("memvault.gui")

T = TypeVar("T")


@dataclass(frozen=True)
class Changes:
    """What a write touched: the kinds of change (the change feed's `ChangeKind`) and ids, when known.

    `everything=True` means "unknown: refresh whatever you show" (e.g. after a restore).
    """

    kinds: frozenset[ChangeKind] = frozenset()
    ids: frozenset[str] = frozenset()
    everything: bool = False

    @classmethod
    def of(cls, kinds: Iterable[ChangeKind] = (), ids: Iterable[str] = ()) -> Changes:
        return cls(frozenset(kinds), frozenset(i for i in ids if i))

    @classmethod
    def all(cls) -> Changes:
        return cls(everything=True)

    def touches(self, *kinds: ChangeKind) -> bool:
        """True when any of `kinds` changed (or anything may have)."""
        return self.everything or not self.kinds.isdisjoint(kinds)

    def merged(self, other: Changes) -> Changes:
        return Changes(self.kinds | other.kinds, self.ids | other.ids, self.everything or other.everything)


@dataclass
class _Errand:
    """A piece of work and what to do with its answer. It lives on the GUI thread only: if the worker
    dropped the last reference to a callback's view, Python would destroy that widget on the worker
    thread, leaving its timers registered for the GUI thread (a segfault at their next tick)."""

    work: Callable[[Vault], Any] = field(repr=False)
    done: Callable[[Any], None] = field(repr=False)
    failed: Callable[[MemvaultError], None] | None = field(repr=False)
    writes: bool
    changes: Changes | None


class Operations(QObject):
    """Runs store work off the GUI thread; `changed` tells views what a write touched."""

    changed = Signal(object)  # a `Changes`, emitted on the GUI thread
    failed_unexpectedly = Signal(str)  # a bug's short description (no memory text), for the window to show
    _deliver = Signal(int, object)  # internal: an errand's ticket and its future, from the worker to the GUI thread

    def __init__(self, vault: Vault, caller: Caller = OWNER, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.vault = vault
        self.caller = caller
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memvault-gui-worker")
        self._errands: dict[int, _Errand] = {}
        self._tickets = itertools.count()
        self._closed = False
        self._deliver.connect(self._on_delivery)

    @property
    def busy(self) -> bool:
        """True while work submitted through `run` has not come back yet."""
        return bool(self._errands)

    def run(
        self,
        work: Callable[[Vault], T],
        done: Callable[[T], None],
        failed: Callable[[MemvaultError], None] | None = None,
        *,
        writes: bool = False,
        changes: Changes | None = None,
    ) -> None:
        """Run `work(vault)` on the worker; then `done(result)` or `failed(error)` on the GUI thread.

        With `writes=True`, `changed` is emitted after a successful write with `changes` (default:
        what the change feed recorded between the work's start and end).
        """
        if self._closed:
            return  # the app is quitting: the store is closing
        ticket = next(self._tickets)
        self._errands[ticket] = _Errand(work, done, failed, writes, changes)
        future = self._pool.submit(self._call, ticket)
        # The worker's side holds only the ticket and the future, never a callback (see `_Errand`).
        future.add_done_callback(lambda f: self._deliver.emit(ticket, f))

    def _call(self, ticket: int) -> tuple[Any, Changes | None]:
        """The work's answer, and for a write what it changed: as told, or as the change feed names it
        (the store's own account of its writes: the kinds and ids of the events the write recorded)."""
        errand = self._errands[ticket]
        vault = self.vault  # looked up when the work runs: a restore swaps it for the work queued after it
        if not errand.writes or errand.changes is not None:
            return errand.work(vault), errand.changes
        before = self._cursor(vault)
        result = errand.work(vault)
        if before is None:
            return result, Changes.all()
        try:
            batch = vault.changes_since(self.caller, before)
        except Exception:  # the write is done; what it changed is unknown, not a failure
            return result, Changes.all()
        return result, Changes.all() if batch.more else changes_of(batch)

    def _cursor(self, vault: Vault) -> int | None:
        """The change feed's cursor before a write; None when it cannot be read (the write still runs)."""
        try:
            return vault.changes_since(self.caller, None).cursor
        except Exception:  # a busy store or a refusal is the write's to report
            return None

    def shutdown(self) -> None:
        """Wait for work in flight, then stop the worker (call before closing the vault); answers still
        on their way to the GUI thread are dropped."""
        self._closed = True
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._errands.clear()  # their callbacks hold views: released here, on the GUI thread

    def announce(self, changes: Changes) -> None:
        """Tell every view about a change (used by the live feed for other processes' writes)."""
        self.changed.emit(changes)

    @Slot(int, object)
    def _on_delivery(self, ticket: int, future: Future[Any]) -> None:
        errand = self._errands.pop(ticket, None)
        if errand is None or self._closed or future.cancelled():
            return
        error = future.exception()
        if error is None:
            result, changes = future.result()
            _answer(errand.done, result)
            if errand.writes:
                self.changed.emit(changes)
            return
        try:
            self._report(errand, error)
        finally:
            error.__traceback__ = None  # its frames may hold a view: let them go here, not on the worker

    def _report(self, errand: _Errand, error: BaseException) -> None:
        if isinstance(error, MemvaultError):
            if errand.failed is not None:
                _answer(errand.failed, error)
            else:
                self.failed_unexpectedly.emit(f"{error.code}: {error.message}")
            return
        # A bug: type and frames only, never the message (it could quote memory text).
        frames = "".join(traceback.format_tb(error.__traceback__))
        log.error("gui: unexpected %s in background work\n%s", type(error).__name__, frames)
        self.failed_unexpectedly.emit(f"Internal error ({type(error).__name__}). This is a bug; see the log.")


def _answer(callback: Callable[[Any], None], value: Any) -> None:
    """Hand an answer to its view; a view closed meanwhile (its Qt object gone) no longer wants it."""
    try:
        callback(value)
    except RuntimeError as exc:
        if "already deleted" not in str(exc):
            raise
        log.debug("gui: an answer arrived for a closed view; dropped")


# Kinds that refresh every view: a restored store, a kind this build does not know, and a record's
# new scope (no view has a narrower refresh for it).
RELOADS = frozenset({ChangeKind.STORE_RESTORED, ChangeKind.OTHER, ChangeKind.MEMORY_RESCOPED})


def changes_of(batch: ChangeBatch) -> Changes:
    """What a batch of the feed touched: its kinds and ids; a reset or a kind in RELOADS means everything."""
    if batch.reset:
        return Changes.all()
    ids: list[str] = []
    for change in batch.changes:
        if change.kind in RELOADS:
            return Changes.all()
        ids += [*change.memory_ids, *([change.proposal_id] if change.proposal_id else [])]
    return Changes.of((change.kind for change in batch.changes), ids)
