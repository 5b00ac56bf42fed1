"""Candidates and fusion: lexical (words + trigrams), semantic (embeddings), graph neighbours.

Each stage adds records (already filtered by access, time, status and the request's
filters, all by the store) and signals; `ranking` turns signals into one score. The stages
run cheapest first and stop at the deadline, keeping what they found.
"""

from __future__ import annotations

import math
import re
import string
import time
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memvault.core.retrieval import query as q
from memvault.core.retrieval import tiers
from memvault.core.retrieval.query_dates import DateSpan
from memvault.core.retrieval.ranking import Signals, feedback_value
from memvault.core.retrieval.tiers import PAST, TierRules, activation
from memvault.core.retrieval.vectors import Nearest, VectorIndex
from memvault.core.retrieval.word_postings import WordPostings
from memvault.core.store.rows import TermCount
from memvault.core.store.seam import Store
from memvault.core.vocabulary.model import Caller, Memory
from memvault.core.vocabulary.search_request import SearchRequest

LINK_TYPE_WEIGHT = {
    "supersedes": 0.5,
    "contradicts": 0.9,
    "depends_on": 0.8,
    "part_of_project": 0.7,
    "failed_for": 0.8,
    "relates_to": 0.6,
    "mentions": 0.4,
}
HOP_DECAY = 0.6
COMMON_SHARE = 0.1  # a word-index term in more than this share of the records is "common"
COMMON_MIN = 200  # ... but never below this many records (small stores keep every term)
SEEDS = 8
ENTITY_WEIGHT = 0.45  # per shared entity, capped at 1


@dataclass(slots=True)
class Found:
    record: Memory
    word_bm25: float | None = None
    trigram_bm25: float | None = None
    substring: bool = False
    cosine: float | None = None
    graph: float = 0.0
    why: list[str] = field(default_factory=list)


@dataclass
class Gathered:
    found: dict[str, Found] = field(default_factory=dict)
    truncated: bool = False
    idf: dict[str, float] = field(default_factory=dict)  # word-index term -> inverse document frequency
    # Per-record values that do not change between the provisional and the final ranking.
    lexical: dict[str, float] = field(default_factory=dict)
    # Callers who do not see everything get statistics over what they see, and no bm25 part
    # (FTS5's bm25 uses statistics over every record).
    own_statistics: bool = False
    # The request's words for the word index, when they differ from the request (its date left out).
    words: str | None = None
    # Records written beside each other in one session, both ways (`gather_neighbours`).
    beside: dict[str, set[str]] = field(default_factory=dict)
    # The share of the context seeds that are turns of a stored conversation (have a session neighbour).
    conversation: float = 0.0

    def word_text(self, request: SearchRequest) -> str:
        return request.query if self.words is None else self.words

    def add(self, record: Memory, signal: str) -> Found:
        item = self.found.get(record.id)
        if item is None:
            item = self.found[record.id] = Found(record, why=[signal])
        elif signal not in item.why:
            item.why.append(signal)
        return item


class Deadline:
    def __init__(self, started: float, budget_ms: float) -> None:
        self.started = started
        self.budget_ms = budget_ms

    def passed(self) -> bool:
        return (time.perf_counter() - self.started) * 1000 > self.budget_ms


def inverse_frequencies(total: int, frequencies: dict[str, int]) -> dict[str, float]:
    """BM25's idf of each term: rare terms weigh more; a term the store never saw weighs most."""
    return {term: math.log(1 + (total - n + 0.5) / (n + 0.5)) for term, n in frequencies.items()}


def selective_terms(terms: list[tuple[str, bool]], frequencies: dict[str, int], total: int) -> list[tuple[str, bool]]:
    """The terms worth a lookup: in a big store, a term found in more than a tenth of the records
    costs the most to rank and says the least, so it is left out of the query (it still counts in
    the lexical signal) unless nothing rarer is left."""
    common = max(COMMON_MIN, COMMON_SHARE * total)
    rare = [t for t in terms if frequencies.get(t[0], 0) <= common]
    return rare or sorted(terms, key=lambda t: frequencies.get(t[0], 0))[:2]


