"""Adding, correcting, archiving and restoring memories, through the gate and the write mode.

The write mode governs assistants; the person (`caller.owner`) writes directly. In automatic
mode an assistant's add, correction, archive or restore commits when it is inside the approved
scope (`_auto_commits`); everything else is staged in the approval inbox (core/operations/inbox.py) with a
reason a person understands.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from memvault.core.retrieval.placement import assign_domain
from memvault.core.security.access import only_proposes, require_owner, write_scope
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, NotFound, ReadOnlyMode
from memvault.core.vocabulary.model import (
    DUE_TYPES,
    UNRESOLVED_TYPES,
    Caller,
    LinkType,
    Memory,
    MemoryId,
    MemoryType,
    ProposalId,
    Scope,
    Sensitivity,
    Status,
    WriteMode,
    new_id,
)
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest
from memvault.core.vocabulary.results import AddOutcome, AddResult, ArchiveResult, CorrectResult, RestoreResult
from memvault.core.writer import sensitivity
from memvault.core.writer.classify import near_duplicate
from memvault.core.writer.gate import rejection, secret_rejection
from memvault.core.writer.normalize import normalize_statement
from memvault.core.writer.similarity import SAME_COSINE_FLOOR

if TYPE_CHECKING:
    from memvault.core.retrieval.vectors import Nearby

_PROJECT_TAG = re.compile(r"^project:(.+)$", re.IGNORECASE)
ANY_DOMAIN = "*"  # in auto_write_domains: automatic mode may open new domains too
REVIEW = "review-before-write: waiting in the approval inbox"
_PRIVATE_MATTER = "health, beliefs, politics, origin, a criminal record, money trouble or a child's health or schooling"
SENSITIVE_WAITS = f"sensitive ({_PRIVATE_MATTER}): waits for the person's approval, then stays local_only"
ARCHIVE_REVIEW = "an archive the writer pass proposes always waits for the person"
NEW_DOMAIN = (
    "a new domain waits for review: approve it in the inbox, or list the domains automatic mode may write "
    "(`memvault config set auto_write_domains NAME,...`, or * for any domain)"
)


def _added(
    outcome: AddOutcome,
    *,
    id: str | None = None,
    proposal_id: str | None = None,
    duplicate_of: str | None = None,
    reason: str | None = None,
) -> AddResult:
    return {
        "outcome": outcome,
        "id": MemoryId(id) if id else None,
        "proposal_id": ProposalId(proposal_id) if proposal_id else None,
        "duplicate_of": MemoryId(duplicate_of) if duplicate_of else None,
        "reason": reason,
    }


def _write_mode(ctx: Context, caller: Caller) -> WriteMode | None:
    """The write mode that governs this caller; None for the person, whose writes are direct."""
    if caller.owner:
        return None
    mode = WriteMode(ctx.setting("write_mode"))
    if mode is WriteMode.RETRIEVAL_ONLY:
        raise ReadOnlyMode("memvault is in retrieval-only mode: assistants cannot write")
    if only_proposes(caller):  # an OAuth connection granted memory:propose, not memory:write
        return WriteMode.REVIEW_BEFORE_WRITE
    return mode


def _staging_reason(
    ctx: Context,
    conn: Store,
    caller: Caller,
    mode: WriteMode,
    sensitivity: Sensitivity,
    confidence: float,
    domain: str,
    scope: Scope,
    *,
    change: bool = False,
) -> str | None:
    """Why an assistant's write waits for the person (None: it commits now).

    Automatic mode commits non-sensitive, confident writes inside the approved domains and
    scopes. A domain counts as approved for a caller only if the caller can see records in it:
    otherwise the answer (added or staged) would tell a remote caller which private domains exist.
    """
    if mode is WriteMode.REVIEW_BEFORE_WRITE:
        return REVIEW
    if change and ctx.setting("auto_write_review_changes"):
        return "review-before-write for corrections, archives and restores (auto_write_review_changes)"
    if sensitivity is Sensitivity.SENSITIVE:
        return SENSITIVE_WAITS
    if confidence < float(ctx.setting("auto_write_min_confidence")):
        return "below the confidence automatic mode commits (auto_write_min_confidence): waits for review"
    if scope.value not in ctx.setting("auto_write_scopes"):
        return f"{scope.value} is not an access scope automatic mode commits (auto_write_scopes): waits for review"
    approved = ctx.setting("auto_write_domains")
    if ANY_DOMAIN in approved:
        return None
    if approved and domain not in approved:
        return f"the domain {domain} is not among auto_write_domains: waits for review"
    if conn.memories.domain_visible(caller, domain):
        return None
    # Named by the person but holding nothing yet: the first record may open it. Holding only
    # records this caller may not see: it answers like a domain that does not exist.
    return None if approved and not conn.memories.domain_in_use(domain) else NEW_DOMAIN


def add(ctx: Context, caller: Caller, draft: Draft, nearby: Nearby | None = None) -> AddResult:
    """`nearby` (embeddings on): an assistant's add is compared by meaning with the closest stored
    records, and its vector is stored with it."""
    scope, workspace = write_scope(caller, draft.access_scope)
    mode = _write_mode(ctx, caller)
    refused = rejection(
        draft.statement,
        [draft.domain, draft.evidence, draft.source, draft.source_reference, *draft.tags, *draft.entities],
    )
    if refused:
        return _added("rejected", reason=refused)
    draft = replace(draft, sensitivity=sensitivity.of(draft.statement, draft.sensitivity))
    if draft.sensitivity is Sensitivity.SENSITIVE and draft.access_scope is None:
        scope, workspace = Scope.LOCAL_ONLY, None  # a sensitive record stays on this machine unless asked
    judged = nearby if nearby and not caller.owner else None  # the person's own adds: the exact rule only
    # The model runs before the transaction, so it holds no store lock; the person's own adds need no
    # duplicate judgement (their vector is made behind the commit). When another thread is making the
    # vector already (an MCP call's head start), a draft whose domain is given and that links nothing
    # is written meanwhile instead, and undone should it prove a near duplicate.
    made = judged.made(draft.statement) if judged else None  # the add's one source of its vector
    ahead = made if made is not None and made.ahead and draft.domain and not draft.links else None
    vector = made.vector.result() if made is not None and ahead is None else None
    with ctx.transaction() as conn:
        assigned = draft.domain is None  # memvault chooses the domain: discovery may move the record later
        by_meaning = partial(judged.closest, conn, vector) if judged and vector is not None else None
        domain = draft.domain or assign_domain(conn, draft.statement, caller, scope, by_meaning)
        draft = replace(draft, domain=domain, access_scope=scope)
        assert draft.domain is not None
        norm = normalize_statement(draft.statement)
        duplicate = conn.memories.find_duplicate(caller, norm, draft.domain, draft.type.value)
        if duplicate is None and not caller.owner and ahead is None:  # a paraphrase: memory_propose's judgement
            close = judged.nearest(conn, made, SAME_COSINE_FLOOR) if judged and made is not None else None
            duplicate = near_duplicate(ctx, conn, caller, draft, close)
        now = ctx.now()
        store = partial(_store, ctx, conn, caller, draft, mode, scope, workspace, norm, assigned, now)
        stored: AddResult | None = None
        if duplicate is None and judged and ahead is not None:
            nearest = judged.nearest_as_stored(conn, SAME_COSINE_FLOOR)  # before this add's own rows
            with conn.savepoint() as undo:
                stored = store()
                vector = ahead.vector.result()
                duplicate = near_duplicate(ctx, conn, caller, draft, nearest(ahead), written=stored["id"])
                if duplicate is not None:
                    undo()
        if duplicate is not None:
            confirm(conn, caller, duplicate.id, now)
            return _added(
                "duplicate", id=duplicate.id, duplicate_of=duplicate.id, reason="the same statement is already current"
            )
        stored = stored or store()
        added = stored["id"] if stored["outcome"] == "added" else None
        indexed = judged.keep(conn, added, vector) if judged and added and vector is not None else None
    if indexed is not None:
        indexed()  # committed: its vector enters this process's index now
    return stored


def _store(
    ctx: Context,
    conn: Store,
    caller: Caller,
    draft: Draft,
    mode: WriteMode | None,
    scope: Scope,
    workspace: str | None,
    norm: str,
    assigned: bool,
    now: str,
) -> AddResult:
    """Commit an add no current record duplicates, or stage it when the write mode says so."""
    assert draft.domain is not None
    check_link_targets(conn, caller, draft)
    waits = mode and _staging_reason(ctx, conn, caller, mode, draft.sensitivity, draft.confidence, draft.domain, scope)
    if waits:
        waiting = conn.proposals.pending_same(caller, "add", norm, draft.domain)
        proposal_id = waiting or conn.proposals.stage(
            caller,
            "add",
            {
                "draft": draft.to_payload(),
                "workspace_id": workspace,  # the record's binding (None for a shared record)
                "proposer_workspace": caller.workspace_id,  # whom approval acts as
                "domain_assigned": assigned,
                "waits_because": waits,  # what the inbox shows the person
            },
            now,
            norm_key=norm,
        )
        if not waiting:
            conn.events.record(caller, "proposed", now, None, proposal_id=proposal_id, kind="add")
        return _added("staged", proposal_id=proposal_id, reason=waits)
    memory_id = commit_draft(conn, caller, draft, workspace, now)
    if assigned:
        conn.events.record(caller, "domain_assigned", now, memory_id, domain=draft.domain)
    assert draft.access_scope is not None
    kept = f"sensitive ({_PRIVATE_MATTER}): kept {draft.access_scope.value}"
    return _added("added", id=memory_id, reason=kept if draft.sensitivity is Sensitivity.SENSITIVE else None)


def require_writable(ctx: Context, caller: Caller) -> None:
    """Refuse an assistant's write in retrieval-only mode (the writer pass asks before anything else)."""
    _write_mode(ctx, caller)


