"""What the router knows about each domain, built once per store version and *per view*.

A domain's profile is its vocabulary (term -> weight), its priority, pin, depth and token
share, and (on demand) its centroid. Two views exist:

- the **full view**, for local callers: the name, the stored keywords, description and
  centroid (derived from every record), and for keyword-less domains the distinctive
  terms of their statements;
- a **restricted view** per remote or workspace caller: the name, the keywords the person
  set, and what that caller's own visible records teach (their distinctive terms, their
  vectors' mean). Derived keywords, descriptions and centroids are left out: they come from
  records the caller may not see: otherwise a request's routing weights (returned as
  `domains` by memory_search) could reveal words of hidden records.

Caches: profiles per (store identity, version, view); vocabularies per (identity, view)
while the domains are unchanged; learned terms and fallback centroids per (identity,
view, domain set) until the records they were learned from drift by LEARNED_DRIFT (counted only
once the writes since the last count could have moved them that far).
"""

from __future__ import annotations

import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memvault.core.retrieval import vocab
from memvault.core.runtime.text_caches import register
from memvault.core.store.seam import Store
from memvault.core.vocabulary.model import Caller

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vector = npt.NDArray[np.float32]
else:
    Vector = Any

PROFILE_TERMS = 40
LEARNED_DRIFT = 0.1
CACHE_SIZE = 8
View = tuple[str, str, str | None] | None  # None: the full (local) view
Learned = dict[str, list[tuple[str, float]]]


@dataclass
class Profile:
    name: str
    vocab: dict[str, float]
    priority: float
    pinned: bool
    depth: str
    token_share: float


@dataclass
class Profiles:
    by_name: dict[str, Profile]
    idf: dict[str, float]
    rows: list[dict[str, Any]]
    identity: str
    counter: int  # the store's write counter at this version
    view: View
    centroid_names: list[str] = field(default_factory=list)
    centroids: Vector | None = None  # rows L2-normalised, in centroid_names order
    centroids_ready: bool = False  # built on the first request that brings a vector
    in_use: dict[tuple[str, str, str | None], frozenset[str]] = field(default_factory=dict)


@dataclass
class _Counted:
    """The live count a cached value was made from, and the last exact count with the store's
    write counter then (every row a write changes moves the counter by at least one)."""

    size: int
    checked_size: int
    checked_at: int

    def surely_within(self, counter: int) -> bool:
        """The live count cannot have drifted yet: it moves by at most one per counted write."""
        writes = counter - self.checked_at
        return writes >= 0 and abs(self.checked_size - self.size) + writes <= _drift_limit(self.size)

    def checked(self, size: int, counter: int) -> None:
        with _LOCK:
            self.checked_size, self.checked_at = size, counter


@dataclass
class _Vocabularies:
    signature: tuple[Any, ...]
    by_name: dict[str, Profile]
    idf: dict[str, float]


_LOCK = threading.Lock()
_PROFILES: OrderedDict[tuple[str, int, int, View], Profiles] = OrderedDict()
_VOCABULARIES: dict[tuple[str, View], _Vocabularies] = {}
_LEARNED: dict[tuple[str, View, tuple[str, ...]], tuple[_Counted, Learned]] = {}
_FALLBACK_CENTROIDS: dict[tuple[str, View, str], tuple[_Counted, Vector | None]] = {}


def clear_cache() -> None:
    with _LOCK:
        _PROFILES.clear()
        _VOCABULARIES.clear()
        _LEARNED.clear()
        _FALLBACK_CENTROIDS.clear()


register(clear_cache)  # the profiles hold keywords read from statements


def view_of(caller: Caller) -> View:
    return None if caller.is_local else (caller.surface.value, caller.principal, caller.workspace_id)


def _viewer(view: View, caller: Caller) -> Caller | None:
    """The caller whose visibility limits the reads of a view (None: everything)."""
    return None if view is None else caller


def _drift_limit(cached: int) -> float:
    return max(10, LEARNED_DRIFT * cached)


def _drifted(size: int, cached: int) -> bool:
    return abs(size - cached) > _drift_limit(cached)


# -- vocabularies ----------------------------------------------------------------------------
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


def _learned_terms(conn: Store, bare: tuple[str, ...], viewer: Caller | None) -> Learned:
    """For domains without keywords: the terms that set their statements apart from the rest."""
    docs = {name: [vocab.term_set(t) for t in conn.domains.statements(name, viewer=viewer)] for name in bare}
    frequencies = {name: vocab.document_frequencies(d) for name, d in docs.items()}
    everything: Counter[str] = Counter()
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


def _learned_cached(
    conn: Store, rows: list[dict[str, Any]], identity: str, view: View, caller: Caller, counter: int
) -> Learned:
    """The learned terms, learned again once the live records they come from drift by
    LEARNED_DRIFT; counted only when the writes since the last count could have moved them so far
    (`counter`: the store's write counter)."""
    # A restricted view learns every domain from the caller's own records (the person's few
    # keywords are not enough to route by); the full view only domains without keywords.
    bare = tuple(row["name"] for row in rows if view is not None or not row["keywords"])
    if not bare:
        return {}
    key = (identity, view, bare)
    with _LOCK:
        cached = _LEARNED.get(key)
    if cached is not None and cached[0].surely_within(counter):
        return cached[1]
    viewer = _viewer(view, caller)
    size = conn.domains.live_count_in(bare, viewer=viewer)
    if cached is not None and not _drifted(size, cached[0].size):
        cached[0].checked(size, counter)
        return cached[1]
    learned = _learned_terms(conn, bare, viewer)
    with _LOCK:
        if len(_LEARNED) > 4 * CACHE_SIZE:
            _LEARNED.clear()
        _LEARNED[key] = (_Counted(size, size, counter), learned)
    return learned


