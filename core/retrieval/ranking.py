"""The ranking formula: relevance decides whether a record is a hit; rank fusion, relevance and
priors decide the order.

    direct    = 1 - (1 - w_lexical * lexical) * (1 - w_semantic * semantic)
                (a noisy OR: either signal alone can make a record relevant, both together more;
                 with embeddings off, or for a record not embedded yet, direct = lexical)
    relevance = direct + w_graph * graph * (1 - direct)
    fused     = sum over the candidates' orders by lexical (counted 1 + c times), by cosine and by
                graph signal of 1 / (FUSION_K + place), scaled so that first everywhere is 1
    own       = fused * relevance ** (RELEVANCE_POWER - TURNS_POWER_DROP * c)
                      * (1 + DATE_LIFT if in the date the request names)
    c         = the share of the strongest candidates that are turns of a stored conversation
                (0 for notes and facts: the formula is then the one fitted to them)
    score     = (own + NEIGHBOUR_SHARE * own of the best relevant record written beside it)
                      * (1 + w_domain * domain + w_status * status + w_confidence * confidence
                           + w_importance * importance + w_recency * recency
                           + w_activation * activation + w_explicit * explicit
                           + w_feedback * feedback)
                      * (1 + SPEAKER_LIFT * c if the record starts with a name the request names)

The fused rank depends on places only, not on any signal's scale, so words and meaning count
alike on text whose score ranges the weights were never tuned on (the weights of `relevance`
were fitted to the fictional set). Among a conversation's turns meaning orders less well than
words: turns are short and said in one voice, so their vectors crowd together (the best ten
candidates' cosines spread half as far as among standalone notes) and the words a question
shares with the turn that answers it say more; so words count twice there, and relevance
(mostly meaning) orders less. And a turn is about its speaker: a question naming a person is
mostly answered by that person's turns ("Caroline: ..."), so those count more. Relevance still
orders within the fused rank, and alone decides
whether a candidate is a hit at all: below `rank_min_relevance` it is not, however important,
unless it holds nearly every word of the request (lexical >= WORDS_SUFFICE: a long paragraph
naming the one rare name asked about has a weak vector but answers), or sits beside a hit in
its session (the reply to a matching turn).
The priors reorder relevant records, they never make an irrelevant one relevant.
Last, `hold_back`: a request naming a speaker of stored turns whose other words match what
someone else said better than anything that speaker said is likely about the wrong person; the
other speakers' turns and the hits far below the best leave its first `limit` hits.
Every signal is in 0..1 (feedback in -1..1); docs/retrieval.md defines each one.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from operator import itemgetter
from typing import Any

from memvault.core.retrieval import query as q
from memvault.core.vocabulary.model import Explicitness, Memory, Status

STATUS_VALUE = {
    Status.CURRENT: 1.0,
    Status.PARTIAL: 0.6,
    Status.DISPUTED: 0.4,
    Status.HISTORICAL: 0.2,
    Status.SUPERSEDED: 0.0,
    Status.ARCHIVED: 0.0,
}
EXPLICIT_VALUE = {Explicitness.EXPLICIT: 1.0, Explicitness.CONSOLIDATED: 0.5, Explicitness.INFERRED: 0.0}
SEMANTIC_SPAN = 0.45  # cosine from floor to floor + span maps onto 0..1


@dataclass(frozen=True)
class Weights:
    lexical: float = 0.1
    semantic: float = 0.65
    graph: float = 0.5
    domain: float = 0.1
    status: float = 0.25
    confidence: float = 0.0
    importance: float = 0.5
    recency: float = 0.0
    activation: float = 0.1
    explicit: float = 0.05
    feedback: float = 0.15
    min_relevance: float = 0.15
    semantic_floor: float = 0.15

    @classmethod
    def from_settings(cls, get: Callable[[str], Any]) -> Weights:
        values = {}
        for item in fields(cls):
            name = item.name if item.name in ("min_relevance", "semantic_floor") else f"w_{item.name}"
            values[item.name] = float(get(f"rank_{name}"))
        return cls(**values)


@dataclass(slots=True)
class Signals:
    """What the candidate stages found out about one record (all 0..1 unless noted)."""

    lexical: float = 0.0
    cosine: float | None = None  # similarity of the request's and the record's vectors, when both exist
    semantic_on: bool = False  # embeddings are on for this search (else relevance is lexical alone)
    graph: float = 0.0
    domain: float = 0.5
    recency: float = 0.5
    activation: float = 1.0
    feedback: float = 0.0  # -1..1
    status_neutral: bool = False  # as_of / known_at: the status now says nothing about then
    in_span: bool = False  # the record's event falls in the date the request names
    # The record starts with a name the request names (its subject, a turn's speaker); looked up only
    # among conversation turns, where alone it counts.
    named_subject: bool = False
    why: list[str] = field(default_factory=list)


def semantic_relevance(cosine: float, floor: float) -> float:
    return min(1.0, max(0.0, (cosine - floor) / SEMANTIC_SPAN))


def relevance(signals: Signals, weights: Weights) -> float:
    if not signals.semantic_on or signals.cosine is None:
        direct = signals.lexical  # no vector to judge meaning by (embeddings off, or not embedded yet)
    else:
        semantic = semantic_relevance(signals.cosine, weights.semantic_floor)
        from_words = min(1.0, weights.lexical * signals.lexical)
        from_meaning = min(1.0, weights.semantic * semantic)
        direct = 1.0 - (1.0 - from_words) * (1.0 - from_meaning)
    return direct + weights.graph * signals.graph * (1.0 - direct)


def prior(record: Memory, signals: Signals, weights: Weights) -> float:
    status = 1.0 if signals.status_neutral else STATUS_VALUE[record.status]
    return (
        weights.domain * signals.domain
        + weights.status * status
        + weights.confidence * record.confidence
        + weights.importance * record.importance
        + weights.recency * signals.recency
        + weights.activation * signals.activation
        + weights.explicit * EXPLICIT_VALUE[record.explicitness]
        + weights.feedback * signals.feedback
    )


def feedback_value(useful: int, not_useful: int) -> float:
    """A damped balance: one vote moves it a third of the way, many votes approach +-1."""
    return (useful - not_useful) / (useful + not_useful + 2)


FUSION_K = 5.0  # reciprocal-rank constant: small, so the first few places count clearly more
RELEVANCE_POWER = 1.5  # how far the absolute relevance still orders the fused ranks
WORDS_SUFFICE = 0.9  # a record holding (nearly) every word of the request is a hit, whatever its vector
NEIGHBOUR_SHARE = 0.5  # how much of a hit's score the turn written beside it borrows
DATE_LIFT = 2.0  # a record whose event falls in the date the request names counts three times
TURNS_WORDS_EXTRA = 1.0  # among conversation turns the words order counts this much more
TURNS_POWER_DROP = 0.75  # ... and relevance orders less: power 1.5 -> 0.75
SPEAKER_LIFT = 0.5  # ... and a turn said by the person the request names counts 1.5 times
UNSURE_SHARE = 0.35  # a request likely about the wrong person keeps only hits scored this near the best
MARGIN = 1e-9  # what rounding may move a score by (relative): a bound this close still counts as reached


def fused_ranks(items: list[tuple[Memory, Signals]], words_weight: float = 1.0) -> dict[str, float]:
    """Reciprocal-rank fusion of the candidates' orders by words (counted `words_weight` times),
    by meaning and by links, scaled to 0..1 (1: first in every order). Ranks, not scores: no
    corpus's score scale leaks in."""
    orders = [  # (-value, id): sorted as they are, the best first and ties by id
        (words_weight, [(-s.lexical, r.id) for r, s in items if s.lexical > 0]),
        (1.0, [(-s.cosine, r.id) for r, s in items if s.semantic_on and s.cosine is not None]),
        (1.0, [(-s.graph, r.id) for r, s in items if s.graph > 0]),
    ]
    fused: dict[str, float] = {}
    used = 0.0
    for weight, entries in orders:
        if not entries:
            continue
        used += weight
        entries.sort()
        for place, (_, memory_id) in enumerate(entries):
            fused[memory_id] = fused.get(memory_id, 0.0) + weight / (FUSION_K + place + 1)
    top = used / (FUSION_K + 1) if used else 1.0
    return {k: v / top for k, v in fused.items()}


