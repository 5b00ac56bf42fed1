"""Writes that follow an answer without holding it up: a search's usage counters and log row.

A long-lived server answers a search first and queues these (`Context.later`); a thread of their
own writes them soon after, and whatever uses the store next through the same `Context` (a read,
a write, a backup, closing it) writes what is still queued before it starts. So nothing in this
process reads the store as if the search had not happened, and the next search ranks with its
usage. Short-lived callers (the CLI) write inline, as before. A server that writes answers itself
(`mcp_bridge.tool_lane`) holds the thread back until the answer is written (`Hold`): the write then
runs while the client reads the answer instead of competing with the answer's last steps for the
interpreter.

A queued write that fails is kept for one more try at the store's next use; failing again, it is
dropped and logged as lost, by count only.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from memvault.core.store.seam import Store

log = logging.getLogger("memvault.usage")

Write = Callable[[Store], None]


@dataclass(slots=True)
class Queued:
    write: Write
    records: int  # how many records it touches: what a failure reports
    tried: bool = False


class LaterWrites:
    """The writes queued on one store, written together in one transaction."""

    def __init__(self) -> None:
        self._queued: list[Queued] = []
        self._guard = threading.Lock()  # `add` runs without the store's lock

    def __bool__(self) -> bool:
        return bool(self._queued)

    def add(self, write: Write, records: int) -> bool:
        """Queue `write`; True when the queue was empty (a job for the thread is then needed)."""
        with self._guard:
            self._queued.append(Queued(write, records))
            return len(self._queued) == 1

    def write_all(self, store: Store) -> None:
        """Write everything queued (the caller holds the store's lock, outside any transaction)."""
        with self._guard:
            taken, self._queued = self._queued, []
        if not taken:
            return
        try:
            with store.write_transaction() as writing:
                for queued in taken:
                    queued.write(writing)
        except Exception as exc:  # a busy or closed store, a full disk: whatever it was, nothing is dropped unsaid
            self._failed(taken, type(exc).__name__)

    def give_up(self) -> None:
        """The store closes: whatever is still queued is lost, and logged so."""
        with self._guard:
            lost, self._queued = self._queued, []
        for queued in lost:
            queued.tried = True
        self._failed(lost, "the store closed")

    def _failed(self, taken: list[Queued], reason: str) -> None:
        lost = [q for q in taken if q.tried]
        again = [q for q in taken if not q.tried]
        for queued in again:
            queued.tried = True
        with self._guard:
            self._queued[:0] = again
        if again:
            count, records = len(again), sum(q.records for q in again)
            log.warning(
                "usage of %d searches (%d records) not written (%s): tried again at the next use",
                count,
                records,
                reason,
            )
        if lost:
            log.error("usage of %d searches (%d records) lost (%s)", len(lost), sum(q.records for q in lost), reason)


@functools.cache
def writer_thread() -> ThreadPoolExecutor:
    """One thread per process writes the queues of every open store (its thread starts at the first submit)."""
    return ThreadPoolExecutor(1, thread_name_prefix="memvault-later-writes")


class Hold:
    """Writer jobs started while this hold is on (`holding`) wait for `release`."""

    def __init__(self) -> None:
        self._waiting: list[Callable[[], None]] = []
        self._guard = threading.Lock()  # jobs are started on worker threads, released on the loop's

    def wait(self, job: Callable[[], None]) -> None:
        with self._guard:
            self._waiting.append(job)

    def release(self) -> None:
        with self._guard:
            jobs, self._waiting = self._waiting, []
        for job in jobs:
            writer_thread().submit(job)


_HOLD: ContextVar[Hold | None] = ContextVar("memvault_later_writes_hold", default=None)


@contextmanager
def holding(hold: Hold) -> Iterator[None]:
    """Within (and in worker threads started within, which copy the context): writer jobs wait for
    `hold.release()`."""
    token = _HOLD.set(hold)
    try:
        yield
    finally:
        _HOLD.reset(token)


def start(job: Callable[[], None]) -> None:
    """Run `job` on the writer thread: now, or when the hold in force is released."""
    hold = _HOLD.get()
    if hold is None:
        writer_thread().submit(job)
    else:
        hold.wait(job)
