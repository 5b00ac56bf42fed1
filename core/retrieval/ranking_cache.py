"""The ranking cache: a search's ranking kept per (request, caller, store stamp, embeddings mode).

The stamp is what invalidates: `stamp(stamps)` follows the change feed's cursor (core/operations/changes.py),
which every committed event moves, in any process, so a write anywhere changes every key; and the
newest stored vector, since embeddings are written after their record's commit, without an event.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from memvault.core.store.rows import StoreStamps
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.search_request import SearchRequest

CACHE_ENTRIES = 256
CACHE_SECONDS = 120.0


@dataclass(frozen=True)
class Hit:
    id: str
    score: float
    why: tuple[str, ...]
    tier: str


@dataclass(frozen=True)
class Ranking:
    """The part of a search that depends only on the store, the request and the caller."""

    hits: tuple[Hit, ...]
    domains: tuple[tuple[str, float], ...]
    domain_share: float
    shares: dict[str, float] = field(default_factory=dict)  # the active domains' own token shares
    conflicts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    truncated: bool = False
    held_back: int = 0  # turns said by someone the request does not name, left out (`ranking.hold_back`)
    skipped: str = ""  # the governor's reason when the routed request is not searched (off-topic)


CacheKey = tuple[object, ...]


# The pipeline keys on one number (its vector index and visible totals too): the feed's cursor in
# the high bits, the newest vector's rowid in the low ones.
VECTOR_BITS = 32


def stamp(stamps: StoreStamps) -> int:
    """What a cached ranking is valid for: it changes with every committed write, in any process."""
    return (stamps.cursor << VECTOR_BITS) | (stamps.vectors & ((1 << VECTOR_BITS) - 1))


def cache_key(request: SearchRequest, caller: Caller, version: int, mode: str) -> CacheKey:
    who = (caller.principal, caller.surface.value, caller.workspace_id)
    return (request, who, version, mode)


class RankingCache:
    """A small LRU of rankings; entries also expire, since tiers and recency move with time."""

    def __init__(self, entries: int = CACHE_ENTRIES, seconds: float = CACHE_SECONDS) -> None:
        self._entries = entries
        self._seconds = seconds
        self._data: OrderedDict[CacheKey, tuple[float, Ranking]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: CacheKey) -> Ranking | None:
        with self._lock:
            entry = self._data.get(key)
            if entry is None or time.monotonic() - entry[0] > self._seconds:
                self.misses += 1
                self._data.pop(key, None)
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return entry[1]

    def put(self, key: CacheKey, ranking: Ranking) -> None:
        with self._lock:
            self._data[key] = (time.monotonic(), ranking)
            self._data.move_to_end(key)
            while len(self._data) > self._entries:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