def _relevant(items: list[tuple[Memory, Signals]], weights: Weights) -> dict[str, float]:
    """The relevance of every candidate at or above the floor (the rest are not hits on their own)."""
    relevant: dict[str, float] = {}
    for record, signals in items:
        rel = relevance(signals, weights)
        if WORDS_SUFFICE and signals.lexical >= WORDS_SUFFICE:
            rel = max(rel, weights.min_relevance)
        if rel >= weights.min_relevance and rel > 0:
            relevant[record.id] = rel
    return relevant


def rank(
    items: list[tuple[Memory, Signals]],
    weights: Weights,
    beside: Mapping[str, set[str]] | None = None,
    conversation: float = 0.0,
    activity: Callable[[Memory], tuple[float, float]] | None = None,
    keep: int | None = None,
) -> list[tuple[Memory, Signals, float]]:
    """Hits, best first: (own + NEIGHBOUR_SHARE x the best neighbour's own) x (1 + priors), where
    own = fused rank x relevance^p x (1 + DATE_LIFT if the record's event is in the date asked about).

    A hit has relevance at or above the floor, or sits beside one (`beside`: records written next
    to each other in one session, e.g. the reply to a matching turn); such a record counts with the
    floor's relevance. `conversation` (0..1): the share of the strongest candidates that are turns
    of a stored conversation; words count more and relevance less as it grows. `activity`: a record's
    activation and recency, asked for the hits only and set in their signals (None: the signals hold them).
    `keep`: only the first `keep` hits are wanted; they come first as ever, and a hit that could not
    reach them whatever its activation and recency is left out without asking its activity.
    """
    fused = fused_ranks(items, 1.0 + TURNS_WORDS_EXTRA * conversation)
    power = RELEVANCE_POWER - TURNS_POWER_DROP * conversation
    relevant = _relevant(items, weights)
    around = beside or {}
    own: dict[str, float] = {}
    for record, signals in items:
        rel = relevant.get(record.id)
        if rel is None:
            if not any(n in relevant for n in around.get(record.id, ())):
                continue
            rel = weights.min_relevance
        own[record.id] = fused.get(record.id, 0.0) * rel**power * (1.0 + DATE_LIFT * signals.in_span)
    hits = []
    for record, signals in items:
        mine = own.get(record.id)
        if mine is not None:
            near = around.get(record.id)
            context = max((own[n] for n in near if n in relevant), default=0.0) if near else 0.0
            lift = 1.0 + SPEAKER_LIFT * conversation * signals.named_subject
            hits.append((mine + NEIGHBOUR_SHARE * context, lift, record, signals))
    if activity is not None and keep is not None and len(hits) > keep:
        hits = _within_reach(hits, weights, keep)
    scored = []
    for base, lift, record, signals in hits:
        if activity is not None:
            signals.activation, signals.recency = activity(record)
        value = base * (1.0 + prior(record, signals, weights))
        value *= lift
        scored.append((-value, record.id, record, signals))
    scored.sort()  # the best first, ties by id (unique: the records never compare)
    return [(record, signals, -value) for value, _, record, signals in scored]


