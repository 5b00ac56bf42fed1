"""The word index's postings, held in memory and ranked with FTS5's own bm25, to the bit.

FTS5 ranks an OR query by calling its bm25 function on every match, ~2 µs a match: ~5 ms for the
~2,600 matches of a request at 10k records, 25-45 ms at 100k. The same sums over arrays of
postings cost a fraction of that. The answer is FTS5's: the same rows, the same scores (the same
floating-point operations in the same order), the same order (ties by rowid); tests hold it to
FTS5's own ranking. What it cannot answer that way (a term FTS5 would split or fold, such as
non-ASCII text) it leaves to FTS5.

What is held: each term's records (rowids) with the term's count in each column, read from the
index itself (fts5vocab), so the tokens are FTS5's. Records written since are tokenized by FTS5
too, in a scratch table of the connection's; their sizes are checked against the index's, and
anything unexpected (a purge, a rowid reused, a size that differs) loads the whole again.
Rows and tokens in all (bm25's N and average length) are read from the index at every refresh.
These are words of memory text: a purge empties them (`text_caches`).
"""

from __future__ import annotations

import functools
import logging
import math
import re
import threading
import weakref
from bisect import bisect_left, insort
from collections.abc import Callable, Sequence
from typing import Any

from memvault.core.runtime import text_caches
from memvault.core.runtime.heap import release_freed_memory
from memvault.core.store.rows import MAX_POSTED_ROWID
from memvault.core.store.seam import Store

log = logging.getLogger("memvault.retrieval")

K1 = 1.2  # FTS5's bm25 constants
B = 0.75
# A term FTS5's tokenizer keeps whole and unchanged: ASCII letters and digits, lower case.
SIMPLE_TERM = re.compile(r"[a-z0-9]+")
FIELD_BITS = 16  # a packed posting: one field of counts a column (`WordIndexRows.postings`)
SMALL_COUNT = 8  # counts below this in every column: weighted counts from a table
MERGE_AT = 4096  # postings written since the load kept aside until then, then merged in
# Records written since a refresh are tokenized in the scratch table, up to this many or a tenth of
# the records held, whichever is more; more than that (an import) load the whole again: cheaper then.
TAKE_AT_MOST = 1000

Ranked = list[tuple[int, float]]  # (rowid, bm25), best first


