"""Discovering regions (domains) in the person's own records.

`plan_discovery` clusters the live records — their local embeddings when most records
have one, else TF-IDF vectors of their words — with spherical k-means, choosing the
number of regions by the silhouette. Each region is matched to the existing domain
most of its records already sit in, or named after its distinctive terms. Only records
whose domain memvault chose (assigned on write, or left in `general`) move; records the
person placed, and everything in a pinned domain, stay where they are.

`domain_stats` computes what the router reads for every domain: keywords, description,
centroid, related domains and token share.

Pure computation over what the store module hands over; numpy is imported on first use.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from memvault.core.retrieval import vocab

DEFAULT_DOMAIN = "general"
MIN_RECORDS = 50
MAX_REGIONS = 12
SAMPLE = 1500  # records used to fit and choose k; the rest are assigned to the nearest centroid
SEED = 20260301
KEYWORDS = 12
MIN_SILHOUETTE = 0.05
RESTARTS = 5
PARSIMONY = 0.03  # fewer regions win unless more are clearly better
OUTLIER = 0.5


def numpy_module() -> Any:
    """numpy, imported on first use."""
    import numpy  # noqa: PLC0415

    return numpy


_numpy = numpy_module


@dataclass
class Region:
    name: str
    existing: bool  # True: an existing domain takes this region's records
    size: int
    keywords: list[str]
    description: str
    members: list[str] = field(default_factory=list)


@dataclass
class DiscoveryPlan:
    records: int
    method: str  # "vectors", "terms" or "none"
    regions: list[Region]
    moves: dict[str, tuple[str, str]]  # memory id -> (from, to)
    emptied: list[str]  # domains that the moves leave without records (to be removed)
    reason: str = ""

    @property
    def new_domains(self) -> list[str]:
        return [r.name for r in self.regions if not r.existing]

    def summary(self) -> dict[str, Any]:
        flows = Counter(f"{a} -> {b}" for a, b in self.moves.values())
        return {
            "records": self.records,
            "method": self.method,
            "reason": self.reason,
            "regions": [
                {
                    "name": r.name,
                    "existing": r.existing,
                    "size": r.size,
                    "keywords": r.keywords,
                    "description": r.description,
                }
                for r in self.regions
            ],
            "new_domains": self.new_domains,
            "moves": len(self.moves),
            "flows": dict(sorted(flows.items())),
            "emptied": self.emptied,
        }


# -- features --------------------------------------------------------------------------------
def _vector_matrix(records: list[dict[str, Any]]) -> tuple[Any, list[int]] | None:
    """Embeddings of the records that have one (the usual length), if most records do."""
    np = _numpy()
    blobs = [(i, r["vector"]) for i, r in enumerate(records) if r["vector"]]
    if not blobs:
        return None
    usual = Counter(len(b) for _, b in blobs).most_common(1)[0][0]
    kept = [(i, b) for i, b in blobs if len(b) == usual]
    if len(kept) < 0.8 * len(records):
        return None
    matrix = np.vstack([np.frombuffer(b, dtype=np.float32) for _, b in kept]).astype(np.float32)
    return _normalise(matrix), [i for i, _ in kept]


def _term_matrix(docs: list[list[str]]) -> tuple[Any, list[int]]:
    """TF-IDF rows (L2-normalised) over terms found in at least two and at most half the documents."""
    np = _numpy()
    n = len(docs)
    df = vocab.document_frequencies(frozenset(d) for d in docs)
    terms = [t for t, c in df.most_common() if 2 <= c <= max(2, n // 2)][:2000]
    index = {t: j for j, t in enumerate(terms)}
    matrix = np.zeros((n, max(len(terms), 1)), dtype=np.float32)
    for i, doc in enumerate(docs):
        for term, count in Counter(doc).items():
            j = index.get(term)
            if j is not None:
                matrix[i, j] = (1 + math.log(count)) * math.log(n / df[term])
    rows = [i for i in range(n) if matrix[i].any()]
    return _normalise(matrix[rows]), rows


def _normalise(matrix: Any) -> Any:
    np = _numpy()
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


# -- clustering ------------------------------------------------------------------------------
def kmeans(x: Any, k: int, seed: int = SEED, iterations: int = 40) -> tuple[Any, Any]:
    """Spherical k-means with k-means++ seeding: (labels, unit centroids)."""
    np = _numpy()
    rng = np.random.default_rng(seed)
    n = x.shape[0]
    centres = [x[int(rng.integers(n))]]
    for _ in range(1, k):
        distance = np.clip(1.0 - np.max(x @ np.vstack(centres).T, axis=1), 0.0, None) ** 2
        total = float(distance.sum())
        pick = int(rng.choice(n, p=distance / total)) if total > 0 else int(rng.integers(n))
        centres.append(x[pick])
    c = np.vstack(centres)
    labels = np.full(n, -1)
    for _ in range(iterations):
        new = np.argmax(x @ c.T, axis=1)
        if np.array_equal(new, labels):
            break
        labels = new
        for j in range(k):
            members = x[labels == j]
            if len(members):
                c[j] = members.sum(axis=0)
            else:  # an empty cluster takes the point worst served by its centroid
                worst = int(np.argmin(np.max(x @ c.T, axis=1)))
                c[j] = x[worst]
        c = _normalise(c)
    return labels, c


def silhouette(x: Any, labels: Any) -> float:
    """Mean silhouette with cosine distance (x rows unit length)."""
    np = _numpy()
    distance = 1.0 - x @ x.T
    clusters = sorted(set(labels.tolist()))
    if len(clusters) < 2:
        return -1.0
    means = np.stack([distance[:, labels == c].mean(axis=1) for c in clusters], axis=1)
    sizes = np.array([(labels == c).sum() for c in clusters])
    own = np.array([clusters.index(label) for label in labels.tolist()])
    rows = np.arange(len(labels))
    # Distance to one's own cluster without oneself (distance to self is 0).
    a = means[rows, own] * sizes[own] / np.maximum(sizes[own] - 1, 1)
    means[rows, own] = np.inf
    b = means.min(axis=1)
    score = (b - a) / np.maximum(np.maximum(a, b), 1e-9)
    score[sizes[own] == 1] = 0.0
    return float(score.mean())


def smooth(x: Any, neighbours: int = 5, weight: float = 0.7) -> Any:
    """Each row plus a share of its nearest neighbours' mean: short statements borrow context,
    which makes regions of short texts much easier to separate."""
    np = _numpy()
    if x.shape[0] <= neighbours:
        return x
    similarity = x @ x.T
    np.fill_diagonal(similarity, -np.inf)
    nearest = np.argpartition(-similarity, neighbours, axis=1)[:, :neighbours]
    return _normalise(x + weight * x[nearest].mean(axis=1))


def best_kmeans(x: Any, k: int, restarts: int = RESTARTS) -> tuple[Any, Any]:
    """The restart with the tightest clusters (highest total cosine to the centroids)."""
    np = _numpy()
    best: tuple[float, Any, Any] | None = None
    for attempt in range(restarts):
        labels, centres = kmeans(x, k, seed=SEED + attempt)
        tightness = float((x @ centres.T)[np.arange(len(labels)), labels].sum())
        if best is None or tightness > best[0]:
            best = (tightness, labels, centres)
    assert best is not None
    return best[1], best[2]


def choose_clusters(x: Any, max_k: int) -> tuple[Any, Any, float]:
    """The fewest regions (2..max_k) whose silhouette is within a few percent of the best."""
    np = _numpy()
    rng = np.random.default_rng(SEED)
    sample = x if x.shape[0] <= SAMPLE else x[rng.choice(x.shape[0], SAMPLE, replace=False)]
    sample = smooth(sample)
    tried = []
    for k in range(2, max(2, max_k) + 1):
        labels, centres = best_kmeans(sample, k)
        tried.append((silhouette(sample, labels), k, centres))
    top = max(score for score, _, _ in tried)
    score, _, centres = next(t for t in tried if t[0] >= top - abs(top) * PARSIMONY)
    labels = np.argmax(x @ centres.T, axis=1)
    return labels, centres, score


# -- naming ----------------------------------------------------------------------------------
def slug(word: str) -> str:
    ascii_word = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_word).strip("-")[:48]


def describe(
    member_docs: list[frozenset[str]], other_docs: list[frozenset[str]], spelling: dict[str, str]
) -> list[str]:
    """The words that set these documents apart from the others, best first (shown as people spell them)."""
    inside = vocab.document_frequencies(member_docs)
    rest = vocab.document_frequencies(other_docs)
    ranked = vocab.distinctive_terms(inside, rest, len(member_docs), len(other_docs), limit=KEYWORDS)
    return [spelling.get(term, term) for term, _ in ranked]


def region_name(keywords: list[str], taken: set[str]) -> str:
    # Names read as words: units and codes (km, a2) make poor region names.
    words = [s for s in (slug(k) for k in keywords) if len(s) >= 4 and s.replace("-", "").isalpha()]
    for candidate in [*words[:3], *("-".join(words[i : i + 2]) for i in range(min(3, len(words) - 1)))]:
        if candidate and candidate not in taken and candidate != DEFAULT_DOMAIN:
            return candidate
    n = 1
    while f"region-{n}" in taken:
        n += 1
    return f"region-{n}"


def description_for(keywords: list[str]) -> str:
    return "About " + ", ".join(keywords[:5]) if keywords else ""


# -- the plan --------------------------------------------------------------------------------
def plan_discovery(
    records: list[dict[str, Any]],
    movable: set[str],
    pinned: set[str],
    domain_sizes: dict[str, int],
    *,
    min_records: int = MIN_RECORDS,
    private_names: frozenset[str] = frozenset(),
) -> DiscoveryPlan:
    """Propose regions for live `records` ({id, domain, text, vector, shared}); move only
    `movable` ids.

    `domain_sizes` counts every record (any status) per domain, to tell which domains the
    moves would leave empty. `private_names` are domains memvault named from records no
    remote caller sees: a shared record is never moved into one (its name would travel).
    """
    if len(records) < min_records:
        reason = f"{len(records)} live records: discovery starts at {min_records}"
        return DiscoveryPlan(len(records), "none", [], {}, [], reason)
    docs = [vocab.terms(r["text"]) for r in records]
    features = _vector_matrix(records)
    method = "vectors"
    if features is None:
        features, method = _term_matrix(docs), "terms"
    x, rows = features
    if len(rows) < min_records:
        return DiscoveryPlan(len(records), "none", [], {}, [], "too few records with usable features")
    max_k = min(MAX_REGIONS, max(2, len(rows) // 12))
    labels, centres, score = choose_clusters(x, max_k)
    if score < MIN_SILHOUETTE:
        return DiscoveryPlan(len(records), method, [], {}, [], f"no clear regions (silhouette {score:.3f})")
    labels = without_outliers(x, labels, centres)
    return _assemble(records, docs, rows, labels.tolist(), movable, pinned, domain_sizes, method, private_names)


def without_outliers(x: Any, labels: Any, centres: Any) -> Any:
    """Labels with outliers set to -1: a record far less close to its centroid than its region's
    typical record (under OUTLIER times the median) belongs to no region and is not moved."""
    np = numpy_module()
    closeness = np.einsum("ij,ij->i", x, centres[labels])
    kept = labels.copy()
    for label in set(labels.tolist()):
        inside = labels == label
        typical = float(np.median(closeness[inside]))
        kept[inside & (closeness < OUTLIER * typical)] = -1
    return kept


def _assemble(
    records: list[dict[str, Any]],
    docs: list[list[str]],
    rows: list[int],
    labels: list[int],
    movable: set[str],
    pinned: set[str],
    domain_sizes: dict[str, int],
    method: str,
    private_names: frozenset[str] = frozenset(),
) -> DiscoveryPlan:
    spelling = vocab.surface_forms(r["text"] for r in records)
    sets = [frozenset(d) for d in docs]
    clusters: dict[int, list[int]] = {}
    for row, label in zip(rows, labels, strict=True):
        if label >= 0:
            clusters.setdefault(label, []).append(row)
    min_size = max(5, len(rows) // 50)
    taken = set(domain_sizes)
    regions: list[Region] = []
    moves: dict[str, tuple[str, str]] = {}
    for label in sorted(clusters, key=lambda c: -len(clusters[c])):
        members = clusters[label]
        if len(members) < min_size:
            continue  # too small to be a region: its records stay where they are
        inside = set(members)
        keywords = describe(
            [sets[i] for i in members], [sets[i] for i in range(len(sets)) if i not in inside], spelling
        )
        naming = _naming_words(records, sets, members, spelling)
        region = _region_for(
            [records[i] for i in members], movable, keywords, keywords if naming is None else naming, taken
        )
        arriving = {
            r["id"]: (r["domain"], region.name)
            for r in (records[i] for i in members)
            if r["id"] in movable
            and r["domain"] not in pinned
            and r["domain"] != region.name
            and not (r["shared"] and region.name in private_names)
        }
        if not region.existing and not arriving:
            continue  # a new region nothing would move into (its records are all placed): no empty domain
        if not region.existing:
            taken.add(region.name)
        region.members = [records[i]["id"] for i in members]
        moves.update(arriving)
        regions.append(region)
    leaving = Counter(source for source, _ in moves.values())
    arriving_at = {target for _, target in moves.values()}
    emptied = sorted(
        d for d, n in leaving.items() if n >= domain_sizes.get(d, 0) and d not in pinned and d not in arriving_at
    )
    return DiscoveryPlan(len(records), method, regions, moves, emptied)


def _naming_words(
    records: list[dict[str, Any]], sets: list[frozenset[str]], members: list[int], spelling: dict[str, str]
) -> list[str] | None:
    """Words to name a new region by. A region's name travels with its records, so a region that
    holds records a remote caller may see is named only from those records' words: the name then
    reveals nothing of the private records beside them."""
    shared = [i for i in members if records[i]["shared"]]
    if not shared:
        return None  # no record here is shared: any of the region's words may name it
    inside = set(shared)
    return describe([sets[i] for i in shared], [sets[i] for i in range(len(sets)) if i not in inside], spelling)


def _region_for(
    members: list[dict[str, Any]], movable: set[str], keywords: list[str], naming: list[str], taken: set[str]
) -> Region:
    """Which domain a cluster is. The person's placements decide when they are clear; memvault's
    own earlier guesses (assigned records) only keep a region where it already is (stability);
    otherwise the region is new and named by `naming` (see `_naming_words`)."""
    placed = [r["domain"] for r in members if r["id"] not in movable]
    dominant = _dominant_domain(placed, len(members)) or _settled_domain([r["domain"] for r in members])
    if dominant:
        return Region(dominant, True, len(members), keywords, description_for(keywords))
    return Region(region_name(naming, taken), False, len(members), keywords, description_for(keywords))


def _dominant_domain(placed: list[str], size: int) -> str | None:
    """The existing domain a region belongs to: the one holding most of its explicitly placed
    records, when that is at least half of them and a real share of the region (a fifth, and
    three or more). The region's movable records then join it."""
    counts = Counter(d for d in placed if d != DEFAULT_DOMAIN)
    if not counts:
        return None
    name, count = counts.most_common(1)[0]
    if count >= 0.5 * sum(counts.values()) and count >= max(3, 0.2 * size):
        return name
    return None