def confirm(conn: Store, caller: Caller, memory_id: str, now: str) -> None:
    """Someone said a current record again: its last_confirmed_at moves (nothing new is stored)."""
    conn.memories.update(memory_id, now, last_confirmed_at=now)
    conn.events.record(caller, "confirmed", now, memory_id)


def check_link_targets(conn: Store, caller: Caller, draft: Draft) -> None:
    targets = {link.target_id for link in draft.links}
    visible = conn.memories.fetch_many(caller, sorted(targets))
    if len(visible) != len(targets):
        raise NotFound("links: no such memory")


def commit_draft(
    conn: Store,
    caller: Caller,
    draft: Draft,
    workspace: str | None,
    now: str,
    *,
    supersedes: str | None = None,
    import_batch_id: str | None = None,
    principal_binding: str | None = None,
) -> MemoryId:
    """Store a validated, screened draft (inside the caller's transaction) with all it implies."""
    assert draft.domain is not None and draft.access_scope is not None
    memory_id = MemoryId(new_id())
    conn.memories.ensure_domain(draft.domain, now)
    project_id = _project_of(conn, draft, now)
    evidence_hash = hashlib.sha256(draft.evidence.encode()).hexdigest() if draft.evidence else None
    conn.memories.insert(
        {
            "id": memory_id,
            "domain": draft.domain,
            "type": draft.type.value,
            "statement": draft.statement,
            "norm_key": normalize_statement(draft.statement),
            "status": Status.CURRENT.value,
            "confidence": draft.confidence,
            "importance": draft.importance,
            "explicitness": draft.explicitness.value,
            "sensitivity": draft.sensitivity.value,
            "access_scope": draft.access_scope.value,
            "authorized_workspace_id": workspace,
            "authorized_principal_id": principal_binding,
            "tags": json.dumps(draft.tags),
            "source": draft.source,
            "source_reference": draft.source_reference,
            "evidence": draft.evidence,
            "evidence_hash": evidence_hash,
            "project_id": project_id,
            "import_batch_id": import_batch_id,
            "created_by": caller.principal,
            "event_time": draft.event_time,
            "learned_at": now,
            "observed_at": draft.event_time or now,
            "valid_from": _valid_from(draft, now),
            "valid_until": draft.valid_until,
            "last_confirmed_at": now,
            "created_at": now,
            "updated_at": now,
            "supersedes_id": supersedes,
            "due_at": draft.due_at if draft.type in DUE_TYPES else None,
        },
    )
    conn.memories.attach_entities(memory_id, draft.entities, now)
    for link in draft.links:
        conn.memories.add_link(memory_id, link.target_id, link.type.value, now)
    _index_kind(conn, memory_id, draft, project_id, now)
    conn.memories.index_text(memory_id)
    conn.events.record(caller, "added", now, memory_id, domain=draft.domain, type=draft.type.value)
    return memory_id