class WordCounts:
    """The counts the words stage asks the store for, kept while the store does not change: how
    many records a caller sees, and in how many of them each term occurs (one fts5vocab lookup
    per term, which also names a prefix's only word; for callers who do not see everything, a
    count over the matches they may see).
    Requests share most of their words, so most lookups are answered here.

    One per store (the retriever's): versions of different stores collide. `version` is the
    store's stamp (`ranking_cache.stamp`), which every committed write moves.
    """

    ENTRIES = 8192

    def __init__(self) -> None:
        self._version = -1
        self._totals: dict[tuple[object, ...], int] = {}
        self._counts: dict[tuple[object, ...], TermCount] = {}

    def _at(self, version: int) -> tuple[dict[tuple[object, ...], int], dict[tuple[object, ...], TermCount]]:
        if version != self._version or len(self._counts) > self.ENTRIES:
            # New dicts: a search still reading the old ones keeps them.
            self._version, self._totals, self._counts = version, {}, {}
        return self._totals, self._counts

    def total(self, conn: Store, caller: Caller, version: int) -> int:
        totals, view = self._at(version)[0], _view(caller)
        if view not in totals:
            totals[view] = conn.search.indexed_count() if caller.is_local else conn.search.visible_count(caller)
        return totals[view]

    def frequencies(
        self, conn: Store, caller: Caller, terms: list[tuple[str, bool]], version: int
    ) -> dict[str, TermCount]:
        counts, view = self._at(version)[1], _view(caller)
        missing = [t for t in terms if (view, *t) not in counts]
        if missing:
            found = _frequencies(conn, caller, missing)
            counts.update(((view, term, prefix), found[term]) for term, prefix in missing)
        return {term: counts[(view, term, prefix)] for term, prefix in terms}


def _view(caller: Caller) -> tuple[object, ...]:
    """Whose counts: every local caller sees the whole store; others see their own part of it."""
    return ("local",) if caller.is_local else (caller.principal, caller.surface.value, caller.workspace_id)


def _frequencies(conn: Store, caller: Caller, terms: list[tuple[str, bool]]) -> dict[str, TermCount]:
    return (
        conn.search.document_frequencies(terms) if caller.is_local else conn.search.visible_frequencies(caller, terms)
    )


