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

Speed: the domain profiles are cached per store version (the latest event id and vector
rowid, two index look-ups), per caller visibility, so a route is pure arithmetic.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memvault.core.model import Caller
from memvault.core.retrieval import vocab
from memvault.core.store import domains as domain_store
from memvault.core.store.connection import Connection

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vector = npt.NDArray[np.float32]
else:
    Vector = Any

MIN_ACTIVE = 0.12  # below this a domain is not materially relevant
RELATIVE = 0.45  # a domain must reach this share of the best score to join it
MAX_ACTIVE = 6
SEM_FLOOR = 0.1  # cosine with a centroid below which there is no semantic evidence
SEM_SPAN = 0.3  # cosine above the floor that counts as full evidence
# Tuned on the retrieval evaluation set (tests/retrieval/eval_corpus.py, 146 paraphrased queries
# over 12 domains): see docs/domains.md for the figures.
W_LEXICAL, W_SEMANTIC = 0.3, 0.7
PINNED_LIFT = 0.05
PROFILE_TERMS = 40
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


@dataclass
class _Profile:
    name: str
    vocab: dict[str, float]
    priority: float
    pinned: bool
    depth: str
    token_share: float


@dataclass
class _Profiles:
    by_name: dict[str, _Profile]
    idf: dict[str, float]
    rows: list[dict[str, Any]]
    identity: str
    centroid_names: list[str] = field(default_factory=list)
    centroids: Vector | None = None  # rows L2-normalised, in centroid_names order
    centroids_ready: bool = False  # built on the first request that brings a vector
    counts: dict[tuple[str, str, str | None], dict[str, int]] = field(default_factory=dict)


@dataclass
class _Vocabularies:
    signature: tuple[Any, ...]
    by_name: dict[str, _Profile]
    idf: dict[str, float]


_CACHE: OrderedDict[tuple[str, int, int], _Profiles] = OrderedDict()
_VOCABULARIES: dict[str, _Vocabularies] = {}  # per store identity
_CACHE_SIZE = 8
_LOCK = threading.Lock()


# Learned terms cost a read of the statements: they are rebuilt only when the set of bare
# domains changes or their record count has moved by more than LEARNED_DRIFT since.
_LEARNED: dict[tuple[str, tuple[str, ...]], tuple[int, dict[str, list[tuple[str, float]]]]] = {}
LEARNED_DRIFT = 0.1
# Centroids of domains that have none stored yet (before the first discovery or refresh) are
# computed from their records' vectors, and recomputed only when the domain's size drifts.
_FALLBACK_CENTROIDS: dict[tuple[str, str], tuple[int, Vector | None]] = {}


def clear_cache() -> None:
    with _LOCK:
        _CACHE.clear()
        _VOCABULARIES.clear()
        _LEARNED.clear()
        _FALLBACK_CENTROIDS.clear()


def _learned_cached(conn: Connection, rows: list[dict[str, Any]]) -> dict[str, list[tuple[str, float]]]:
    bare = tuple(row["name"] for row in rows if not row["keywords"])
    if not bare:
        return {}
    size = domain_store.live_count_in(conn, bare)
    key = (domain_store.version(conn)[0], bare)
    with _LOCK:
        cached = _LEARNED.get(key)
    if cached is not None and abs(size - cached[0]) <= max(10, LEARNED_DRIFT * cached[0]):
        return cached[1]
    learned = _learned_terms(conn, rows)
    with _LOCK:
        if len(_LEARNED) > 2 * _CACHE_SIZE:
            _LEARNED.clear()
        _LEARNED[key] = (size, learned)
    return learned


def _vocabulary(row: dict[str, Any], learned: list[tuple[str, float]]) -> dict[str, float]:
    """Term -> weight: the name counts most, then keywords, then learned terms and the description."""
    weights: dict[str, float] = {}

    def add(text: str, weight: float) -> None:
        for term in vocab.terms(text):
            weights[term] = max(weights.get(term, 0.0), weight)

    add(row["description"], 0.5)
    top = learned[0][1] if learned else 1.0
    for term, score in learned:
        weights[term] = max(weights.get(term, 0.0), 0.2 + 0.65 * score / top)
    for keyword in row["keywords"]:
        add(str(keyword), 0.9)
    add(row["name"].replace("-", " ").replace("_", " "), 1.0)
    return weights


def _learned_terms(conn: Connection, rows: list[dict[str, Any]]) -> dict[str, list[tuple[str, float]]]:
    """For domains without curated keywords: the terms that set their statements apart from the rest."""
    bare = [row["name"] for row in rows if not row["keywords"]]
    if not bare:
        return {}
    docs = {name: [vocab.term_set(text) for text in domain_store.statements(conn, name)] for name in bare}
    frequencies = {name: vocab.document_frequencies(d) for name, d in docs.items()}
    everything = vocab.document_frequencies([])
    for counts in frequencies.values():
        everything.update(counts)
    total = sum(len(d) for d in docs.values())
    learned = {}
    for name in bare:
        inside = frequencies[name]
        rest = {term: n - inside.get(term, 0) for term, n in everything.items()}
        size = len(docs[name])
        learned[name] = vocab.distinctive_terms(inside, rest, size, total - size, limit=PROFILE_TERMS)
    return learned


def _numpy() -> Any:
    """numpy, imported on first use: the MCP bridge must start without paying for it."""
    import numpy  # noqa: PLC0415

    return numpy


def _decode_vector(blob: bytes | None) -> Vector | None:
    if not blob:
        return None
    np = _numpy()
    vector = np.frombuffer(blob, dtype=np.float32)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else None