def _valid_from(draft: Draft, now: str) -> str | None:
    """The start of valid time: as given, else when it happened or was learned; unknown (None)
    when that default would start after the record's own end (something learned after it ended)."""
    if draft.valid_from:
        return draft.valid_from
    start = draft.event_time or now
    return None if draft.valid_until and start >= draft.valid_until else start


def _project_of(conn: Store, draft: Draft, now: str) -> str | None:
    for tag in draft.tags:
        match = _PROJECT_TAG.match(tag)
        if match and match.group(1).strip():
            return conn.memories.ensure_project(match.group(1).strip(), now)
    return None


def _index_kind(conn: Store, memory_id: str, draft: Draft, project_id: str | None, now: str) -> None:
    """Keep the decision, unresolved and project-state tables in step with the record's type."""
    if draft.type is MemoryType.DECISION:
        conn.record_kinds.add_decision(memory_id, project_id, draft.event_time or now)
    if draft.type in UNRESOLVED_TYPES:
        due_at = draft.due_at if draft.type in DUE_TYPES else None
        conn.record_kinds.add_unresolved(memory_id, project_id, draft.type.value, due_at)
    if project_id and draft.type in (MemoryType.PROJECT, MemoryType.PROJECT_STATE):
        conn.record_kinds.add_project_state(project_id, memory_id, draft.event_time or now)


