"""The writer pass (`memory_propose`): classify candidate memories against the store, then write.

Per call:

1. Validation, all or nothing: `candidates` is a list of 1..50 objects, each a valid
   `memory_add` (core/requests.ProposeRequest) in a scope the caller may write, linking only to
   records it may see; `conversation_ref` is a short pointer. Any fault is one
   InvalidArgument (Forbidden, NotFound) naming the candidate, and nothing is written.
   Retrieval-only mode refuses the whole call before anything is read.
2. Per candidate, in order: the writer gate (secrets, chatter) -> outcome `rejected`, never
   compared with anything; otherwise the candidate is compared, *as the caller*, with the
   live records it may see near it (exact normalised statement, the word and trigram
   indexes) and classified (core/writer/similarity.py): NO_CHANGE, ARCHIVE, SUPERSEDE or ADD.
3. The write mode decides what is committed, through the functions of core/writes.py:
   ADD is `memory_add`, SUPERSEDE is `memory_correct` of the target, ARCHIVE is
   `memory_archive` of the target, NO_CHANGE confirms the target (its last_confirmed_at
   moves, as a duplicate `memory_add` does). Assistants' corrections and archives always wait
   in the approval inbox.

Later candidates see what earlier ones committed. Logs carry counts, never text.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, cast

from memvault.core import writes
from memvault.core.access import write_scope
from memvault.core.context import Context
from memvault.core.drafts import Draft
from memvault.core.errors import Conflict, InvalidArgument, MemvaultError, NotFound
from memvault.core.model import Caller, Memory
from memvault.core.requests import ArchiveRequest, CorrectRequest, ProposeRequest
from memvault.core.results import ProposalVerdict, ProposeResult
from memvault.core.retrieval.hybrid import Gathered, gather_lexical
from memvault.core.search_request import SearchRequest
from memvault.core.store import memories
from memvault.core.store import vectors as vector_sql
from memvault.core.store.connection import Connection
from memvault.core.writer.gate import rejection, secret_rejection
from memvault.core.writer.normalize import normalize_statement
from memvault.core.writer.similarity import Judgement, Relation, relate

log = logging.getLogger("memvault.writer")

POOL = 30  # nearest records by the lexical indexes
EMBED_MISSING = 16  # neighbours without a stored vector that are embedded on the spot
_SAME_STATEMENT = "the same statement is already current"

# A function answering the embedding of each text (None: embeddings are off or unavailable).
Embed = Callable[[list[str]], list[Any] | None]


@dataclass(frozen=True)
class Candidate:
    index: int
    draft: Draft


@dataclass(frozen=True)
class Classified:
    classification: str
    target: Memory | None
    reason: str
    evidence: dict[str, Any]


# -- 1. validation --------------------------------------------------------------------------------


def _conversation_ref(ref: str | None) -> str | None:
    if ref is None:
        return None
    if "\n" in ref or "\r" in ref:
        raise InvalidArgument("conversation_ref: a pointer to the conversation (one line), never its text")
    if secret_rejection([ref]):
        raise InvalidArgument("conversation_ref: refused, it looks like it holds a secret")
    return ref


def parse_candidates(conn: Connection, caller: Caller, drafts: tuple[Draft, ...]) -> list[Candidate]:
    """Every candidate checked (scope, link targets) before anything is written; one fault refuses the call."""
    parsed = []
    for index, draft in enumerate(drafts):
        try:
            write_scope(caller, draft.access_scope)
            writes.check_link_targets(conn, caller, draft)
        except MemvaultError as exc:
            raise type(exc)(f"candidates[{index}]: {exc}") from None
        parsed.append(Candidate(index, draft))
    return parsed


# -- 2. classification ----------------------------------------------------------------------------


def _neighbours(conn: Connection, caller: Caller, statement: str) -> dict[str, Memory]:
    """Live records the caller may see that say the same statement or share words with it.

    The search's own lexical stage finds them (core/retrieval/hybrid.py: selective words, stems,
    trigrams when words find little, CJK), under the caller's access scope.
    """
    found: dict[str, Memory] = {
        m.id: m for m in memories.live_with_norm_key(conn, caller, normalize_statement(statement))
    }
    gathered = Gathered()
    gather_lexical(conn, caller, SearchRequest(query=statement, limit=POOL), POOL, gathered)
    found.update((memory_id, item.record) for memory_id, item in gathered.found.items())
    return found


def _cosines(conn: Connection, embed: Embed | None, statement: str, near: dict[str, Memory]) -> dict[str, float]:
    """Embedding cosine of the candidate with each neighbour (empty when embeddings are off)."""
    if embed is None or not near:
        return {}
    import numpy as np  # noqa: PLC0415 - only with embeddings on

    from memvault.core.retrieval.embeddings import MODEL_ID  # noqa: PLC0415

    stored = vector_sql.vectors_of(conn, MODEL_ID, list(near))
    missing = [i for i in near if i not in stored][:EMBED_MISSING]
    vectors = embed([statement] + [near[i].statement for i in missing])
    if vectors is None:
        return {}
    mine = np.asarray(vectors[0], dtype=np.float32)
    result = {i: float(np.frombuffer(blob, dtype="<f4") @ mine) for i, blob in stored.items()}
    result.update((i, float(np.asarray(v, dtype=np.float32) @ mine)) for i, v in zip(missing, vectors[1:], strict=True))
    return result


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


def classify(conn: Connection, caller: Caller, embed: Embed | None, draft: Draft) -> Classified:
    """What the candidate is to the store as `caller` sees it (never to records it may not see)."""
    near = _neighbours(conn, caller, draft.statement)
    norm = normalize_statement(draft.statement)
    exact = sorted(
        (m for m in near.values() if normalize_statement(m.statement) == norm),
        key=lambda m: (m.domain != draft.domain, m.type != draft.type, m.created_at or ""),
    )
    if exact:
        return Classified(
            "NO_CHANGE",
            exact[0],
            _SAME_STATEMENT,
            {**_evidence(None, len(near)), "rule": "exact"},
        )
    cosines = _cosines(conn, embed, draft.statement, near)
    judged = [(relate(draft.statement, m.statement, cosines.get(m.id)), m) for m in near.values()]
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


def near_duplicate(ctx: Context, conn: Connection, caller: Caller, draft: Draft) -> Memory | None:
    """memory_add's duplicate check beyond the exact rule: the writer pass's own judgement (NO_CHANGE),
    so that `memory_add` and `memory_propose` agree on what is already known. Like the contract's
    duplicate rule, only within the same domain and type."""
    found = classify(conn, caller, local_embeddings(ctx), draft)
    target = found.target if found.classification == "NO_CHANGE" else None
    return target if target and (target.domain, target.type) == (draft.domain, draft.type) else None


_ORDER = (
    (Relation.SAME, "NO_CHANGE", "a current record says the same"),
    (Relation.ENDS, "ARCHIVE", "the candidate says a current record is no longer so"),
    (Relation.REPLACES, "SUPERSEDE", "the candidate ends a current record and says what holds instead"),
    (Relation.CONFLICT, "SUPERSEDE", "a current record about the same subject says something different"),
)


# -- 3. committing --------------------------------------------------------------------------------


def _answer(found: Classified | None, outcome: str, **fields: Any) -> ProposalVerdict:
    verdict = {
        "classification": found.classification if found else None,
        "target_id": found.target.id if found and found.target else None,
        "reason": found.reason if found else None,
        "evidence": found.evidence if found else None,
        "outcome": outcome,
        "proposal_id": None,
        "id": None,
        **fields,
    }
    return cast(ProposalVerdict, verdict)


def _commit(ctx: Context, caller: Caller, item: Candidate, found: Classified, ref: str | None) -> ProposalVerdict:
    target = found.target
    if found.classification == "ADD":
        draft = item.draft
        if ref and not draft.source_reference:
            draft = replace(draft, source_reference=ref)
        added = writes.add(ctx, caller, draft)
        if added["outcome"] == "duplicate":  # written meanwhile, in the same domain and type
            return _answer(found, "skipped", classification="NO_CHANGE", target_id=added["id"], reason=_SAME_STATEMENT)
        return _answer(found, added["outcome"], id=added["id"], proposal_id=added["proposal_id"])
    assert target is not None
    if found.classification == "NO_CHANGE":
        with ctx.transaction() as conn:
            if memories.fetch(conn, caller, target.id) is None:
                raise NotFound("no such memory")
            writes.confirm(conn, caller, target.id, ctx.now())
        return _answer(found, "skipped")
    if found.classification == "SUPERSEDE":
        correction = CorrectRequest(
            id=target.id,
            statement=item.draft.statement,
            reason="memory_propose: " + found.reason,
            valid_from=item.draft.valid_from,
            expected_revision=target.revision,
            source_reference=item.draft.source_reference or ref,
        )
        corrected = writes.correct(ctx, caller, correction)
        if corrected["outcome"] == "staged":
            return _answer(found, "staged", proposal_id=corrected["proposal_id"])
        return _answer(found, "added", id=corrected["id"])  # the person's own pass: the new record
    reason = "memory_propose: said to be no longer so" + (f" ({ref})" if ref else "")
    retire = ArchiveRequest(id=target.id, reason=reason, expected_revision=target.revision)
    archived = writes.archive(ctx, caller, retire, review=True)
    return _answer(found, archived["outcome"], proposal_id=archived.get("proposal_id"))


def _one(ctx: Context, caller: Caller, embed: Embed | None, item: Candidate, ref: str | None) -> ProposalVerdict:
    draft = item.draft
    refused = rejection(
        draft.statement,
        [draft.domain, draft.evidence, draft.source, draft.source_reference, *draft.tags, *draft.entities],
    )
    if refused:
        return _answer(None, "rejected", reason=refused)
    with ctx.reading() as conn:
        found = classify(conn, caller, embed, draft)
    try:
        return _commit(ctx, caller, item, found, ref)
    except (Conflict, NotFound, InvalidArgument) as exc:  # the target moved on since it was read
        return _answer(found, "rejected", reason=f"not written: {exc}")


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


def propose(ctx: Context, caller: Caller, request: ProposeRequest) -> ProposeResult:
    """The writer pass over the request's candidates (see the module's docstring)."""
    ref = _conversation_ref(request.conversation_ref)
    with ctx.reading() as conn:
        candidates = parse_candidates(conn, caller, request.candidates)
    writes.require_writable(ctx, caller)
    embed = local_embeddings(ctx)
    results = [_one(ctx, caller, embed, item, ref) for item in candidates]
    log.info(
        "writer pass: %d candidate(s): %s",
        len(results),
        ", ".join(f"{o}={sum(r['outcome'] == o for r in results)}" for o in ("added", "staged", "skipped", "rejected")),
    )
    return {"results": results}