def _mean_of(blobs: list[bytes]) -> Vector | None:
    if not blobs:
        return None
    # Vectors of another model (another length) after a model change are left out.
    usual = Counter(len(b) for b in blobs).most_common(1)[0][0]
    np = _numpy()
    mean = np.mean([np.frombuffer(b, dtype=np.float32) for b in blobs if len(b) == usual], axis=0)
    norm = float(np.linalg.norm(mean))
    return (mean / norm).astype(np.float32) if norm > 0 else None


def _centroid(conn: Connection, row: dict[str, Any], identity: str, size: int) -> Vector | None:
    stored = _decode_vector(row["centroid"])
    if stored is not None:
        return stored
    key = (identity, row["name"])
    with _LOCK:
        cached = _FALLBACK_CENTROIDS.get(key)
    if cached is not None and abs(size - cached[0]) <= max(10, LEARNED_DRIFT * cached[0]):
        return cached[1]
    centroid = _mean_of(domain_store.domain_vectors(conn, row["name"]))
    with _LOCK:
        _FALLBACK_CENTROIDS[key] = (size, centroid)
    return centroid


def _ensure_centroids(conn: Connection, profiles: _Profiles) -> None:
    if profiles.centroids_ready:
        return
    sizes = domain_store.live_counts(conn)
    names, vectors = [], []
    for row in profiles.rows:
        centroid = _centroid(conn, row, profiles.identity, sizes.get(row["name"], 0))
        if centroid is not None:
            names.append(row["name"])
            vectors.append(centroid)
    if vectors and len({v.shape for v in vectors}) == 1:
        profiles.centroid_names = names
        profiles.centroids = _numpy().vstack(vectors).astype("float32")
    profiles.centroids_ready = True


def _signature(rows: list[dict[str, Any]], learned: dict[str, list[tuple[str, float]]]) -> tuple[Any, ...]:
    """Everything the vocabularies are made of: when it is unchanged, so are they."""
    fields = ("name", "description", "priority", "pinned", "depth", "token_share")
    return (tuple((*(row[f] for f in fields), tuple(row["keywords"])) for row in rows), id(learned))


def _vocabularies(rows: list[dict[str, Any]], learned: dict[str, list[tuple[str, float]]]) -> _Vocabularies:
    by_name = {
        row["name"]: _Profile(
            name=row["name"],
            vocab=_vocabulary(row, learned.get(row["name"], [])),
            priority=float(row["priority"]),
            pinned=row["pinned"],
            depth=row["depth"],
            token_share=float(row["token_share"]),
        )
        for row in rows
    }
    df: dict[str, int] = {}
    for profile in by_name.values():
        for term in profile.vocab:
            df[term] = df.get(term, 0) + 1
    total = max(len(by_name), 1)
    # Squared: a term shared by half the domains says little about any one of them.
    idf = {term: (math.log(1 + total / n) / math.log(1 + total)) ** 2 for term, n in df.items()}
    return _Vocabularies(_signature(rows, learned), by_name, idf)


def _build(conn: Connection, identity: str) -> _Profiles:
    """Profiles for a new store version; the vocabularies are reused while the domains are unchanged
    (most writes change records, not domains)."""
    rows = domain_store.all_domains(conn)
    learned = _learned_cached(conn, rows)
    with _LOCK:
        known = _VOCABULARIES.get(identity)
    if known is None or known.signature != _signature(rows, learned):
        known = _vocabularies(rows, learned)
        with _LOCK:
            if len(_VOCABULARIES) > _CACHE_SIZE:
                _VOCABULARIES.clear()
            _VOCABULARIES[identity] = known
    return _Profiles(by_name=known.by_name, idf=known.idf, rows=rows, identity=identity)


def _profiles(conn: Connection, caller: Caller) -> tuple[_Profiles, dict[str, int]]:
    key = domain_store.version(conn)
    with _LOCK:
        profiles = _CACHE.get(key)
        if profiles is not None:
            _CACHE.move_to_end(key)
    if profiles is None:
        profiles = _build(conn, key[0])
        with _LOCK:
            _CACHE[key] = profiles
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    who = (caller.surface.value, caller.principal, caller.workspace_id)
    counts = profiles.counts.get(who)
    if counts is None:
        counts = domain_store.visible_counts(conn, caller)
        profiles.counts[who] = counts
    return profiles, counts


def _semantic(profiles: _Profiles, query_vector: Vector | None) -> dict[str, float]:
    if query_vector is None or profiles.centroids is None:
        return {}
    np = _numpy()
    q = np.asarray(query_vector, dtype=np.float32).reshape(-1)
    if q.shape[0] != profiles.centroids.shape[1]:
        return {}
    norm = float(np.linalg.norm(q))
    if norm == 0:
        return {}
    cosines = profiles.centroids @ (q / norm)
    return {name: float(c) for name, c in zip(profiles.centroid_names, cosines, strict=True)}


def _lexical(profile: _Profile, query_terms: frozenset[str], idf: dict[str, float]) -> tuple[float, tuple[str, ...]]:
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


def route(conn: Connection, caller: Caller, query_text: str, query_vector: Vector | None = None) -> RouteDecision:
    """Score every domain the caller may see against the request; activate the relevant ones."""
    profiles, counts = _profiles(conn, caller)
    visible = sorted(name for name in counts if name in profiles.by_name)
    if not visible:
        return RouteDecision(active=(), dormant=(), depth="normal", why="the store holds no records yet", broad=True)
    query_terms = vocab.term_set(query_text)
    if query_vector is not None:
        _ensure_centroids(conn, profiles)
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