Unscored = tuple[float, float, Memory, Signals]  # own + the neighbour's share, the speaker lift, record, signals


def _within_reach(hits: list[Unscored], weights: Weights, keep: int) -> list[Unscored]:
    """The hits that could be among the first `keep`, whatever their activation and recency (each in
    0..1, the only priors not known yet): best bound first, each scored at its lowest, until the next
    bound falls below the `keep`-th lowest score. The others cannot reach the first `keep`."""
    top_a, top_r = float(weights.activation > 0), float(weights.recency > 0)
    low_a, low_r = 1.0 - top_a, 1.0 - top_r
    bounded = []
    for hit in hits:
        base, lift, record, signals = hit
        known = (
            prior(record, signals, weights)
            - weights.activation * signals.activation
            - weights.recency * signals.recency
        )
        high = known + weights.activation * top_a + weights.recency * top_r
        low = known + weights.activation * low_a + weights.recency * low_r
        bounded.append((-base * (1.0 + high) * lift, base * (1.0 + low) * lift, hit))
    bounded.sort(key=itemgetter(0))
    floor: list[float] = []  # the `keep` highest lowest-scores so far (a heap: the least first)
    reach = []
    for high, low, hit in bounded:
        if len(floor) == keep and -high < floor[0] * (1.0 - MARGIN):
            break
        reach.append(hit)
        if len(floor) < keep:
            heapq.heappush(floor, low)
        elif low > floor[0]:
            heapq.heapreplace(floor, low)
    return reach


Ranked = list[tuple[Memory, Signals, float]]


def hold_back(
    ranked: Ranked, limit: int, names: frozenset[str], words: Callable[[str, frozenset[str]], float]
) -> tuple[Ranked, int]:
    """The first `limit` hits without those that answer for someone else, and how many were held back.

    A request naming a speaker of stored turns ("Caroline: ...") asks about that person. When its
    other words (`words(text, names)`: the idf-weighted share of the request's terms but the names
    that a text holds) match what another speaker said better than anything the named one said
    among the first `limit` hits, the request is likely about the wrong person: those other
    speakers' turns answer for them, not for the one asked about, and the rest is no confident
    answer either. So the other speakers' turns are held back, and so is every hit scored below
    UNSURE_SHARE of the best; the list is not refilled from below (what ranked lower is no more
    confident). A turn that names the person asked about ("Melanie: Thanks, Caroline! ...") is
    kept: it speaks to them. Notes (no "Name:" speaker) and requests naming no speaker are left
    as they are.
    """
    head = ranked[:limit]
    speakers = {r.id: q.speaker_of(r.statement) for r, _, _ in head} if names else {}
    named = names & set(speakers.values())
    if not named:
        return ranked, 0
    said = [(speakers[r.id] in named, words(r.statement, named)) for r, _, _ in head if speakers[r.id]]
    if max((w for by_named, w in said if not by_named), default=0.0) <= max((w for by_named, w in said if by_named)):
        return ranked, 0
    floor = UNSURE_SHARE * head[0][2]
    kept = [
        (record, signals, value)
        for record, signals, value in head
        if value >= floor and (speakers[record.id] in (None, *named) or named & q.index_words(record.statement))
    ]
    return (kept, len(head) - len(kept)) if len(kept) < len(head) else (ranked, 0)