def current_record(conn: Store, caller: Caller, memory_id: str, expected_revision: int | None) -> Memory:
    """The visible record to change, refusing stale revisions (an invisible record is not_found)."""
    record = conn.memories.fetch(caller, memory_id)
    if record is None:
        raise NotFound("no such memory")
    if expected_revision and expected_revision != record.revision:
        raise Conflict(f"the record has changed (revision {record.revision}, expected {expected_revision})")
    return record


def _change_waits(
    ctx: Context,
    conn: Store,
    caller: Caller,
    mode: WriteMode | None,
    record: Memory,
    judged: Sensitivity | None = None,
) -> str | None:
    """Why an assistant's correction, archive or restore of `record` waits for review (None: it commits).
    `judged`: a correction's sensitivity (its new statement's and the record's, the higher)."""
    if mode is None:
        return None
    return _staging_reason(
        ctx,
        conn,
        caller,
        mode,
        judged or record.sensitivity,
        record.confidence,
        record.domain,
        record.access_scope,
        change=True,
    )


def correct(ctx: Context, caller: Caller, request: CorrectRequest) -> CorrectResult:
    """memory_correct; a request's `source_reference` (the writer pass's conversation_ref) becomes the new record's."""
    mode = _write_mode(ctx, caller)
    refused = rejection(request.statement, [request.reason])
    if refused:
        raise InvalidArgument(refused)
    with ctx.transaction() as conn:
        old = current_record(conn, caller, request.id, request.expected_revision)
        if old.status not in (Status.CURRENT, Status.PARTIAL, Status.DISPUTED):
            raise Conflict(f"only current records can be corrected (this one is {old.status.value})")
        if normalize_statement(request.statement) == normalize_statement(old.statement):
            raise InvalidArgument("the correction says the same as the record")
        now = ctx.now()
        waits = _change_waits(ctx, conn, caller, mode, old, sensitivity.of(request.statement, old.sensitivity))
        if waits:
            payload = {
                "id": old.id,
                "statement": request.statement,
                "reason": request.reason,
                "valid_from": request.valid_from,
                "expected_revision": old.revision,
                "workspace_id": caller.workspace_id,  # approval acts as the proposer, workspace included
                "source_reference": request.source_reference,
                "waits_because": waits,
            }
            proposal_id = conn.proposals.stage(caller, "correct", payload, now, target_id=old.id, reason=request.reason)
            conn.events.record(caller, "proposed", now, old.id, proposal_id=proposal_id, kind="correct")
            return {"outcome": "staged", "id": None, "supersedes_id": old.id, "proposal_id": ProposalId(proposal_id)}
        new_id = apply_correction(
            conn,
            caller,
            old,
            request.statement,
            request.reason,
            request.valid_from or correction_start(old, now),
            now,
            source_reference=request.source_reference,
        )
    return {"outcome": "superseded", "id": new_id, "supersedes_id": old.id, "proposal_id": None}


