"""The search pipeline behind `Vault.search`: governor, router, candidates, ranking, packet.

A search: the governor decides whether to search at all; the router weighs the domains;
the candidate stages (lexical, semantic, graph; `hybrid`) gather records; `ranking` scores
them; the ranking is cached (`ranking_cache`); the packet keeps the budgets; `answers` shapes
the reply. Usage and the retrieval log are written after the answer is chosen.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from memvault.core.retrieval import query as q
from memvault.core.retrieval.answers import as_known_at, search_answer, shadow_answer, skipped_answer
from memvault.core.retrieval.embeddings import MODEL_ID, Embedder, EmbeddingUnavailable, shared_embedder
from memvault.core.retrieval.embeddings import loaded as embeddings_loaded
from memvault.core.retrieval.governor import hops_for, pool_for, skip_after_route, skip_reason
from memvault.core.retrieval.hybrid import (
    SEEDS,
    Deadline,
    Gathered,
    WordCounts,
    activity,
    context_seeds,
    gather_graph,
    gather_lexical,
    gather_neighbours,
    gather_semantic,
    lexical_signal,
    other_words,
    signals_for,
    without_past,
)
from memvault.core.retrieval.packet import Counter, compile_packet, default_counter
from memvault.core.retrieval.query_dates import date_span, without_date
from memvault.core.retrieval.ranking import Signals, Weights, hold_back, rank, relevance
from memvault.core.retrieval.ranking_cache import Hit, Ranking, RankingCache, cache_key, stamp
from memvault.core.retrieval.router import Evidence, judged, likely_depth, route
from memvault.core.retrieval.tiers import TierRules, tier_for
from memvault.core.retrieval.vectors import BackgroundJob, Made, Nearby, Nearest, VectorIndex, backfill
from memvault.core.retrieval.word_postings import WordPostings
from memvault.core.runtime import text_caches
from memvault.core.store.context import Context
from memvault.core.store.later_writes import Write
from memvault.core.store.rows import WORD_WEIGHTS, StoreStamps
from memvault.core.store.seam import Store
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import Caller, Memory, MemoryId
from memvault.core.vocabulary.results import ReindexReport, SearchAnswer, ShadowAnswer
from memvault.core.vocabulary.search_request import MAX_QUERY_CHARS, SearchRequest

log = logging.getLogger("memvault.retrieval")

CATCH_UP = 16  # records a search embeds at most for writes it finds from other processes
CONTEXT_SEEDS = 30  # the best candidates whose session neighbours join the ranking
COUNTED_LINES = 4096  # packet lines whose token count is remembered
HITS_KEPT = 3  # a ranking keeps this many times the request's limit of hits (the packet's budgets cut further)


class HybridRetriever:
    """The retrieval brain behind `Vault.search`: governor, router, candidates, ranking, packet.

    One instance lives as long as its Vault (the daemon keeps it warm): it holds the vector
    index, the embedder and the ranking cache.
    """

    def __init__(self) -> None:
        self.cache = RankingCache()
        self._index: VectorIndex | None = None
        self._embedded_through = 0
        self._checked_version = -1
        self._feed_seen = 0  # the change feed's cursor at the last search (`_forget_purged`)
        self._word_counts = WordCounts()
        self._postings = WordPostings(WORD_WEIGHTS)
        self._lock = threading.Lock()
        self._background: BackgroundJob | None = None
        self._counter: Counter | None = None
        self._usage_later = False
        # An assistant's add coming (`expect_write`): its statement and what is being made for it.
        self._write_ahead: tuple[str, Made] | None = None
        # Searches coming (`expect`): each request's vector being made, taken by its search.
        self._search_ahead: dict[str, Future[Any]] = {}
        self._ahead_lock = threading.Lock()
        self._warmed: set[Caller] = set()  # the callers whose searches `warm` has set up

    # -- embeddings ----------------------------------------------------------------------------
    def embeddings_on(self, ctx: Context) -> bool:
        return _embeddings_local(ctx.setting)

    def expect(self, query: str) -> None:
        """A search for `query` is coming while its caller's checks still run: with the model loaded,
        its vector starts now on the query-vector thread, ahead of the search's own job there, which
        takes it (`_taken_search_ahead`). Never loads the model."""
        text = query.strip()
        if not (embeddings_loaded() and 0 < len(text) <= MAX_QUERY_CHARS):
            return
        try:
            made = _query_vector_thread().submit(shared_embedder().embed_one, text)
        except RuntimeError:  # the interpreter is shutting down: a head start only, the search embeds anyway
            log.debug("no head start for a search: the query-vector thread is gone")
            return
        with self._ahead_lock:
            self._search_ahead[text] = made
            while len(self._search_ahead) > SEARCHES_AHEAD:  # a search that never came (skipped, refused)
                del self._search_ahead[next(iter(self._search_ahead))]

    def _taken_search_ahead(self, query: str) -> Future[Any] | None:
        with self._ahead_lock:
            return self._search_ahead.pop(query.strip(), None)

    def warm(self, ctx: Context, caller: Caller) -> None:
        """Set up what `caller`'s searches need before the first one comes (a server, as a session
        starts): the model, loaded outside the store's lock, then one search that writes nothing,
        which loads the vector index and the word postings, builds the domain profiles and their
        centroids, and runs each stage once. Once per caller: later sessions find it set up."""
        if caller in self._warmed:
            return
        if self.embeddings_on(ctx):
            try:
                shared_embedder()
            except EmbeddingUnavailable as exc:
                log.warning("no embedding model (%s); searches stay lexical", exc.message)
        self.search(ctx, caller, SearchRequest.of(query=WARM_QUERY, limit=1).browsing())
        self._warmed.add(caller)

    def expect_write(self, statement: str) -> None:
        """An assistant's add of `statement` is coming while its call's checks run, and the
        statement passed the secrets check: with the model loaded, its vector and nearest stored
        records start now on the query-vector thread, for the add's duplicate check to take
        (`nearby`). Never loads the model; reads nothing of the store."""
        if embeddings_loaded():
            index = self._index_for(shared_embedder())
            self._write_ahead = (statement, _vector_soon(statement, index, Nearby.POOL))

    def _written_ahead(self, statement: str) -> Made | None:
        """What was made ahead for an add of `statement`, taken (once); None when nothing was."""
        ahead, self._write_ahead = self._write_ahead, None
        return ahead[1] if ahead is not None and ahead[0] == statement else None

    def clear_caches(self) -> None:
        """Forget cached rankings and request vectors (benchmarks measure uncached searches)."""
        self.cache.clear()
        self._write_ahead = None
        with self._ahead_lock:
            self._search_ahead.clear()
        if embeddings_loaded():
            shared_embedder().forget_recent()

    def _index_for(self, embedder: Embedder) -> VectorIndex:
        if self._index is None:
            self._index = VectorIndex(embedder.model_id, embedder.dimensions)
        return self._index

    def embed_in_background(self) -> None:
        """Long-lived servers: the post-commit embedding runs on a thread of its own, so a write
        answers without waiting for the model; a search waits for it first, so a search right
        after a write still finds the record by meaning."""
        if self._background is None:
            self._background = BackgroundJob("memvault-embedding")

    def usage_after_answer(self) -> None:
        """Long-lived servers: a search answers before its usage counters and log row are written;
        a thread writes them, and the store's next use first if that thread has not yet
        (`Context.later`), so a read right after a search, the next search's ranking included,
        still sees them."""
        self._usage_later = True

    def settle(self) -> None:
        if self._background is not None:
            self._background.settle()

    def nearby(self, ctx: Context) -> Nearby | None:
        """The model and the vector index for a write's duplicate check (None: lexical only).

        Waits for the background embedding first, so that this process's own recent writes are
        compared by meaning too."""
        if not self.embeddings_on(ctx):
            return None
        try:
            embedder = shared_embedder()
        except EmbeddingUnavailable as exc:
            log.warning("the duplicate check compares lexically: %s", exc)
            return None
        self.settle()
        return Nearby(embedder, self._index_for(embedder), self._written_ahead)

    def after_write(self, ctx: Context) -> int:
        """Embed what was just written (and anything else still missing): the post-commit step.

        Answers how many records were embedded (0 when that happens in the background)."""
        if not self.embeddings_on(ctx):
            return 0
        if self._background is not None:
            self._background.run_soon(lambda: self._embed_written(ctx))
            return 0
        return self._embed_written(ctx)

    def _embed_written(self, ctx: Context) -> int:
        try:
            embedder = shared_embedder()
            with self._lock:
                done, self._embedded_through = backfill(ctx, embedder, after=self._embedded_through)
            return done
        except EmbeddingUnavailable as exc:
            log.warning("records stay lexical-only: %s", exc)
        except MemvaultError as exc:  # the write is committed; its vector comes with reindex
            log.warning("embedding after a write failed (%s): run `memvault reindex`", type(exc).__name__)
        return 0

    def reindex(self, ctx: Context) -> ReindexReport:
        """Embed every record still without a vector (e.g. written while embeddings were off)."""
        if not self.embeddings_on(ctx):
            return {"embedded": 0, "missing": self._missing(ctx), "embeddings": "off"}
        embedder = shared_embedder()
        with self._lock:
            done, _ = backfill(ctx, embedder)
        self.cache.clear()
        return {"embedded": done, "missing": self._missing(ctx), "embeddings": "local"}

    def _missing(self, ctx: Context) -> int:
        with ctx.reading() as conn:
            return conn.vectors.count_missing(MODEL_ID)

    def _unembedded(self, stamps: StoreStamps, setting: Callable[[str], Any]) -> int | None:
        """The store's write counter when it moved since the last search looked (other processes may
        have written records this one has not embedded), else None (nothing to catch up on)."""
        if not _embeddings_local(setting) or stamps.writes == self._checked_version:
            return None
        return stamps.writes

    def _catch_up(self, ctx: Context, version: int) -> None:
        """Before searching: embed a bounded number of records other processes wrote."""
        self._checked_version = version
        try:
            embedder = shared_embedder()
            with self._lock:
                _, self._embedded_through = backfill(ctx, embedder, after=self._embedded_through, limit=CATCH_UP)
        except MemvaultError as exc:  # a busy store or no model: search anyway, with what is embedded
            log.info("no catch-up embedding before this search (%s)", type(exc).__name__)

    def _forget_purged(self, ctx: Context, conn: Store, cursor: int) -> None:
        """After a purge or a restore from a backup (in any process: the change feed says so), forget
        the text this process keeps (`forget_text`). A purged statement must not stay in memory, and
        after a restore the same row numbers may hold other records."""
        if 0 < self._feed_seen < cursor and conn.search.text_gone_since(self._feed_seen):
            self.forget_text(ctx)
        self._feed_seen = cursor

    def forget_text(self, ctx: Context) -> None:
        """Forget every copy of memory text this process keeps to go faster (after a purge): this
        retriever's rankings, requests made ahead, the embedder's recent vectors, token and word
        counts and vector index; every cache registered with `core/runtime/text_caches` (the word
        postings, the parses, the stems, the tokenizer's pieces, ...); what `ctx`'s connection keeps
        (`Context.renew_connection`); then the freed memory that held them (`text_caches.forget_all`)."""
        self.clear_caches()
        self._counter = None
        self._word_counts = WordCounts()
        self._index = None  # it holds the purged records' vectors; the next search loads it again
        ctx.renew_connection()
        text_caches.forget_all()

    # -- search --------------------------------------------------------------------------------
    def search(self, ctx: Context, caller: Caller, request: SearchRequest) -> SearchAnswer | ShadowAnswer:
        started = time.perf_counter()
        reason = skip_reason(request.query, bool(q.query_terms(request.query)))
        if reason:
            return skipped_answer(request, reason, (time.perf_counter() - started) * 1000)
        self.settle()  # this process's own writes are embedded first (with embeddings off there are none)
        # One snapshot for the whole search, unless other processes wrote records since the last one:
        # a few of those are embedded first (a write), and the search reads a snapshot taken after.
        with ctx.reading() as conn:
            setting = ctx.settings()  # this snapshot's, read once
            stamps = conn.stamps.read()  # and what it stamps caches with
            behind = self._unembedded(stamps, setting)
            if behind is None:
                ranking, records = self._found(setting, stamps, ctx, conn, caller, request)
        if behind is not None:
            self._catch_up(ctx, behind)
            with ctx.reading() as conn:
                setting, stamps = ctx.settings(), conn.stamps.read()
                ranking, records = self._found(setting, stamps, ctx, conn, caller, request)
        return self._answer(ctx, caller, request, ranking, records, started, int(setting("packet_max_tokens")))

    def _found(
        self,
        setting: Callable[[str], Any],
        stamps: StoreStamps,
        ctx: Context,
        conn: Store,
        caller: Caller,
        request: SearchRequest,
    ) -> tuple[Ranking, dict[str, Memory]]:
        """The ranking (cached, or ranked now) and its hits' records, read in this snapshot."""
        self._forget_purged(ctx, conn, stamps.cursor)
        if caller.is_local:  # the word index in memory ranks their matches (`word_postings`)
            self._postings.refresh(conn, stamp(stamps))
        # The deadline counts this search's own work: not the catch-up embedding of other
        # processes' writes, nor loading the model or the postings on a process's first search.
        own_start = time.perf_counter()
        semantic = _embeddings_local(setting)
        key = cache_key(request, caller, stamp(stamps), "local" if semantic else "off")
        ranking = self.cache.get(key)
        records: dict[str, Memory] | None = None
        if ranking is None:  # ranked now, in this snapshot: its records are at hand
            ranking, records = self._rank(setting, ctx, conn, caller, request, semantic, stamps, own_start)
            if not ranking.truncated:
                self.cache.put(key, ranking)
        if records is None:
            records = conn.search.by_ids(caller, [h.id for h in ranking.hits])
        if request.known_at:
            records = _as_known_at(conn, caller, records, request.known_at)
        return ranking, records

    def _rank(
        self,
        setting: Callable[[str], Any],
        ctx: Context,
        conn: Store,
        caller: Caller,
        request: SearchRequest,
        semantic: bool,
        stamps: StoreStamps,
        started: float,
    ) -> tuple[Ranking, dict[str, Memory]]:
        """The ranking, and the records of its hits (read in the caller's snapshot)."""
        deadline = Deadline(started, float(setting("search_deadline_ms")))
        weights = Weights.from_settings(setting)
        span = date_span(request.query)
        words = without_date(request.query, span) if span else None
        rules = TierRules(
            float(setting("tier_half_life_days")), float(setting("tier_hot")), float(setting("tier_cold"))
        )
        now = ctx.clock.now()
        gathered, guess, vector, index, ahead = self._words_and_vector(
            conn, caller, request, stamps, semantic, deadline, words
        )
        semantic = index is not None
        decision = route(conn, caller, request.query, vector, version=stamps.domains)
        depth = _depth_for(request, lambda: decision.depth)
        pool = pool_for(depth, request.limit)
        if pool != guess or index is None:
            gathered = Gathered(words=words)
            counts = (self._word_counts, stamp(stamps))
            gather_lexical(conn, caller, request, pool, gathered, counts, alone=index is None, postings=self._postings)
        if index is not None and vector is not None:
            if deadline.passed():
                gathered.truncated = True
                semantic = False  # rank what the lexical stage found on its own terms
            else:
                gather_semantic(conn, caller, request, index, vector, pool, gathered, ahead)
        decision = judged(decision, _evidence(request, gathered) if semantic else None, request.query)
        if decision.off_topic:  # nothing of this memory matches: not searched further
            return Ranking((), (), float(setting("domain_max_share")), skipped=skip_after_route(decision) or ""), {}
        weights_by_domain = decision.weights

        def signals(feedback: dict[str, tuple[int, int]]) -> dict[str, Signals]:
            found = signals_for(request, gathered, weights_by_domain, feedback, semantic, span)
            return found if depth == "deep" else without_past(found, gathered)  # past material: depth deep only

        hops = hops_for(depth, int(setting("graph_max_depth")))
        similarity = _similarity(index, vector)
        if hops and conn.search.in_graph(list(gathered.found), stamps.filled):  # else no seed could lead anywhere
            if deadline.passed():
                gathered.truncated = True
            else:
                provisional = signals({})
                strong = sorted(((relevance(s, weights), k) for k, s in provisional.items()), reverse=True)[:SEEDS]
                seeds = {k: r for r, k in strong if r >= weights.min_relevance}
                gather_graph(conn, caller, request, seeds, hops, gathered, similarity, stamps.filled)
        if gathered.found and not deadline.passed():
            gather_neighbours(conn, caller, request, context_seeds(gathered, CONTEXT_SEEDS), gathered, similarity)
        final = signals(conn.search.feedback_balance(list(gathered.found), stamps.filled))
        items = [(gathered.found[k].record, s) for k, s in final.items()]
        kept = request.limit * HITS_KEPT
        ranked = rank(items, weights, gathered.beside, gathered.conversation, lambda r: activity(r, now, rules), kept)
        names = q.request_names(request.query)
        ranked, held_back = hold_back(ranked, request.limit, names, other_words(request, gathered))
        hits = tuple(Hit(r.id, value, tuple(s.why), tier_for(r, s.activation, rules)) for r, s, value in ranked[:kept])
        ranking = Ranking(
            hits=hits,
            domains=tuple((d["name"], d["weight"]) for d in decision.as_contract()),
            domain_share=float(setting("domain_max_share")),
            shares={d.name: d.token_share for d in decision.active},
            conflicts=_conflicts(conn, [h.id for h in hits], stamps.filled),
            truncated=gathered.truncated,  # a stage was skipped at the deadline
            held_back=held_back,
        )
        return ranking, {h.id: gathered.found[h.id].record for h in hits}

    def _words_and_vector(
        self,
        conn: Store,
        caller: Caller,
        request: SearchRequest,
        stamps: StoreStamps,
        semantic: bool,
        deadline: Deadline,
        words: str | None,
    ) -> tuple[Gathered, int, Any, VectorIndex | None, Nearest | None]:
        """The request's vector and the index; meanwhile, the word matches for the pool the route
        will likely choose (the pool depends on the route, the route on the vector: the words stage
        runs again when the guess was wrong) and their lexical signal. Guess 0: no words gathered yet."""
        warm = embeddings_loaded()
        version = stamp(stamps)
        gathered, guess, pending = Gathered(words=words), 0, None
        if semantic and warm:
            likely = functools.partial(likely_depth, conn, caller, request.query, version=stamps.domains)
            guess = pool_for(_depth_for(request, likely), request.limit)
            ahead = self._index_for(shared_embedder())
            ahead.refresh(conn, version)  # read in this snapshot, before the thread searches it
            pending = _vector_soon(request.query, ahead, guess, self._taken_search_ahead(request.query))
            counts = (self._word_counts, version)
            gather_lexical(conn, caller, request, guess, gathered, counts, alone=False, postings=self._postings)
            lexical_signal(request, gathered)  # kept in `gathered`: words only, done while the model runs
        setup = time.perf_counter()
        vector, index = self._semantic_setup(conn, request, version, pending) if semantic else (None, None)
        if not warm:  # loading the model is the process's warm-up, not this search's latency
            deadline.started += time.perf_counter() - setup
        nearest = pending.found() if pending is not None and index is not None else None
        return gathered, guess, vector, index, nearest

    def _semantic_setup(
        self, conn: Store, request: SearchRequest, version: int, pending: Made | None
    ) -> tuple[Any, VectorIndex | None]:
        """The request's vector and the index brought up to date; (None, None) without a model."""
        try:
            embedder = shared_embedder()
            index = self._index_for(embedder)
            if pending is not None:  # the index was brought up to date before the thread searches it
                return pending.vector.result(), index
            vector = embedder.embed_one(request.query)
            index.refresh(conn, version)
            return vector, index
        except EmbeddingUnavailable as exc:
            log.warning("searching lexically: %s", exc)
            return None, None

    def _token_count(self) -> Counter:
        """The packet's token counter, remembering the lines it counted (a record's line recurs
        from search to search; the tokenizer costs ~0.1 ms a line)."""
        if self._counter is None:
            self._counter = functools.lru_cache(maxsize=COUNTED_LINES)(default_counter())
        return self._counter

    def _answer(
        self,
        ctx: Context,
        caller: Caller,
        request: SearchRequest,
        ranking: Ranking,
        records: dict[str, Memory],
        started: float,
        packet_max_tokens: int,
    ) -> SearchAnswer | ShadowAnswer:
        if ranking.skipped:
            return skipped_answer(request, ranking.skipped, (time.perf_counter() - started) * 1000)
        ordered = [records[h.id] for h in ranking.hits if h.id in records]
        max_tokens = request.max_tokens or packet_max_tokens
        packet = compile_packet(
            ordered,
            request.limit,
            max_tokens,
            count=self._token_count(),
            domain_share=ranking.domain_share,
            conflicts=ranking.conflicts,
            shares=ranking.shares,
            scores={h.id: h.score for h in ranking.hits},
        )
        latency_ms = (time.perf_counter() - started) * 1000
        ids = [r.id for r in packet.records]
        scores = {h.id: h.score for h in ranking.hits}
        if request.count_usage:
            write = _usage(caller, ids, [scores[i] for i in ids], latency_ms, ctx.now(), request.shadow)
            if self._usage_later:
                ctx.later(write, len(ids))
            else:
                with ctx.transaction() as conn:
                    write(conn)
        if request.shadow:
            return shadow_answer(len(ids), latency_ms)
        return search_answer(request, ranking, packet, latency_ms)


def _usage(
    caller: Caller, ids: list[MemoryId], scores: list[float], latency_ms: float, now: str, shadow: bool
) -> Write:
    """A search's retrieval-log row and, unless it ran in shadow, its hits' usage counters."""

    def write(conn: Store) -> None:
        # A record purged since the search read it (here or in another process) leaves no trace.
        stored = conn.memories.still_stored(ids)
        kept = [(i, s) for i, s in zip(ids, scores, strict=True) if i in stored]
        conn.search.log_retrieval(caller, [i for i, _ in kept], [s for _, s in kept], latency_ms, now, shadow=shadow)
        if not shadow:
            conn.memories.record_usage([i for i, _ in kept], now)

    return write


# Searches whose vector `expect` started, kept until their search takes it: a few calls in flight.
SEARCHES_AHEAD = 8

WARM_QUERY = "what matters most to me right now"  # any request the governor would not skip


@functools.cache
def _query_vector_thread() -> ThreadPoolExecutor:
    """One thread per process, like the model it runs (its thread starts at the first submit)."""
    return ThreadPoolExecutor(1, thread_name_prefix="memvault-query-vector")


def _vector_soon(text: str, index: VectorIndex, pool: int, started: Future[Any] | None = None) -> Made:
    """The request's vector (`started` ahead, or made now), on a thread of its own (the model and the
    matrix product release the GIL); the thread goes on to find its `pool` nearest records, handed
    on in the same value, while the search routes the request with the vector."""
    made = Made(Future(), Future())
    _query_vector_thread().submit(_vector_and_nearest, text, index, pool, started, made)
    return made


def _vector_and_nearest(text: str, index: VectorIndex, pool: int, started: Future[Any] | None, made: Made) -> None:
    try:  # `started` ran on this thread before this job: it is done
        vector = started.result() if started is not None else shared_embedder().embed_one(text)
    except BaseException as exc:  # the search's own thread raises it
        made.vector.set_exception(exc)
        made.nearest.set_result(None)
        return
    made.vector.set_result(vector)
    try:
        made.nearest.set_result(index.nearest(vector, pool))
    except Exception:  # should it fail here, the semantic stage's own search raises
        made.nearest.set_result(None)


def _embeddings_local(setting: Callable[[str], Any]) -> bool:
    return str(setting("embeddings")) == "local"


def _depth_for(request: SearchRequest, routed: Callable[[], str]) -> str:
    """The depth asked for; for "auto", deep for a request about the past (what was true then may be
    cold now), else the route's (`routed`: the chosen route's, or before it the likely one)."""
    if request.depth != "auto":
        return request.depth
    if request.as_of or request.known_at or request.include_history:
        return "deep"
    return routed()


def _as_known_at(conn: Store, caller: Caller, records: dict[str, Memory], moment: str) -> dict[str, Memory]:
    successors = conn.search.by_ids(caller, [r.superseded_by_id for r in records.values() if r.superseded_by_id])
    return {k: as_known_at(r, moment, successors) for k, r in records.items()}


def _evidence(request: SearchRequest, gathered: Gathered) -> Evidence | None:
    """What the candidates say about the request, for the router's second look (`router.judged`)."""
    lexical = lexical_signal(request, gathered)
    return Evidence.of((item.cosine, lexical.get(key, 0.0)) for key, item in gathered.found.items())


def _similarity(index: VectorIndex | None, vector: Any) -> Callable[[list[str]], dict[str, float]] | None:
    if index is None or vector is None:
        return None
    return lambda ids: index.similarity(vector, ids)


def _conflicts(conn: Store, ids: list[str], filled: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """contradicts links among the hits, both ways: the packet labels each side."""
    chosen = set(ids)
    found: dict[str, list[str]] = {}
    for seed, other, link_type, _ in conn.search.linked(ids, filled):
        if link_type == "contradicts" and other in chosen:
            found.setdefault(seed, []).append(other)
    return {k: tuple(sorted(set(v))) for k, v in found.items()}