def _signature(rows: list[dict[str, Any]], learned: Learned) -> tuple[Any, ...]:
    """Everything the vocabularies are made of: when it is unchanged, so are they."""
    fields = ("name", "description", "priority", "pinned", "depth", "token_share")
    return (tuple((*(row[f] for f in fields), tuple(row["keywords"])) for row in rows), id(learned))


def _vocabularies(rows: list[dict[str, Any]], learned: Learned) -> _Vocabularies:
    by_name = {
        row["name"]: Profile(
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


def _rows_for(view: View, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A restricted view sees nothing derived from records (keywords memvault learned,
    descriptions, centroids): only names and the person's settings, their own keywords included."""
    if view is None:
        return rows
    return [{**row, "keywords": row["curated"], "description": "", "centroid": None} for row in rows]


def _build(conn: Store, identity: str, counter: int, view: View, caller: Caller) -> Profiles:
    """Profiles for a new store version; the vocabularies are reused while the domains are
    unchanged (most writes change records, not domains)."""
    rows = _rows_for(view, conn.domains.all_domains())
    learned = _learned_cached(conn, rows, identity, view, caller, counter)
    with _LOCK:
        known = _VOCABULARIES.get((identity, view))
    if known is None or known.signature != _signature(rows, learned):
        known = _vocabularies(rows, learned)
        with _LOCK:
            if len(_VOCABULARIES) > 4 * CACHE_SIZE:
                _VOCABULARIES.clear()
            _VOCABULARIES[(identity, view)] = known
    return Profiles(by_name=known.by_name, idf=known.idf, rows=rows, identity=identity, counter=counter, view=view)


# The store's identity, write counter and latest event id (`DomainRows.version`).
StoreVersion = tuple[str, int, int]


def profiles_for(conn: Store, caller: Caller, version: StoreVersion | None = None) -> tuple[Profiles, frozenset[str]]:
    """The profiles of the caller's view at the store's current version (`version`, when the caller
    read it in this snapshot already: a search reads it once), and the domains the caller has live
    records in."""
    identity, counter, last_event = version or conn.domains.version()
    view = view_of(caller)
    key = (identity, counter, last_event, view)
    with _LOCK:
        profiles = _PROFILES.get(key)
        if profiles is not None:
            _PROFILES.move_to_end(key)
    if profiles is None:
        profiles = _build(conn, identity, counter, view, caller)
        with _LOCK:
            _PROFILES[key] = profiles
            while len(_PROFILES) > CACHE_SIZE:
                _PROFILES.popitem(last=False)
    who = (caller.surface.value, caller.principal, caller.workspace_id)
    in_use = profiles.in_use.get(who)
    if in_use is None:
        in_use = frozenset(conn.domains.domains_in_use(caller))
        profiles.in_use[who] = in_use
    return profiles, in_use


# -- centroids -------------------------------------------------------------------------------
def numpy_module() -> Any:
    """numpy, imported on first use: the MCP bridge must start without paying for it."""
    import numpy  # noqa: PLC0415

    return numpy


def _decode_vector(blob: bytes | None) -> Vector | None:
    if not blob:
        return None
    np = numpy_module()
    vector = np.frombuffer(blob, dtype=np.float32)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else None


def _mean_of(blobs: list[bytes]) -> Vector | None:
    if not blobs:
        return None
    # Vectors of another model (another length) after a model change are left out.
    usual = Counter(len(b) for b in blobs).most_common(1)[0][0]
    np = numpy_module()
    mean = np.mean([np.frombuffer(b, dtype=np.float32) for b in blobs if len(b) == usual], axis=0)
    norm = float(np.linalg.norm(mean))
    return (mean / norm).astype(np.float32) if norm > 0 else None


def _centroid(
    conn: Store, profiles: Profiles, row: dict[str, Any], size_of: Callable[[str], int], caller: Caller
) -> Vector | None:
    stored = _decode_vector(row["centroid"])
    if stored is not None:
        return stored
    key = (profiles.identity, profiles.view, row["name"])
    with _LOCK:
        cached = _FALLBACK_CENTROIDS.get(key)
    if cached is not None and cached[0].surely_within(profiles.counter):
        return cached[1]
    size = size_of(row["name"])
    if cached is not None and not _drifted(size, cached[0].size):
        cached[0].checked(size, profiles.counter)
        return cached[1]
    centroid = _mean_of(conn.domains.domain_vectors(row["name"], viewer=_viewer(profiles.view, caller)))
    with _LOCK:
        if len(_FALLBACK_CENTROIDS) > 64 * CACHE_SIZE:
            _FALLBACK_CENTROIDS.clear()
        _FALLBACK_CENTROIDS[key] = (_Counted(size, size, profiles.counter), centroid)
    return centroid


def ensure_centroids(conn: Store, profiles: Profiles, caller: Caller) -> None:
    """Centroids of the view's domains: stored ones (full view), else the mean of the vectors
    the view may see (the view's live records are counted only when a cached mean may have drifted)."""
    if profiles.centroids_ready:
        return
    counted: list[dict[str, int]] = []  # at most once

    def size_of(name: str) -> int:
        if not counted:
            counted.append(conn.domains.live_counts(viewer=_viewer(profiles.view, caller)))
        return counted[0].get(name, 0)

    names, vectors = [], []
    for row in profiles.rows:
        centroid = _centroid(conn, profiles, row, size_of, caller)
        if centroid is not None:
            names.append(row["name"])
            vectors.append(centroid)
    if vectors and len({v.shape for v in vectors}) == 1:
        profiles.centroid_names = names
        profiles.centroids = numpy_module().vstack(vectors).astype("float32")
    profiles.centroids_ready = True