class WordPostings:
    """One per store (the retriever's). `refresh` brings it to a read snapshot, `ranker` ranks."""

    def __init__(self, weights: Sequence[float]) -> None:
        self._weights = tuple(weights)
        self._lock = threading.Lock()
        self._np: Any = None  # numpy, imported by the first load: opening a store does not pay for it
        self._small_sums: Any = None  # weighted counts of the postings whose counts are all small (`_frequencies`)
        self._empty()
        # Registered without keeping the postings alive; unregistered when they go (one per store opened).
        method = weakref.WeakMethod(self.clear)
        forget = functools.partial(_call, method)
        text_caches.register(forget)
        weakref.finalize(self, text_caches.unregister, forget)

    def _empty(self) -> None:
        self._loaded = False
        self._version = -1
        self._last = 0  # the highest rowid held
        self._totals = (0, 0)
        self._terms: list[str] = []
        self._index: dict[str, int] = {}
        # Set by `_load`: where each term's postings start, their rowids (4 bytes:
        # `rows.MAX_POSTED_ROWID`) and packed counts, and the tokens in each record by rowid.
        self._starts: Any = None
        self._docs: Any = None
        self._packed: Any = None
        self._length: Any = None
        self._added: dict[str, list[tuple[int, int]]] = {}  # term -> (rowid, packed) written since
        self._added_terms: list[str] = []  # its keys, sorted (prefixes are looked up by bisection)
        self._added_count = 0

    def __contains__(self, term: object) -> bool:
        """Whether a term is held (memory text: a purge must take it away)."""
        with self._lock:
            return term in self._index or term in self._added

    def clear(self) -> None:
        with self._lock:
            self._empty()

    def refresh(self, conn: Store, version: int) -> None:
        """Bring the postings to the snapshot `conn` reads (`version`: the store's stamp there)."""
        with self._lock:
            if self._loaded and version == self._version:
                return
            if not self._loaded or conn.word_index.last_indexed() < self._last or not self._take_new(conn):
                self._load(conn)
            self._totals = conn.word_index.averages()
            self._version = version

    def _load(self, conn: Store) -> None:
        if self._np is None:
            import numpy  # noqa: PLC0415 - only searching pays for it

            self._np = numpy
            columns = len(self._weights)
            sums = [self._sequential_sum(_packed(position, columns)) for position in range(SMALL_COUNT**columns)]
            self._small_sums = numpy.array(sums, dtype=numpy.float64)
        np = self._np
        self._empty()
        last = conn.word_index.last_indexed()
        arrays = self._arrays(*conn.word_index.postings()) if last <= MAX_POSTED_ROWID else None
        if arrays is None:  # never seen; FTS5 then ranks every search's words, as it did before
            log.warning("the word postings are not held: the word index read back otherwise than expected")
            return
        terms, starts, docs, packed = arrays
        self._terms, self._starts, self._docs, self._packed = terms, starts, docs, packed
        self._index = {term: i for i, term in enumerate(terms)}
        self._last = last
        self._length = np.zeros(last + 1, dtype=np.float64)
        if len(docs):
            self._length[: int(docs.max()) + 1] = np.bincount(docs, weights=self._tokens(packed))
        self._loaded = True
        release_freed_memory()  # the load's transient arrays and text (~60 MB at 100k records)

    def _arrays(self, terms: list[tuple[str, int]], occurrences: bytes) -> tuple[list[str], Any, Any, Any] | None:
        """From `WordIndexRows.postings`: the terms, where each term's postings start (and the end),
        and the postings (rowids, packed counts), by term then rowid. None when the two disagree."""
        np = self._np
        counts = np.fromiter((n for _, n in terms), dtype=np.int64, count=len(terms))
        found = np.frombuffer(occurrences, dtype=np.dtype([("rowid", ">u4"), ("column", "u1")]))
        if int(counts.sum()) != len(found):
            return None
        if not len(found):  # an empty index
            return [], np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=np.int64)
        term_ids = np.repeat(np.arange(len(terms), dtype=np.int32), counts)
        docs = found["rowid"].astype(np.uint32)
        ones = np.left_shift(1, FIELD_BITS * found["column"].astype(np.int64))
        firsts = np.flatnonzero(np.concatenate([[True], (term_ids[1:] != term_ids[:-1]) | (docs[1:] != docs[:-1])]))
        packed = np.add.reduceat(ones, firsts)
        starts = np.searchsorted(term_ids[firsts], np.arange(len(terms) + 1))
        return [term for term, _ in terms], starts, docs[firsts], packed

    def _take_new(self, conn: Store) -> bool:
        """Hold the records indexed since; False when they are not what the index holds (load again)."""
        sizes = conn.word_index.indexed_sizes(self._last)
        if not sizes:
            return True
        if len(sizes) > max(TAKE_AT_MOST, len(self._length) // 10):
            return False
        arrays = self._arrays(*conn.word_index.tokenized(conn.memories.indexed_columns([r for r, _ in sizes])))
        if arrays is None:
            return False
        terms, starts, docs, packed = arrays
        np = self._np
        first = sizes[0][0]  # counted from the first new rowid: not an array as long as the store
        counted = np.bincount(docs - first, weights=self._tokens(packed)) if len(docs) else np.zeros(0)
        if any(rowid - first >= len(counted) or int(counted[rowid - first]) != size for rowid, size in sizes):
            return False
        self._last = sizes[-1][0]
        if self._last >= len(self._length):
            grown = np.zeros(max(self._last + 1, 2 * len(self._length)), dtype=np.float64)
            grown[: len(self._length)] = self._length
            self._length = grown
        for rowid, size in sizes:
            self._length[rowid] = size
        for i, term in enumerate(terms):
            if term not in self._added:
                self._added[term] = []
                insort(self._added_terms, term)
            held = slice(int(starts[i]), int(starts[i + 1]))
            self._added[term] += zip(docs[held].tolist(), packed[held].tolist(), strict=True)
        self._added_count += len(docs)
        if self._added_count >= MERGE_AT:
            self._merge()
        return True

    def _merge(self) -> None:
        """Fold the postings kept aside into the arrays (rowids only grow: each term's stay in order)."""
        np = self._np
        terms = sorted(set(self._terms) | set(self._added))
        index = {term: i for i, term in enumerate(terms)}
        old = np.repeat(np.array([index[t] for t in self._terms], dtype=np.int64), np.diff(self._starts))
        new = [(index[term], rowid, packed) for term, held in self._added.items() for rowid, packed in held]
        term_ids = np.concatenate([old, np.array([t for t, _, _ in new], dtype=np.int64)])
        docs = np.concatenate([self._docs, np.array([d for _, d, _ in new], dtype=np.uint32)])
        packed = np.concatenate([self._packed, np.array([p for _, _, p in new], dtype=np.int64)])
        order = np.lexsort((docs, term_ids))
        self._terms, self._index = terms, index
        self._starts = np.concatenate([[0], np.cumsum(np.bincount(term_ids, minlength=len(terms)))])
        self._docs, self._packed = docs[order], packed[order]
        self._added, self._added_terms, self._added_count = {}, [], 0

    def _tokens(self, packed: Any) -> Any:
        mask = (1 << FIELD_BITS) - 1
        return sum((packed >> (FIELD_BITS * c)) & mask for c in range(len(self._weights)))

    def ranker(self, terms: Sequence[tuple[str, bool]]) -> Callable[[int], Ranked] | None:
        """The best `size` matches of an OR of `terms` ((term, is_prefix), in the query's order), as
        FTS5 ranks them; None when FTS5 must (a term it would tokenize otherwise, or nothing held)."""
        if not self._loaded or not all(SIMPLE_TERM.fullmatch(term) for term, _ in terms):
            return None
        return lambda size: self._best(terms, size)

    def _best(self, terms: Sequence[tuple[str, bool]], size: int) -> Ranked:
        np = self._np
        with self._lock:
            rows, tokens = self._totals
            phrases = [self._postings_of(term, prefix) for term, prefix in terms]
            length = self._length
        found = [docs for docs, _ in phrases if len(docs)]
        if not found or rows <= 0 or size <= 0:
            return []
        matched = np.sort(np.concatenate(found))
        matched = matched[np.concatenate([[True], matched[1:] != matched[:-1]])]  # np.unique, less its overhead
        # FTS5's bm25 (fts5_aux.c), operation for operation: the same doubles come out.
        average = tokens / rows
        norm = K1 * ((1 - B) + B * length[matched] / average)
        score = np.zeros(len(matched), dtype=np.float64)
        for docs, packed in phrases:
            hits = len(docs)
            idf = math.log(max(rows - hits + 0.5, 1e-300) / (hits + 0.5))
            idf = idf if idf > 0.0 else 1e-6
            freq = np.zeros(len(matched), dtype=np.float64)
            freq[np.searchsorted(matched, docs)] = self._frequencies(packed)
            score += idf * ((freq * (K1 + 1.0)) / (freq + norm))
        bm25 = -1.0 * score
        if len(matched) > size:  # the best `size` and every tie of the last: then the exact order
            keep = bm25 <= np.partition(bm25, size - 1)[size - 1]
            matched, bm25 = matched[keep], bm25[keep]
        order = np.lexsort((matched, bm25))[:size]
        return list(zip(matched[order].tolist(), bm25[order].tolist(), strict=True))

    def _postings_of(self, term: str, prefix: bool) -> tuple[Any, Any]:
        """(rowids, packed counts) of a term, or of every word starting with a prefix term, one a record."""
        np = self._np
        if prefix:
            lo, hi = _prefix_range(self._terms, term)
            start, end = int(self._starts[lo]), int(self._starts[hi])
            later = self._added_terms[slice(*_prefix_range(self._added_terms, term))]
            words = hi - lo + len(later)
        else:
            i = self._index.get(term)
            start, end = (int(self._starts[i]), int(self._starts[i + 1])) if i is not None else (0, 0)
            later = [term] if term in self._added else []
            words = 1
        docs, packed = self._docs[start:end], self._packed[start:end]
        held = [posting for word in later for posting in self._added[word]]
        if held:
            docs = np.concatenate([docs, np.array([d for d, _ in held], dtype=np.uint32)])
            packed = np.concatenate([packed, np.array([p for _, p in held], dtype=np.int64)])
        if words > 1 and len(docs):  # several words in one record: their counts add, field by field
            order = np.argsort(docs, kind="stable")
            docs, packed = docs[order], packed[order]
            firsts = np.flatnonzero(np.concatenate([[True], docs[1:] != docs[:-1]]))
            docs, packed = docs[firsts], np.add.reduceat(packed, firsts)
        return docs, packed

    def _frequencies(self, packed: Any) -> Any:
        """Each packed posting's weighted count (`_sequential_sum`): from a table when every count is
        small (nearly always), else one sum a distinct posting."""
        np = self._np
        counts = [(packed >> (FIELD_BITS * c)) & ((1 << FIELD_BITS) - 1) for c in range(len(self._weights))]
        if all(int(c.max(initial=0)) < SMALL_COUNT for c in counts):
            position = sum(c * SMALL_COUNT**i for i, c in enumerate(counts))
            return self._small_sums[position]
        values, inverse = np.unique(packed, return_inverse=True)
        return np.array([self._sequential_sum(int(v)) for v in values], dtype=np.float64)[inverse]

    def _sequential_sum(self, packed: int) -> float:
        """A term's weighted count in a record as FTS5 adds it up: one column weight per occurrence,
        in the order of the occurrences (column by column), so the double comes out the same."""
        total = 0.0
        for column, weight in enumerate(self._weights):
            for _ in range((packed >> (FIELD_BITS * column)) & ((1 << FIELD_BITS) - 1)):
                total += weight
        return total


def _packed(position: int, columns: int) -> int:
    """The packed posting of a table position: its counts, base SMALL_COUNT, one digit a column."""
    return sum(((position // SMALL_COUNT**c) % SMALL_COUNT) << (FIELD_BITS * c) for c in range(columns))


def _prefix_range(terms: list[str], prefix: str) -> tuple[int, int]:
    """The slice of sorted `terms` that start with `prefix`."""
    return bisect_left(terms, prefix), bisect_left(terms, prefix + "\U0010ffff")


def _call(method: weakref.WeakMethod[Callable[[], None]]) -> None:
    bound = method()
    if bound is not None:
        bound()