def gather_lexical(
    conn: Store,
    caller: Caller,
    request: SearchRequest,
    pool: int,
    out: Gathered,
    counts: tuple[WordCounts, int] | None = None,
    alone: bool = True,
    postings: WordPostings | None = None,
) -> None:
    """Word, trigram and substring matches; `alone`: no semantic stage follows (embeddings off);
    `counts`: the retriever's kept counts and the store's version (else every count is asked for);
    `postings`: the word index held in memory, refreshed to `conn`'s snapshot (ranks for local callers)."""
    text = out.word_text(request)
    terms = q.word_terms(text)
    if terms:
        out.own_statistics = not caller.is_local
        if counts is None:
            total = conn.search.indexed_count() if caller.is_local else conn.search.visible_count(caller)
            found = _frequencies(conn, caller, terms)
        else:
            kept, version = counts
            total, found = kept.total(conn, caller, version), kept.frequencies(conn, caller, terms, version)
        frequencies = {term: count.docs for term, count in found.items()}
        out.idf = inverse_frequencies(total, frequencies)
        # A term no record holds matches nothing and adds exactly 0 to every bm25: not asked.
        asked = [_as_looked_up(t, found) for t in selective_terms(terms, frequencies, total) if frequencies[t[0]]]
        if asked:
            best = postings.ranker(asked) if postings is not None and caller.is_local else None
            for record, bm25 in conn.search.lexical_candidates(caller, asked, request, pool, best):
                out.add(record, "lexical").word_bm25 = bm25
    # Trigrams find what word prefixes cannot (CJK text, a fragment inside a word, another
    # spelling); they are the costliest lookup, so only when the words found little: fewer
    # than half the pool alone, fewer than the answer's limit when meaning fills the rest.
    cjk = q.has_cjk(text)
    trigrams = q.trigram_terms(text) if cjk or len(out.found) < (pool // 2 if alone else request.limit) else None
    if trigrams:
        for record, bm25 in conn.search.trigram_candidates(caller, trigrams, request, pool):
            out.add(record, "lexical").trigram_bm25 = bm25
    if cjk:  # two-character CJK words, matched by LIKE
        for record in conn.search.substring_candidates(caller, q.short_cjk_terms(text), request, pool):
            out.add(record, "lexical").substring = True


def _as_looked_up(term: tuple[str, bool], found: dict[str, TermCount]) -> tuple[str, bool]:
    """A prefix term with one indexed word is looked up as that word: the same matches and bm25, cheaper."""
    only = found[term[0]].only_word
    return (only, False) if term[1] and only else term


def gather_semantic(
    conn: Store,
    caller: Caller,
    request: SearchRequest,
    index: VectorIndex,
    vector: Any,
    pool: int,
    out: Gathered,
    ahead: Nearest | None = None,
) -> None:
    """`ahead`: the vector's nearest records, found on the query-vector thread while words were gathered."""
    hits = index.search(vector, pool, ahead)
    allowed = _allowed(conn, caller, request, hits, out)
    if len(allowed) < pool // 4 and len(index) > pool:  # narrow filters: look further down the list
        hits = index.search(vector, pool * 8)
        allowed = _allowed(conn, caller, request, hits, out)
    for memory_id, cosine in hits:
        record = allowed.get(memory_id)
        if record is not None:
            out.add(record, "semantic").cosine = cosine
    missing = [memory_id for memory_id, item in out.found.items() if item.cosine is None]
    for memory_id, cosine in index.similarity(vector, missing).items():
        out.found[memory_id].cosine = cosine


def _allowed(
    conn: Store, caller: Caller, request: SearchRequest, hits: list[tuple[str, float]], out: Gathered
) -> dict[str, Memory]:
    """The hits this search may return; those found already passed the same filters (not read again)."""
    known = {memory_id: out.found[memory_id].record for memory_id, _ in hits if memory_id in out.found}
    return known | conn.search.filtered(caller, [memory_id for memory_id, _ in hits if memory_id not in known], request)


def gather_graph(
    conn: Store,
    caller: Caller,
    request: SearchRequest,
    seeds: dict[str, float],
    hops: int,
    out: Gathered,
    similarity: Callable[[list[str]], dict[str, float]] | None,
    filled: frozenset[str],
) -> None:
    """Neighbours of strong hits along typed links and shared entities, `hops` deep (`filled`: the
    optional tables holding rows, `store_stamps`).

    A neighbour's graph signal = the seed's relevance x link strength x hop decay.
    """
    frontier = dict(seeds)
    for hop in range(1, hops + 1):
        reached: dict[str, float] = {}
        ids = list(frontier)
        for seed, neighbour, link_type, weight in conn.search.linked(ids, filled):
            value = frontier[seed] * weight * LINK_TYPE_WEIGHT.get(link_type, 0.5) * HOP_DECAY ** (hop - 1)
            reached[neighbour] = max(reached.get(neighbour, 0.0), value)
        for seed, neighbour, shared in conn.search.shared_entities(ids):
            value = frontier[seed] * min(1.0, ENTITY_WEIGHT * shared) * HOP_DECAY ** (hop - 1)
            reached[neighbour] = max(reached.get(neighbour, 0.0), value)
        reached = {k: v for k, v in reached.items() if k not in seeds or v > out.found[k].graph}
        allowed = conn.search.filtered(caller, list(reached), request)
        new = [memory_id for memory_id in allowed if memory_id not in out.found]
        for memory_id, record in allowed.items():
            item = out.add(record, "graph")
            item.graph = max(item.graph, reached[memory_id])
        if similarity and new:
            for memory_id, cosine in similarity(new).items():
                out.found[memory_id].cosine = cosine
        frontier = {k: reached[k] for k in allowed if k not in seeds}
        if not frontier:
            break


def context_seeds(gathered: Gathered, count: int) -> list[str]:
    """The head of the words order and of the meaning order, half each: where the fused ranking's
    best come from, chosen without ranking (bm25: lower is better). None when no candidate has an
    event time: only those can have a session (`gather_neighbours`), and a store of notes has none."""
    if all(f.record.event_time is None for f in gathered.found.values()):
        return []
    found = gathered.found.items()
    by_words = sorted((f.word_bm25, k) for k, f in found if f.word_bm25 is not None)[: count // 2]
    by_meaning = sorted((-f.cosine, k) for k, f in found if f.cosine is not None)[: count // 2]
    return list(dict.fromkeys(k for _, k in by_words + by_meaning))


def gather_neighbours(
    conn: Store,
    caller: Caller,
    request: SearchRequest,
    seeds: list[str],
    out: Gathered,
    similarity: Callable[[list[str]], dict[str, float]] | None,
) -> None:
    """The turns written just before and after the best candidates in the same session (same
    event time and source, stored one after the other): a question's answer is often the reply
    to the turn that shares its words. They join as candidates ("context"); `ranking` lends
    each a share of its neighbour's score. Only a seed with an event time can have a session: a
    candidate without one is not looked up (a store of notes asks nothing)."""
    timed = [seed for seed in seeds if seed not in out.found or out.found[seed].record.event_time is not None]
    pairs = conn.neighbours.written_beside(timed)
    out.conversation = len({seed for seed, _ in pairs}) / len(seeds) if seeds else 0.0
    allowed = conn.search.filtered(caller, sorted({b for _, b in pairs} - set(out.found)), request)
    for record in allowed.values():
        out.add(record, "context")
    if similarity and allowed:
        for memory_id, cosine in similarity(list(allowed)).items():
            out.found[memory_id].cosine = cosine
    for seed, neighbour in pairs:
        if neighbour in out.found:
            out.beside.setdefault(seed, set()).add(neighbour)
            out.beside.setdefault(neighbour, set()).add(seed)


class _Weighed:
    """The request's terms with their idf weights, summed once for all the texts they are held against."""

    def __init__(self, terms: list[tuple[str, bool]], idf: dict[str, float]) -> None:
        self.terms = [(term, prefix, idf.get(term, 0.0)) for term, prefix in terms]
        self.total = sum(weight for _, _, weight in self.terms)
        # Terms of ASCII letters, digits and underscores are found in ASCII text without listing its words.
        self.plain = all(_PLAIN_TERM.fullmatch(term) for term, _, _ in self.terms)

    def share(self, text: str) -> float:
        """The idf-weighted share of the terms that the text contains."""
        if not self.total:
            return 0.0
        if self.plain and text.isascii():
            lowered = text.lower()  # what the word index sees of ASCII text
            return sum(weight for term, prefix, weight in self.terms if _found(lowered, term, prefix)) / self.total
        words = q.sorted_words(text)
        return sum(weight for term, prefix, weight in self.terms if _holds(words, term, prefix)) / self.total


def _holds(words: tuple[str, ...], term: str, prefix: bool) -> bool:
    """Whether a word of `words` (sorted) is `term`, or starts with it when `prefix`: the words
    starting with a prefix follow it directly in sorted order, so one bisection finds either."""
    at = bisect_left(words, term)
    return at < len(words) and (words[at].startswith(term) if prefix else words[at] == term)


_PLAIN_TERM = re.compile(r"[a-z0-9_]+")
_ASCII_WORD = frozenset(string.ascii_lowercase + string.digits + "_")  # `\w` in lowered ASCII text


def _found(lowered: str, term: str, prefix: bool) -> bool:
    """`_holds` for lowered ASCII text and a plain term, by searching the text: an occurrence with
    no word character before it is a word's start; with none after it either, a whole word. Most
    candidates' texts are new to a search, and listing and sorting their words costs more."""
    at = lowered.find(term)
    while at >= 0:
        end = at + len(term)
        if (at == 0 or lowered[at - 1] not in _ASCII_WORD) and (prefix or lowered[end : end + 1] not in _ASCII_WORD):
            return True
        at = lowered.find(term, at + 1)
    return False


def _trigram_coverage(terms: list[str], text: str) -> float:
    if not terms:
        return 0.0
    folded = q.folded(text)
    return sum(1 for t in terms if t in folded) / len(terms)


def lexical_signal(request: SearchRequest, gathered: Gathered) -> dict[str, float]:
    """Word relevance: mostly the idf-weighted share of the request's terms present (an absolute
    measure: a record matching one common word of five is weak however it ranks), a quarter
    the bm25 relative to the best hit."""
    result = gathered.lexical
    new = []
    for memory_id, item in gathered.found.items():
        if memory_id in result:
            continue
        if item.word_bm25 is None and item.trigram_bm25 is None and not item.substring:
            result[memory_id] = 0.0  # found by meaning, links or context alone: no terms to weigh
        else:
            new.append((memory_id, item))
    if not new:
        return result
    weighed = _Weighed(q.word_terms(gathered.word_text(request)), gathered.idf)
    best_word = min((f.word_bm25 for f in gathered.found.values() if f.word_bm25 is not None), default=0.0)
    best_tri = min((f.trigram_bm25 for f in gathered.found.values() if f.trigram_bm25 is not None), default=0.0)
    trigrams = q.trigram_terms(gathered.word_text(request)) if best_tri else []  # most searches ask no trigrams
    own = gathered.own_statistics
    for memory_id, item in new:
        record = item.record
        word = 0.0
        if item.word_bm25 is not None and best_word:
            coverage = weighed.share(" ".join([record.statement, *record.tags]) if record.tags else record.statement)
            word = coverage if own else 0.25 * item.word_bm25 / best_word + 0.75 * coverage
        tri = 0.0
        if item.trigram_bm25 is not None and best_tri:
            share = _trigram_coverage(trigrams, record.statement)
            tri = 0.8 * (share if own else 0.5 * item.trigram_bm25 / best_tri + 0.5 * share)
        result[memory_id] = max(word, tri, 0.6 if item.substring else 0.0)
    return result


def activity(record: Memory, now: datetime, rules: TierRules) -> tuple[float, float]:
    """A record's activation and recency (they depend on the record and the time alone): `ranking.rank`
    asks for them for its hits only, which most candidates are not."""
    return activation(record, now, rules), 0.5 ** _years_since(record.valid_from or record.learned_at, now)


def _years_since(moment: str | None, now: datetime) -> float:
    if not moment:
        return 1.0
    return max(0.0, (now - tiers.moment(moment)).total_seconds() / (365.25 * 86400))


def signals_for(
    request: SearchRequest,
    gathered: Gathered,
    domain_weights: dict[str, float],
    feedback: dict[str, tuple[int, int]],
    semantic_on: bool,
    span: DateSpan | None = None,
) -> dict[str, Signals]:
    """Every candidate's signals but its activity (`activity`, for the hits only: `ranking.rank` asks)."""
    lexical = lexical_signal(request, gathered)
    # A record's leading name lifts it among conversation turns only (`ranking.rank`): not looked up otherwise.
    names = q.request_names(request.query) if gathered.conversation else frozenset()
    top = max(domain_weights.values(), default=0.0)
    domains = {name: weight / top for name, weight in domain_weights.items()} if top else None
    neutral = bool(request.as_of or request.known_at)
    out: dict[str, Signals] = {}
    for memory_id, item in gathered.found.items():
        record = item.record
        votes = feedback.get(memory_id)  # most records have none
        out[memory_id] = Signals(
            lexical=lexical.get(memory_id, 0.0),
            cosine=item.cosine,
            semantic_on=semantic_on,
            graph=item.graph,
            domain=0.5 if domains is None else domains.get(record.domain, 0.0),
            feedback=feedback_value(*votes) if votes else 0.0,
            status_neutral=neutral,
            in_span=span is not None and _happened_in(record, span),
            named_subject=bool(names) and q.leading_name(record.statement) in names,
            why=item.why,  # read, never changed: the stages that found the record
        )
    return out


def other_words(request: SearchRequest, gathered: Gathered) -> Callable[[str, frozenset[str]], float]:
    """`share(text, names)`: the idf-weighted share of the request's word terms, the names' own
    terms left out, that the text holds (what a turn says about the request beyond who it names)."""
    terms = q.word_terms(gathered.word_text(request))
    kept: dict[frozenset[str], _Weighed] = {}

    def share(text: str, names: frozenset[str]) -> float:
        if names not in kept:
            left_out = {term for term, _ in q.word_terms(" ".join(names))}
            kept[names] = _Weighed([t for t in terms if t[0] not in left_out], gathered.idf)
        return kept[names].share(text)

    return share


def _happened_in(record: Memory, span: DateSpan) -> bool:
    """Whether the record's event (else the start of its validity) falls in the span asked about."""
    when = record.event_time or record.valid_from
    return when is not None and span.holds(tiers.moment(when))


def without_past(signals: dict[str, Signals], gathered: Gathered) -> dict[str, Signals]:
    """The candidates but past material (superseded, historical: the cold tier, for depth deep only)."""
    return {k: v for k, v in signals.items() if gathered.found[k].record.status not in PAST}