def _settled_domain(domains: list[str]) -> str | None:
    """The existing domain (not `general`) that already holds most of a region's records."""
    counts = Counter(d for d in domains if d != DEFAULT_DOMAIN)
    if not counts:
        return None
    name, count = counts.most_common(1)[0]
    return name if count >= 0.5 * len(domains) else None


# -- statistics for the router ---------------------------------------------------------------
def domain_stats(records: list[dict[str, Any]], names: list[str]) -> dict[str, dict[str, Any]]:
    """keywords, description, centroid (bytes or None), related and token_share of each domain."""
    np = _numpy()
    spelling = vocab.surface_forms(r["text"] for r in records)
    sets = [vocab.term_set(r["text"]) for r in records]
    by_domain: dict[str, list[int]] = {}
    for i, record in enumerate(records):
        by_domain.setdefault(record["domain"], []).append(i)
    total = max(len(records), 1)
    stats: dict[str, dict[str, Any]] = {}
    centroids: dict[str, Any] = {}
    for name in names:
        members = by_domain.get(name, [])
        inside = set(members)
        keywords = describe(
            [sets[i] for i in members], [sets[i] for i in range(len(sets)) if i not in inside], spelling
        )
        vectors = _vector_matrix([records[i] for i in members]) if members else None
        centroid = None
        if vectors is not None:
            mean = vectors[0].mean(axis=0)
            norm = float(np.linalg.norm(mean))
            if norm > 0:
                centroid = (mean / norm).astype(np.float32)
                centroids[name] = centroid
        stats[name] = {
            "keywords": keywords,
            "description": description_for(keywords),
            "centroid": centroid.tobytes() if centroid is not None else None,
            "token_share": round(min(0.5, 0.1 + len(members) / total), 3),
            "related": [],
        }
    for name in names:
        stats[name]["related"] = _related(name, stats, centroids)
    return stats


def _related(name: str, stats: dict[str, dict[str, Any]], centroids: dict[str, Any]) -> list[str]:
    mine = set(stats[name]["keywords"])
    scored = []
    for other, data in stats.items():
        if other == name:
            continue
        if name in centroids and other in centroids:
            closeness = float(centroids[name] @ centroids[other])
            if closeness >= 0.5:
                scored.append((closeness, other))
                continue
        theirs = set(data["keywords"])
        overlap = len(mine & theirs) / max(len(mine | theirs), 1)
        if overlap >= 0.15:
            scored.append((overlap, other))
    scored.sort(reverse=True)
    return [other for _, other in scored[:3]]
