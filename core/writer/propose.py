"""The writer pass (`memory_propose`): classify candidate memories against the store, then write.

Per call:

1. Validation, all or nothing: `candidates` is a list of 1..50 objects, each a valid
   `memory_add` (core/vocabulary/requests.ProposeRequest) in a scope the caller may write, linking only to
   records it may see; `conversation_ref` is a short pointer. Any fault is one
   InvalidArgument (Forbidden, NotFound) naming the candidate, and nothing is written.
   Retrieval-only mode refuses the whole call before anything is read.
2. Per candidate, in order: the writer gate (secrets, chatter) -> outcome `rejected`, never
   compared with anything; otherwise the candidate is compared, *as the caller*, with the
   live records it may see near it (exact normalised statement, the word and trigram
   indexes, and with embeddings on the closest by meaning) and classified
   (core/writer/similarity.py, pair_judge.py): NO_CHANGE, ARCHIVE, SUPERSEDE or ADD.
3. The write mode decides what is committed, through the functions of core/writer/writes.py:
   ADD is `memory_add`, SUPERSEDE is `memory_correct` of the target, ARCHIVE is
   `memory_archive` of the target, NO_CHANGE confirms the target (its last_confirmed_at
   moves, as a duplicate `memory_add` does). A correction follows the write mode as
   `memory_correct` does; an archive always waits in the approval inbox.

Later candidates see what earlier ones committed. Logs carry counts, never text.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any, cast

from memvault.core.retrieval.vectors import Nearby
from memvault.core.security.access import write_scope
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, MemvaultError, NotFound
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, ProposeRequest
from memvault.core.vocabulary.results import ProposalVerdict, ProposeResult
from memvault.core.writer import writes
from memvault.core.writer.classify import SAME_STATEMENT, Classified, Embed, classify, local_embeddings, remembered
from memvault.core.writer.gate import rejection, secret_rejection

log = logging.getLogger("memvault.writer")


@dataclass(frozen=True)
class Candidate:
    index: int
    draft: Draft


# -- 1. validation --------------------------------------------------------------------------------


def _conversation_ref(ref: str | None) -> str | None:
    if ref is None:
        return None
    if "\n" in ref or "\r" in ref:
        raise InvalidArgument("conversation_ref: a pointer to the conversation (one line), never its text")
    if secret_rejection([ref]):
        raise InvalidArgument("conversation_ref: refused, it looks like it holds a secret")
    return ref


def parse_candidates(conn: Store, caller: Caller, drafts: tuple[Draft, ...]) -> list[Candidate]:
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
            return _answer(found, "skipped", classification="NO_CHANGE", target_id=added["id"], reason=SAME_STATEMENT)
        return _answer(found, added["outcome"], id=added["id"], proposal_id=added["proposal_id"])
    assert target is not None
    if found.classification == "NO_CHANGE":
        with ctx.transaction() as conn:
            if conn.memories.fetch(caller, target.id) is None:
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


def _one(
    ctx: Context, caller: Caller, embed: Embed | None, nearby: Nearby | None, item: Candidate, ref: str | None
) -> ProposalVerdict:
    draft = item.draft
    refused = rejection(
        draft.statement,
        [draft.domain, draft.evidence, draft.source, draft.source_reference, *draft.tags, *draft.entities],
    )
    if refused:
        return _answer(None, "rejected", reason=refused)
    with ctx.reading() as conn:
        found = classify(conn, caller, embed, draft, nearby=nearby)
    try:
        return _commit(ctx, caller, item, found, ref)
    except (Conflict, NotFound, InvalidArgument) as exc:  # the target moved on since it was read
        return _answer(found, "rejected", reason=f"not written: {exc}")


def propose(ctx: Context, caller: Caller, request: ProposeRequest, nearby: Nearby | None = None) -> ProposeResult:
    """The writer pass over the request's candidates (see the module's docstring). `nearby`
    (embeddings on): candidates are compared with the records closest by meaning too."""
    ref = _conversation_ref(request.conversation_ref)
    with ctx.reading() as conn:
        candidates = parse_candidates(conn, caller, request.candidates)
    writes.require_writable(ctx, caller)
    embed = remembered(local_embeddings(ctx))  # neighbours without a vector are embedded once a call
    results = [_one(ctx, caller, embed, nearby, item, ref) for item in candidates]
    log.info(
        "writer pass: %d candidate(s): %s",
        len(results),
        ", ".join(f"{o}={sum(r['outcome'] == o for r in results)}" for o in ("added", "staged", "skipped", "rejected")),
    )
    return {"results": results}
