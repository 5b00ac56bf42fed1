"""The writer's judgement of one candidate against the store: ADD, SUPERSEDE, ARCHIVE or NO_CHANGE.

Shared by the writer pass (core/writer/propose.py), `memory_add`'s near-duplicate check
(core/writer/writes.py) and imports (core/importers/). It reads the store and writes nothing, so
`writes` can use it without the two modules importing each other.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from memvault.core.retrieval.hybrid import Gathered, gather_lexical
from memvault.core.retrieval.vectors import Made, Nearby
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import LIVE_STATUSES, Caller, Memory
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.core.writer import pair_judge
from memvault.core.writer.normalize import normalize_statement
from memvault.core.writer.similarity import SUBJECT_COSINE, Judgement, Relation, could_be_same, relate

log = logging.getLogger("memvault.writer")

POOL = 30  # nearest records by the lexical indexes
BY_MEANING = 10  # nearest records by meaning (cosine at least SUBJECT_COSINE), for the writer pass
LOOK_FURTHER = 4  # ...looked for among this many times as many (other versions and scopes are in the index)
MEMO_TEXTS = 20_000  # texts whose vectors `remembered` keeps (~30 MB of 384-d vectors)
SAME_STATEMENT = "the same statement is already current"

# A function answering the embedding of each text (None: embeddings are off or unavailable).
Embed = Callable[[list[str]], list[Any] | None]


@dataclass(frozen=True)
class Classified:
    classification: str
    target: Memory | None
    reason: str
    evidence: dict[str, Any]


def _neighbours(conn: Store, caller: Caller, statement: str) -> dict[str, Memory]:
    """Live records the caller may see that say the same statement or share words with it.

    The search's own lexical stage finds them (core/retrieval/hybrid.py: selective words, stems,
    trigrams when words find little, CJK), under the caller's access scope.
    """
    found: dict[str, Memory] = {
        m.id: m for m in conn.memories.live_with_norm_key(caller, normalize_statement(statement))
    }
    gathered = Gathered()
    gather_lexical(conn, caller, SearchRequest(query=statement, limit=POOL), POOL, gathered)
    found.update((memory_id, item.record) for memory_id, item in gathered.found.items())
    return found


def _live_visible(conn: Store, caller: Caller, ids: Iterable[str]) -> dict[str, Memory]:
    """The live records among `ids` the caller may see."""
    found = conn.memories.fetch_many(caller, sorted(ids))
    return {i: m for i, m in found.items() if m.status in LIVE_STATUSES}


def _by_meaning(conn: Store, caller: Caller, nearby: Nearby, statement: str) -> tuple[dict[str, Memory], Any]:
    """The BY_MEANING live records the caller may see closest to the statement by meaning (a change
    said in other words shares no word with what it changes: "I live in Carrow Bay" / "we moved to
    Elmstead"), and the statement's vector. The index holds every version and scope, so more are
    asked than kept."""
    vector = nearby.embedder.embed_one(statement)  # made here: a concurrent add's head start stays its own
    close = nearby.nearest(conn, Made.now(vector), SUBJECT_COSINE, limit=BY_MEANING * LOOK_FURTHER)
    live = _live_visible(conn, caller, close)
    kept = sorted(live, key=lambda i: close[i], reverse=True)[:BY_MEANING]
    return {i: live[i] for i in kept}, vector


def _cosines(
    conn: Store, embed: Embed | None, statement: str, near: dict[str, Memory], mine: Any = None
) -> dict[str, float]:
    """Embedding cosine of the candidate with each neighbour (empty when embeddings are off).
    `mine`: the candidate's vector when it was made already."""
    if (embed is None and mine is None) or not near:
        return {}
    import numpy as np  # noqa: PLC0415 - only with embeddings on

    from memvault.core.retrieval.embeddings import MODEL_ID  # noqa: PLC0415

    stored = conn.vectors.vectors_of(MODEL_ID, list(near))
    # Every neighbour is compared by meaning: one left without a cosine is judged by the word rules
    # alone, which take "…Falcon on Mondays" / "…Birch on Thursdays" for a change.
    missing = [i for i in near if i not in stored]
    texts = ([] if mine is not None else [statement]) + [near[i].statement for i in missing]
    made = (embed(texts) if embed is not None else None) if texts else []
    if made is None:  # the model failed: what is stored still compares, with the vector made already
        if mine is None:
            return {}
        missing, made = [], []
    if mine is None:
        mine, made = made[0], made[1:]
    mine = np.asarray(mine, dtype=np.float32)
    result = {i: float(np.frombuffer(blob, dtype="<f4") @ mine) for i, blob in stored.items()}
    result.update((i, float(np.asarray(v, dtype=np.float32) @ mine)) for i, v in zip(missing, made, strict=True))
    return result


def remembered(embed: Embed | None) -> Embed | None:
    """`embed` keeping the model's answer per distinct text for one pass (an import, a writer pass):
    records written earlier in it have no stored vector yet (they are embedded after the commit), so
    every candidate would embed the same neighbours again."""
    if embed is None:
        return None
    known: dict[str, Any] = {}

    def cached(texts: list[str]) -> list[Any] | None:
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        if missing:
            vectors = embed(missing)
            if vectors is None:
                return None
            if len(known) > MEMO_TEXTS:
                known.clear()
            known.update(zip(missing, vectors, strict=True))
        return [known[t] for t in texts]

    return cached


def _evidence(judgement: Judgement | None, compared: int) -> dict[str, Any]:
    if judgement is None:
        return {"compared": compared, "rule": None, "overlap": None, "cosine": None, "differences": []}
    cosine = None if judgement.cosine is None else round(judgement.cosine, 3)
    return {
        "compared": compared,
        "rule": judgement.rule or None,
        "overlap": round(judgement.dice, 3),
        "cosine": cosine,
        "differences": judgement.differences,
    }


def classify(
    conn: Store,
    caller: Caller,
    embed: Embed | None,
    draft: Draft,
    *,
    same_only: bool = False,
    nearby: Nearby | None = None,
) -> Classified:
    """What the candidate is to the store as `caller` sees it (never to records it may not see).

    `same_only`: the caller wants to know only whether a record says the same (NO_CHANGE); then only
    neighbours that could be near duplicates by their words are compared, and the model is not run
    when there are none (a write's vector is then made after its commit). `nearby` (the writer pass,
    embeddings on): the records closest by meaning are compared too, beside those sharing words.
    """
    near = _neighbours(conn, caller, draft.statement)
    exact = _exact(draft, near)
    if exact:
        return exact
    mine = None
    if nearby is not None and not same_only:
        close, mine = _by_meaning(conn, caller, nearby, draft.statement)
        near.update(close)
    if same_only:
        near = {k: m for k, m in near.items() if could_be_same(draft.statement, m.statement)}
    return _judged(draft, near, _cosines(conn, embed, draft.statement, near, mine))


def _exact(draft: Draft, near: dict[str, Memory]) -> Classified | None:
    """NO_CHANGE when a neighbour says the very statement (the same domain and type first)."""
    norm = normalize_statement(draft.statement)
    exact = sorted(
        (m for m in near.values() if normalize_statement(m.statement) == norm),
        key=lambda m: (m.domain != draft.domain, m.type != draft.type, m.created_at or ""),
    )
    if not exact:
        return None
    return Classified("NO_CHANGE", exact[0], SAME_STATEMENT, {**_evidence(None, len(near)), "rule": "exact"})


def _judged(draft: Draft, near: dict[str, Memory], cosines: dict[str, float]) -> Classified:
    judged = [
        (pair_judge.judged(draft.statement, m.statement, relate(draft.statement, m.statement, cosines.get(m.id))), m)
        for m in near.values()
    ]
    best: dict[Relation, tuple[Judgement, Memory]] = {}
    for judgement, record in judged:
        held = best.get(judgement.relation)
        if held is None or (judgement.score, record.id) > (held[0].score, held[1].id):
            best[judgement.relation] = (judgement, record)
    for relation, classification, reason in _ORDER:
        if relation in best:
            judgement, record = best[relation]
            return Classified(classification, record, reason, _evidence(judgement, len(near)))
    closest = max((j for j, _ in judged), key=lambda j: j.score, default=None)
    return Classified("ADD", None, "nothing similar is current", _evidence(closest, len(near)) | {"rule": None})


def same_by_meaning(
    conn: Store, caller: Caller, draft: Draft, cosines: dict[str, float], written: str | None = None
) -> Classified:
    """`classify(..., same_only=True)` with the neighbours found by meaning: `cosines` holds every
    stored record at least as close as any near duplicate can be (HIGH_DICE_COSINE), so no lexical
    search is needed; records saying the very statement are looked up by their key. `written`: the
    draft's own record, already written in this transaction (it is not its own duplicate)."""
    near: dict[str, Memory] = {
        m.id: m
        for m in conn.memories.live_with_norm_key(caller, normalize_statement(draft.statement))
        if m.id != written
    }
    near.update(_live_visible(conn, caller, cosines))
    exact = _exact(draft, near)
    if exact:
        return exact
    near = {k: m for k, m in near.items() if could_be_same(draft.statement, m.statement)}
    return _judged(draft, near, cosines)


def near_duplicate(
    ctx: Context,
    conn: Store,
    caller: Caller,
    draft: Draft,
    cosines: dict[str, float] | None = None,
    written: str | None = None,
) -> Memory | None:
    """memory_add's duplicate check beyond the exact rule: the writer pass's own judgement (NO_CHANGE),
    so that `memory_add` and `memory_propose` agree on what is already known. Like the contract's
    duplicate rule, only within the same domain and type. `cosines`: the records nearest by meaning
    (`same_by_meaning`); without them the neighbours are found by words, as the writer pass does.
    `written`: the draft's own record when this transaction wrote it already (`same_by_meaning`)."""
    if cosines is None:
        found = classify(conn, caller, local_embeddings(ctx), draft, same_only=True)
    else:
        found = same_by_meaning(conn, caller, draft, cosines, written)
    target = found.target if found.classification == "NO_CHANGE" else None
    return target if target and (target.domain, target.type) == (draft.domain, draft.type) else None


_ORDER = (
    (Relation.SAME, "NO_CHANGE", "a current record says the same"),
    (Relation.ENDS, "ARCHIVE", "the candidate says a current record is no longer so"),
    (Relation.REPLACES, "SUPERSEDE", "the candidate ends a current record and says what holds instead"),
    (Relation.CONFLICT, "SUPERSEDE", "a current record about the same subject says something different"),
)


def local_embeddings(ctx: Context) -> Embed | None:
    """The local model as an `Embed` (loaded on first use), or None when embeddings are off."""
    if str(ctx.setting("embeddings")) != "local":
        return None

    def embed(texts: list[str]) -> list[Any] | None:
        from memvault.core.retrieval.embeddings import EmbeddingUnavailable, shared_embedder  # noqa: PLC0415

        try:
            return list(shared_embedder().embed(texts))
        except EmbeddingUnavailable as exc:
            log.warning("writer pass compares lexically: %s", exc)
            return None

    return embed
