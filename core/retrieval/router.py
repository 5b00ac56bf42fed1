"""The router: which domains (regions) of the store a request should wake, and how deep to look.

`route(conn, caller, query_text, query_vector)` scores every domain the caller has
records in against the request and answers a `RouteDecision`:

- lexical: the request's words against the domain's name, keywords and description
  (keyword-less domains use the distinctive terms of their own statements), each
  match weighted by how rare the term is across domains;
- semantic: the cosine of the request's vector with the domain's centroid, when both exist;
- the domain's priority scales the score; a pinned domain gets a small lift.

Every materially relevant domain is activated (several for cross-domain requests);
the rest stay dormant and contribute nothing. When no domain matches at all, the
decision is `broad`: every domain is active with the same weight, and the search may
still find something lexically.

Once the search has gathered its candidates, `judged(decision, evidence, text)` looks again with
what the records themselves say (`Evidence`: the nearest cosine, the mean of the ten nearest, the
best lexical signal): when the request does not speak of the person and no domain and no record
matches it, by words or by meaning, it is off-topic for this memory and the decision activates
nothing (`off_topic`); the governor then skips the search with its reason.

What each domain is known by comes from `domain_profiles`: the full view for local callers,
and for remote and workspace callers only what their own visible records teach (so the
routing weights a search returns reveal nothing of records they may not see). Profiles are
cached per store version and view, so a route is pure arithmetic.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memvault.core.retrieval import vocab
from memvault.core.retrieval.domain_profiles import (
    Profile,
    Profiles,
    StoreVersion,
    clear_cache,
    ensure_centroids,
    numpy_module,
    profiles_for,
)
from memvault.core.retrieval.query import is_personal
from memvault.core.store.seam import Store
from memvault.core.vocabulary.model import Caller

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vector = npt.NDArray[np.float32]
else:
    Vector = Any

__all__ = ["DomainRoute", "Evidence", "RouteDecision", "clear_cache", "judged", "route"]

MIN_ACTIVE = 0.12  # below this a domain is not materially relevant
RELATIVE = 0.45  # a domain must reach this share of the best score to join it
MAX_ACTIVE = 6
SEM_FLOOR = 0.1  # cosine with a centroid below which there is no semantic evidence
SEM_SPAN = 0.3  # cosine above the floor that counts as full evidence
# Tuned on the retrieval evaluation set (tests/retrieval/eval_corpus.py, 146 paraphrased queries
# over 12 domains): see docs/domains.md for the figures.
W_LEXICAL, W_SEMANTIC = 0.3, 0.7
PINNED_LIFT = 0.05
# Off-topic (`judged`): every one of these signals must stay below its bound. Chosen on the tune half
# of tests/retrieval/offtopic_set.py with no answerable request of the fictional evaluation set or of
# LoCoMo dev judged off-topic; figures in docs/decisions/0018-off-topic-requests-activate-nothing.md.
OFF_TOPIC_COSINE = 0.40  # the nearest record's cosine
OFF_TOPIC_NEAR = 0.175  # the mean cosine of the ten nearest records: the request's neighbourhood here
OFF_TOPIC_LEXICAL = 0.7  # the best lexical signal: a record holding most of the request's rare words
OFF_TOPIC_ROUTE = 0.3  # the best domain score
NEAR_COUNT = 10
DEPTH_ORDER = ("shallow", "normal", "deep")
_HISTORY_CUES = re.compile(
    r"\b(history|historical|timeline|used to|previously|formerly|before|earlier|changed|change|ever|"
    r"originally|over time|when did|how has|evolv\w*|past)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DomainRoute:
    name: str
    weight: float
    score: float
    lexical: float
    semantic: float | None
    matched: tuple[str, ...]
    depth: str
    token_share: float


@dataclass(frozen=True)
class RouteDecision:
    active: tuple[DomainRoute, ...]
    dormant: tuple[str, ...]
    depth: str
    why: str
    broad: bool = False
    scores: dict[str, float] = field(default_factory=dict)
    off_topic: bool = False  # no domain and no record matches the request (`judged`): nothing is active

    @property
    def weights(self) -> dict[str, float]:
        return {d.name: d.weight for d in self.active}

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.active)

    def weight(self, name: str) -> float:
        """The weight of a domain in this request (0.0 for dormant ones)."""
        return self.weights.get(name, 0.0)

    def as_contract(self) -> list[dict[str, Any]]:
        """`domains` of the memory_search answer: [{"name", "weight"}], heaviest first."""
        return [{"name": d.name, "weight": round(d.weight, 3)} for d in self.active]


@dataclass(frozen=True)
class Evidence:
    """What the records a search can reach say about its request: the cosine of the nearest, the mean
    cosine of the `NEAR_COUNT` nearest, and the best lexical signal (`hybrid.lexical_signal`)."""

    best_cosine: float
    near_cosine: float
    best_lexical: float

    @classmethod
    def of(cls, candidates: Iterable[tuple[float | None, float]]) -> Evidence | None:
        """From the candidates' (cosine, lexical signal) pairs; None when meaning cannot be judged: no
        candidate has a vector, or one the words found has none yet (it is not embedded)."""
        cosines: list[float] = []
        best_lexical = 0.0
        for cosine, lexical in candidates:
            if cosine is None:
                if lexical > 0:
                    return None
                continue
            cosines.append(cosine)
            best_lexical = max(best_lexical, lexical)
        if not cosines:
            return None
        nearest = sorted(cosines, reverse=True)[:NEAR_COUNT]
        return cls(nearest[0], sum(nearest) / len(nearest), best_lexical)

    def matches_nothing(self) -> bool:
        return (
            self.best_cosine < OFF_TOPIC_COSINE
            and self.near_cosine < OFF_TOPIC_NEAR
            and self.best_lexical < OFF_TOPIC_LEXICAL
        )


def judged(decision: RouteDecision, evidence: Evidence | None, query_text: str) -> RouteDecision:
    """The route once the records have been heard: unchanged, unless the request does not speak of
    the person (`query.is_personal`), no domain scores `OFF_TOPIC_ROUTE` and the records match
    nothing (`Evidence.matches_nothing`); then a decision that activates nothing (`off_topic`).
    Without evidence (embeddings off, the semantic stage cut at the deadline, records not embedded
    yet) nothing is judged: a wrong skip hides memory."""
    if evidence is None or not evidence.matches_nothing() or is_personal(query_text):
        return decision
    if max(decision.scores.values(), default=0.0) >= OFF_TOPIC_ROUTE:
        return decision
    return RouteDecision(
        active=(),
        dormant=tuple(sorted(decision.scores)),
        depth=decision.depth,
        why=(
            f"off-topic: no domain scored {OFF_TOPIC_ROUTE}; nearest record cosine {evidence.best_cosine:.2f}, "
            f"ten nearest {evidence.near_cosine:.2f}, best lexical {evidence.best_lexical:.2f}"
        ),
        scores=decision.scores,
        off_topic=True,
    )


def _semantic(profiles: Profiles, query_vector: Vector | None) -> dict[str, float]:
    if query_vector is None or profiles.centroids is None:
        return {}
    np = numpy_module()
    q = np.asarray(query_vector, dtype=np.float32).reshape(-1)
    if q.shape[0] != profiles.centroids.shape[1]:
        return {}
    norm = float(np.linalg.norm(q))
    if norm == 0:
        return {}
    cosines = (profiles.centroids @ (q / norm)).tolist()  # Python floats at once, not numpy scalars one by one
    return dict(zip(profiles.centroid_names, cosines, strict=True))


def _lexical(profile: Profile, query_terms: frozenset[str], idf: dict[str, float]) -> tuple[float, tuple[str, ...]]:
    matched = sorted(t for t in query_terms if t in profile.vocab)
    raw = sum(profile.vocab[t] * idf.get(t, 1.0) for t in matched)
    return 1.0 - math.exp(-1.5 * raw), tuple(matched)


def _depth(query_text: str, active: list[DomainRoute]) -> tuple[str, str]:
    if _HISTORY_CUES.search(query_text):
        return "deep", "the request asks about history"
    if not active:
        return "normal", "no domain to take a depth from"
    top = max(active, key=lambda d: d.weight)
    if len(active) >= 3 and top.depth == "shallow":
        return "normal", "several domains are involved"
    return top.depth, f"the depth of {top.name}"


def likely_depth(conn: Store, caller: Caller, query_text: str, *, version: StoreVersion | None = None) -> str:
    """The depth `route` will most likely choose, known before the request's vector: the history
    cue's, else the one depth all the caller's domains share ("normal" when they differ)."""
    profiles, in_use = profiles_for(conn, caller, version)
    depths = {profiles.by_name[name].depth for name in in_use if name in profiles.by_name}
    history, _ = _depth(query_text, [])
    return history if history == "deep" or len(depths) != 1 else depths.pop()


def route(
    conn: Store,
    caller: Caller,
    query_text: str,
    query_vector: Vector | None = None,
    *,
    version: StoreVersion | None = None,
) -> RouteDecision:
    """Score every domain the caller may see against the request; activate the relevant ones.
    `version`: the store's `DomainRows.version` when the caller read it already in this snapshot."""
    profiles, in_use = profiles_for(conn, caller, version)
    visible = sorted(name for name in in_use if name in profiles.by_name)
    if not visible:
        return RouteDecision(active=(), dormant=(), depth="normal", why="the store holds no records yet", broad=True)
    query_terms = vocab.term_set(query_text)
    if query_vector is not None:
        ensure_centroids(conn, profiles, caller)
    cosines = _semantic(profiles, query_vector)
    routes: list[DomainRoute] = []
    scores: dict[str, float] = {}
    for name in visible:
        profile = profiles.by_name[name]
        lexical, matched = _lexical(profile, query_terms, profiles.idf)
        cosine = cosines.get(name)
        if cosine is None:
            score = lexical if not cosines else W_LEXICAL * lexical
            semantic = None
        else:
            semantic = min(1.0, max(0.0, (cosine - SEM_FLOOR) / SEM_SPAN))
            score = W_LEXICAL * lexical + W_SEMANTIC * semantic
        score *= 0.75 + 0.5 * profile.priority
        if profile.pinned and score > 0:
            score += PINNED_LIFT
        scores[name] = round(score, 4)
        routes.append(DomainRoute(name, 0.0, score, lexical, semantic, matched, profile.depth, profile.token_share))
    best = max(r.score for r in routes)
    if best < MIN_ACTIVE:
        return _broad(query_text, routes, scores)
    chosen = [r for r in routes if r.score >= max(MIN_ACTIVE, RELATIVE * best)]
    chosen.sort(key=lambda r: (-r.score, r.name))
    chosen = chosen[:MAX_ACTIVE]
    total = sum(r.score for r in chosen)
    active = [_weighted(r, r.score / total) for r in chosen]
    depth, depth_why = _depth(query_text, active)
    dormant = tuple(sorted(set(visible) - {r.name for r in active}))
    why = "; ".join(_explain(r) for r in active) + f"; depth {depth}: {depth_why}"
    return RouteDecision(active=tuple(active), dormant=dormant, depth=depth, why=why, scores=scores)


def _weighted(r: DomainRoute, weight: float) -> DomainRoute:
    return DomainRoute(r.name, weight, r.score, r.lexical, r.semantic, r.matched, r.depth, r.token_share)


def _explain(r: DomainRoute) -> str:
    parts = []
    if r.matched:
        parts.append(f"{len(r.matched)} matching term(s)")
    if r.semantic:
        parts.append(f"semantic {r.semantic:.2f}")
    return f"{r.name} {r.weight:.2f} ({', '.join(parts) or 'priority'})"


def _broad(query_text: str, routes: list[DomainRoute], scores: dict[str, float]) -> RouteDecision:
    """Nothing matched: every domain stays reachable with the same weight, none favoured."""
    active = [_weighted(r, 1.0 / len(routes)) for r in sorted(routes, key=lambda r: r.name)]
    depth, _ = _depth(query_text, [])
    return RouteDecision(
        active=tuple(active),
        dormant=(),
        depth=depth,
        why="no domain matched the request: every domain is searched, none favoured",
        broad=True,
        scores=scores,
    )
