"""The in-memory vector index: one float32 matrix and its int8 codes, refreshed incrementally.

A search scans every vector's int8 codes (`vector_codes`: ~0.13 ms at 10k, ~3 ms at 100k on
one core, against ~0.8 and ~9 ms for the float32 matrix) for RESCORE times as many candidates
as asked, then ranks those by their exact cosine: no graph or cluster index, whose recall
would depend on the data, is needed below a few hundred thousand records (sqlite-vec's vec0
is also a brute force scan and is not installed). The matrix is a cache of `memory_vectors`:
rows are appended as new vectors appear (by rowid); a removal (purge) triggers a full reload.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memvault.core.retrieval.vector_codes import VectorCodes
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.model import Caller

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from memvault.core.retrieval.embeddings import Embedder

    Matrix = npt.NDArray[np.float32]
else:
    Matrix = Any

log = logging.getLogger("memvault.retrieval")

# Candidates rescored exactly per record asked for, and at least this many more: a coded dot
# product is off by ~1e-3 while the cosines of the k-th and the (RESCORE x k)-th best are far
# further apart (docs/retrieval.md, "Embeddings"). Fewer stored rows than that: exact only.
RESCORE = 4
RESCORE_EXTRA = 32


def to_blob(vector: Matrix) -> bytes:
    import numpy as np  # noqa: PLC0415 - numpy only once vectors are used

    return bytes(np.asarray(vector, dtype="<f4").tobytes())


@dataclass(frozen=True)
class Nearest:
    """The `k` records nearest one vector, found ahead (on the query-vector thread) and handed, with
    that vector, to the search or write that asked for them. Good while the index still holds what
    it held then (`generation`): `VectorIndex.search` answers from it only in that case."""

    k: int
    hits: list[tuple[str, float]]
    generation: int


class VectorIndex:
    """Exact cosine search over every stored vector of one model (vectors are L2-normalised)."""

    def __init__(self, model: str, dimensions: int) -> None:
        import numpy as np  # noqa: PLC0415

        self._np = np
        self.model = model
        self.dimensions = dimensions
        self._matrix: Matrix = np.zeros((0, dimensions), dtype=np.float32)
        self._codes = VectorCodes(dimensions)
        self._size = 0
        self._ids: list[str] = []
        self._row_of: dict[str, int] = {}
        self._last_rowid = 0
        self._seen_version = -1
        self._removals = -1  # vector_removals when the matrix was loaded: a change means reload
        self._lock = threading.Lock()
        self._generation = 0  # counts the changes of what the index holds: a `Nearest` names one

    def __len__(self) -> int:
        return self._size

    def refresh(self, conn: Store, version: int) -> None:
        """Bring the matrix up to the store (call with the current store_version)."""
        with self._lock:
            if version == self._seen_version:
                return
            removals = conn.vectors.removals()
            if removals != self._removals or conn.vectors.max_rowid() < self._last_rowid:
                self._reset()
                self._removals = removals
            while True:
                rows = conn.vectors.since(self.model, self._last_rowid)
                if not rows:
                    break
                self._append(rows)
            self._seen_version = version

    def take(self, rowid: int, memory_id: str, blob: bytes) -> None:
        """A vector this process just committed at `rowid`: taken now when it is the next row a
        refresh would read (no row before it unread), else left to the next refresh."""
        with self._lock:
            if self._removals >= 0 and rowid == self._last_rowid + 1:
                self._append([(rowid, memory_id, blob)])

    def _reset(self) -> None:
        self._generation += 1
        self._matrix = self._np.zeros((0, self.dimensions), dtype=self._np.float32)
        self._codes = VectorCodes(self.dimensions)
        self._size = 0
        self._ids = []
        self._row_of = {}
        self._last_rowid = 0

    def _append(self, rows: list[tuple[int, str, bytes]]) -> None:
        np = self._np
        fresh = [(memory_id, blob) for _, memory_id, blob in rows if len(blob) == 4 * self.dimensions]
        needed = self._size + len(fresh)
        if needed > len(self._matrix):
            # Room to grow: loaded to the exact count, the first write after a load would copy the
            # whole matrix (32-48 ms at 10k). Rows not yet written cost no memory (zeroed lazily).
            room = max(needed + needed // 4, 2 * len(self._matrix), 1024)
            grown = np.zeros((room, self.dimensions), dtype=np.float32)
            grown[: self._size] = self._matrix[: self._size]
            self._matrix = grown
            self._codes.grow(room, self._size)
        written = []
        for memory_id, blob in fresh:
            vector = np.frombuffer(blob, dtype="<f4")
            row = self._row_of.get(memory_id)
            if row is None:
                row = self._size
                self._size += 1
                self._ids.append(memory_id)
                self._row_of[memory_id] = row
            self._matrix[row] = vector
            written.append(row)
        if written:
            self._codes.put(np.array(written), self._matrix[written])
        self._last_rowid = rows[-1][0]
        self._generation += 1

    def search(self, query: Matrix, k: int, ahead: Nearest | None = None) -> list[tuple[str, float]]:
        """The k most similar stored records (id, cosine), best first. `ahead`: what was found for
        this same query ahead of the call; its answer stands while the index has not changed since."""
        with self._lock:
            if ahead is not None and ahead.generation == self._generation and k <= ahead.k:
                return ahead.hits[:k]
            return self._search(query, k)

    def nearest(self, query: Matrix, k: int) -> Nearest:
        """`search`, as a value to hand on with the query (the pipeline searches ahead on a thread)."""
        with self._lock:
            return Nearest(k, self._search(query, k), self._generation)

    def _search(self, query: Matrix, k: int) -> list[tuple[str, float]]:
        np = self._np
        if self._size == 0 or k <= 0:
            return []
        vector = np.asarray(query, dtype=np.float32)
        wanted = min(k, self._size)
        if self._size > RESCORE * wanted + RESCORE_EXTRA:
            approx = self._codes.scan(vector, self._size)
            rows = _largest(np, approx, RESCORE * wanted + RESCORE_EXTRA)
            sims = _cosines(np, self._matrix[rows], vector)
        else:
            rows = np.arange(self._size)
            sims = _cosines(np, self._matrix[: self._size], vector)
        best = _largest(np, sims, wanted)
        best = best[np.lexsort((rows[best], -sims[best]))]  # ties go by row: the same order every time
        ids = self._ids
        return [(ids[i], s) for i, s in zip(rows[best].tolist(), sims[best].tolist(), strict=True)]

    def similarity(self, query: Matrix, ids: list[str]) -> dict[str, float]:
        """Cosine of the query with specific records (those that have a vector)."""
        np = self._np
        with self._lock:
            rows = [(i, self._row_of[i]) for i in ids if i in self._row_of]
            if not rows:
                return {}
            sims = _cosines(np, self._matrix[[r for _, r in rows]], np.asarray(query, dtype=np.float32))
            return {memory_id: float(s) for (memory_id, _), s in zip(rows, sims, strict=True)}

    def vector_of(self, memory_id: str) -> Matrix | None:
        with self._lock:
            row = self._row_of.get(memory_id)
            return None if row is None else self._matrix[row].copy()


def _cosines(np: Any, rows: Matrix, query: Matrix) -> Matrix:
    """Exact dot products (the vectors are L2-normalised). numpy's own product loop, not BLAS: on
    the bench machine OpenBLAS's one-thread gemv took twice as long and a second BLAS thread
    spins for a core. The sums round differently from BLAS in the last bit (~1e-7)."""
    sims: Matrix = np.einsum("ij,j->i", rows, query)
    return sims


def _largest(np: Any, values: Matrix, k: int) -> Any:
    """The positions of the k largest values, in no order."""
    cut = len(values) - min(k, len(values))  # the k largest lie beyond `cut` (no negated copy)
    return np.argpartition(values, cut)[cut:]


@dataclass(frozen=True)
class Made:
    """A text's vector, and the records nearest it, as values: being made on the query-vector thread
    for a call that has not reached its search or write yet (`ahead`), or made at once. Whoever
    takes it is its only user: nothing else keeps or finds it."""

    vector: Future[Matrix]
    nearest: Future[Nearest | None]  # set once `vector` is (None: not searched, or it failed)
    ahead: bool = True

    @classmethod
    def now(cls, vector: Matrix) -> Made:
        made: Made = cls(Future(), Future(), ahead=False)
        made.vector.set_result(vector)
        made.nearest.set_result(None)
        return made

    def found(self) -> Nearest | None:
        """The nearest records found with the vector (waits for the thread that searches them)."""
        return self.nearest.result()


class Nearby:
    """What a write asks of meaning: its statement's vector and the stored records closest to it.

    The writer's duplicate check for an assistant's add (core/writer/classify.py): a record can be
    the same only above a cosine floor, so the exact search over every stored vector finds all
    such records (a lexical top-N need not). The vector is then stored with the record, in the
    add's own transaction: no embedding is left pending behind the commit. The writer pass asks it
    too, for the records closest to a candidate by meaning.
    """

    POOL = 30  # nearest records asked at first; more while all of them clear the floor
    LOOK_FURTHER = 4  # a placement's neighbours are looked for among this many times as many records

    def __init__(
        self, embedder: Embedder, index: VectorIndex, ahead: Callable[[str], Made | None] = lambda _: None
    ) -> None:
        self.embedder = embedder
        self._index = index
        self._ahead = ahead  # what was made ahead for a statement's write, taken once

    def made(self, text: str) -> Made:
        """The one source of a write's vector: what another thread is making for `text` already
        (taken), else the vector made now."""
        ahead = self._ahead(text)
        return ahead if ahead is not None else Made.now(self.embedder.embed_one(text))

    def nearest(self, conn: Store, made: Made, floor: float, limit: int | None = None) -> dict[str, float]:
        """Every stored record (any status, visible or not: the caller filters) with cosine >= floor;
        with `limit`, only the closest `limit` of them."""
        return self._nearest(conn, conn.vectors.store_version(), made, floor, limit)

    def nearest_as_stored(self, conn: Store, floor: float) -> Callable[[Made], dict[str, float]]:
        """`nearest` among the records as the store holds them now, for a write that asks after
        writing rows of its own (under a savepoint it may undo): the index is not marked as having
        seen a store version that may never be committed."""
        version = conn.vectors.store_version()
        return lambda made: self._nearest(conn, version, made, floor)

    def _nearest(
        self, conn: Store, version: int, made: Made, floor: float, limit: int | None = None
    ) -> dict[str, float]:
        if limit is not None and limit < 1:
            raise ValueError("limit: at least 1")
        self._index.refresh(conn, version)  # new rows read here void what was found ahead
        vector, ahead = made.vector.result(), made.found()
        k = self.POOL if limit is None else min(self.POOL, limit)
        while True:
            hits = self._index.search(vector, k, ahead)
            if len(hits) < k or hits[-1][1] < floor or k == limit:
                return {memory_id: cosine for memory_id, cosine in hits if cosine >= floor}
            k = k * 4 if limit is None else min(k * 4, limit)

    def closest(self, conn: Store, vector: Matrix, caller: Caller, limit: int) -> list[tuple[str, str]]:
        """(domain, text) of the live records the caller sees that are closest in meaning, closest
        first: at most `limit`, looked for among the nearest `limit` x LOOK_FURTHER records."""
        self._index.refresh(conn, conn.vectors.store_version())
        hits = self._index.search(vector, limit * self.LOOK_FURTHER)
        texts = conn.domains.live_texts(caller, [memory_id for memory_id, _ in hits])
        return [texts[memory_id] for memory_id, _ in hits if memory_id in texts][:limit]

    def keep(self, conn: Store, memory_id: str, vector: Matrix) -> Callable[[], None]:
        """Store a new record's vector (inside the transaction that wrote the record). Answers what
        to run once it is committed: the vector enters the index at once, so that the next write's
        nearest records, searched ahead of its transaction, are those of the store as it stands (a
        refresh that reads new vectors drops the answer searched ahead)."""
        blob = to_blob(vector)
        conn.vectors.put(self.embedder.model_id, [(memory_id, blob)])
        row = conn.vectors.row_of(memory_id)
        return lambda: self._index.take(row, memory_id, blob)


class BackgroundJob:
    """Runs a job on a thread of its own when asked (once for several asks made meanwhile: a job
    does all that is pending); `settle` waits for the jobs asked before it. The thread lives while
    there is work and ends when there is none, so an idle store keeps no thread."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._state = threading.Condition()
        self._job: Callable[[], object] | None = None
        self._thread: threading.Thread | None = None
        self._asked = 0
        self._done = 0

    def run_soon(self, job: Callable[[], object]) -> None:
        with self._state:
            self._job = job
            self._asked += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name=self._name, daemon=True)
                self._thread.start()

    def _work(self) -> None:
        while True:
            with self._state:
                job, self._job, asked = self._job, None, self._asked
                if job is None:
                    self._thread = None
                    return
            try:
                job()
            except Exception as exc:  # e.g. the store closed meanwhile: the next search catches up
                log.warning("background embedding stopped (%s)", type(exc).__name__)
            with self._state:
                self._done = asked
                self._state.notify_all()

    def settle(self) -> None:
        """Wait until the jobs asked for so far have run (not those asked meanwhile)."""
        with self._state:
            wanted = self._asked
            self._state.wait_for(lambda: self._done >= wanted)


def backfill(
    ctx: Context, embedder: Embedder, *, after: int = 0, limit: int | None = None, batch: int = 64
) -> tuple[int, int]:
    """Embed records (rowid > `after`) that have no vector of the embedder's model, in batches.

    Each batch is read, embedded outside any transaction, then written in one short
    transaction, so a long backfill never holds the store. Answers (how many were embedded,
    the rowid up to which every record now has a vector).
    """
    done = 0
    while limit is None or done < limit:
        size = batch if limit is None else min(batch, limit - done)
        with ctx.reading() as conn:
            top = conn.vectors.max_memory_rowid()
            rows = conn.vectors.missing(embedder.model_id, after, size)
        if not rows:
            after = max(after, top)
            break
        matrix = embedder.embed([statement for _, _, statement in rows])
        with ctx.transaction() as conn:
            conn.vectors.put(embedder.model_id, [(r[1], to_blob(v)) for r, v in zip(rows, matrix, strict=True)])
        after = rows[-1][0]
        done += len(rows)
    if done:
        log.info("embedded %d record(s)", done)
    return done, after