def correction_start(old: Memory, moment: str) -> str:
    """A correction's default valid_from: when it was said, or the old record's start if that is later."""
    return max(moment, old.valid_from) if old.valid_from else moment


def apply_correction(
    conn: Store,
    caller: Caller,
    old: Memory,
    statement: str,
    reason: str | None,
    valid_from: str,
    now: str,
    *,
    source_reference: str | None = None,
) -> MemoryId:
    """The new record supersedes the old one, which keeps its evidence and gets `valid_until`."""
    if old.valid_from and valid_from < old.valid_from:
        raise InvalidArgument("valid_from of a correction cannot be earlier than the record's own")
    draft = Draft(
        statement=statement,
        type=old.type,
        domain=old.domain,
        tags=old.tags,
        importance=old.importance,
        confidence=old.confidence,
        source="correction",
        source_reference=source_reference or old.source_reference,
        evidence=old.evidence,
        valid_from=valid_from,
        due_at=old.due_at,
        access_scope=old.access_scope,
        sensitivity=sensitivity.of(statement, old.sensitivity),
        entities=conn.memories.entity_names(old.id),
    )
    new_id = commit_draft(
        conn,
        caller,
        draft,
        old.authorized_workspace_id,
        now,
        supersedes=old.id,
        principal_binding=old.authorized_principal_id,  # a correction is as private as the record
    )
    conn.memories.update(
        old.id,
        now,
        status=Status.SUPERSEDED.value,
        # a record that had already ended keeps its own end (the correction does not extend it)
        valid_until=min(old.valid_until, valid_from) if old.valid_until else valid_from,
        superseded_by_id=new_id,
        superseded_at=now,
    )
    conn.memories.add_link(new_id, old.id, LinkType.SUPERSEDES.value, now)
    conn.record_kinds.close_unresolved(old.id, now)
    conn.events.record(caller, "superseded", now, old.id, by=new_id, reason_given=reason is not None)
    return new_id


def archive(ctx: Context, caller: Caller, request: ArchiveRequest, *, review: bool = False) -> ArchiveResult:
    """memory_archive; with `review`, an assistant's archive waits for the person in every mode
    (the writer pass's ARCHIVE is a judgement, not an instruction: it never retires a record alone)."""
    mode = _write_mode(ctx, caller)
    refused = secret_rejection([request.reason])  # the reason is stored with the record (or the proposal)
    if refused:
        raise InvalidArgument(refused)
    with ctx.transaction() as conn:
        record = current_record(conn, caller, request.id, request.expected_revision)
        if record.status is Status.ARCHIVED:
            raise Conflict("the record is already archived")
        now = ctx.now()
        waits = ARCHIVE_REVIEW if review and mode is not None else _change_waits(ctx, conn, caller, mode, record)
        if waits:
            payload = {
                "id": record.id,
                "reason": request.reason,
                "expected_revision": record.revision,
                "workspace_id": caller.workspace_id,
                "waits_because": waits,
            }
            proposal_id = conn.proposals.stage(
                caller, "archive", payload, now, target_id=record.id, reason=request.reason
            )
            conn.events.record(caller, "proposed", now, record.id, proposal_id=proposal_id, kind="archive")
            return {"outcome": "staged", "id": record.id, "proposal_id": ProposalId(proposal_id)}
        apply_archive(conn, caller, record, request.reason, now)
    return {"outcome": "archived", "id": record.id}


def apply_archive(conn: Store, caller: Caller, record: Memory, reason: str | None, now: str) -> None:
    conn.memories.update(
        record.id,
        now,
        status=Status.ARCHIVED.value,
        archived_reason=reason,
        archived_at=now,
        status_before_archive=record.status.value,
    )
    conn.record_kinds.close_unresolved(record.id, now)
    conn.events.record(caller, "archived", now, record.id)


def restore(ctx: Context, caller: Caller, memory_id: MemoryId) -> RestoreResult:
    """Bring an archived record back; an assistant's restore is staged under the same rule as an archive."""
    mode = _write_mode(ctx, caller)
    with ctx.transaction() as conn:
        record = current_record(conn, caller, memory_id, None)
        if record.status is not Status.ARCHIVED:
            raise Conflict("the record is not archived")
        now = ctx.now()
        waits = _change_waits(ctx, conn, caller, mode, record)
        if waits:
            payload = {
                "id": record.id,
                "expected_revision": record.revision,
                "workspace_id": caller.workspace_id,
                "waits_because": waits,
            }
            proposal_id = conn.proposals.stage(caller, "restore", payload, now, target_id=record.id)
            conn.events.record(caller, "proposed", now, record.id, proposal_id=proposal_id, kind="restore")
            return {"outcome": "staged", "id": record.id, "proposal_id": ProposalId(proposal_id)}
        apply_restore(conn, caller, record, now)
    return {"outcome": "restored", "id": record.id, "proposal_id": None}


def apply_restore(conn: Store, caller: Caller, record: Memory, now: str) -> None:
    previous = conn.memories.status_before_archive(record.id)
    conn.memories.update(
        record.id,
        now,
        status=previous or Status.CURRENT.value,
        archived_reason=None,
        archived_at=None,
        status_before_archive=None,
    )
    conn.record_kinds.reopen_unresolved(record.id)
    conn.events.record(caller, "restored", now, record.id)


def change_scope(ctx: Context, caller: Caller, memory_id: MemoryId, scope: Scope, workspace_id: str | None) -> Memory:
    """Who may read a record, decided by the person alone (records of its history follow, so no
    older version stays readable where the current one is not)."""
    require_owner(caller, "changing who may read a record")
    if (scope is Scope.WORKSPACE_ALLOWED) != bool(workspace_id):
        raise InvalidArgument("a workspace_allowed record names its workspace (and only such a record does)")
    with ctx.transaction() as conn:
        record = current_record(conn, caller, memory_id, None)
        now = ctx.now()
        chain = [record.id, *conn.memories.version_chain(record.id)]
        for version in chain:
            conn.memories.update(version, now, access_scope=scope.value, authorized_workspace_id=workspace_id)
            conn.events.record(caller, "scope_changed", now, version, scope=scope.value)
        changed = conn.memories.fetch(caller, record.id)
    assert changed is not None
    return changed
