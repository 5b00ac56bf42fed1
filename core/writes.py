"""Adding, correcting, archiving and restoring memories, through the gate and the write mode."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from typing import Any

from memvault.core.access import require_owner, write_scope
from memvault.core.context import Context
from memvault.core.drafts import Draft, int_in, optional_time, parse_draft, required_text, text
from memvault.core.errors import Conflict, InvalidArgument, NotFound, ReadOnlyMode
from memvault.core.model import (
    DUE_TYPES,
    UNRESOLVED_TYPES,
    Caller,
    LinkType,
    MemoryId,
    MemoryType,
    Scope,
    Sensitivity,
    Status,
    Surface,
    WriteMode,
)
from memvault.core.retrieval.placement import assign_domain
from memvault.core.store import events, memories, proposals, record_kinds
from memvault.core.store.connection import Connection
from memvault.core.writer.gate import rejection, secret_rejection
from memvault.core.writer.normalize import normalize_statement

_PROJECT_TAG = re.compile(r"^project:(.+)$", re.IGNORECASE)
MAX_REASON = 500


def _answer(outcome: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"outcome": outcome, "id": None, "proposal_id": None, "duplicate_of": None, "reason": None}
    base.update(fields)
    return base


def _write_mode(ctx: Context, caller: Caller) -> WriteMode | None:
    """The write mode that governs this caller; None for the person, whose writes are direct."""
    if caller.owner:
        return None
    mode = WriteMode(ctx.setting("write_mode"))
    if mode is WriteMode.RETRIEVAL_ONLY:
        raise ReadOnlyMode("memvault is in retrieval-only mode: assistants cannot write")
    return mode


def _auto_commits(ctx: Context, conn: Connection, draft: Draft, scope: Scope) -> bool:
    """Automatic mode commits only non-sensitive, confident writes in approved domains and scopes."""
    if draft.sensitivity is not Sensitivity.NORMAL:
        return False
    if draft.confidence < float(ctx.setting("auto_write_min_confidence")):
        return False
    if scope.value not in ctx.setting("auto_write_scopes"):
        return False
    approved = ctx.setting("auto_write_domains")
    if approved:
        return draft.domain in approved
    return memories.domain_exists(conn, draft.domain)


def add(ctx: Context, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
    draft = parse_draft(args)
    scope, workspace = write_scope(caller, draft.access_scope)
    mode = _write_mode(ctx, caller)
    refused = rejection(
        draft.statement,
        [draft.domain, draft.evidence, draft.source, draft.source_reference, *draft.tags, *draft.entities],
    )
    if refused:
        return _answer("rejected", reason=refused)
    with ctx.transaction() as conn:
        assigned = draft.domain is None  # memvault chooses the domain: discovery may move the record later
        draft = replace(
            draft, domain=draft.domain or assign_domain(conn, draft.statement, caller, scope), access_scope=scope
        )
        assert draft.domain is not None
        norm = normalize_statement(draft.statement)
        duplicate = memories.find_duplicate(conn, caller, norm, draft.domain, draft.type.value)
        if duplicate is None and not caller.owner:  # an assistant's paraphrase: memory_propose's judgement
            from memvault.core.writer.propose import near_duplicate  # noqa: PLC0415 - propose imports writes

            duplicate = near_duplicate(ctx, conn, caller, draft)
        now = ctx.now()
        if duplicate is not None:
            confirm(conn, caller, duplicate.id, now)
            return _answer(
                "duplicate", id=duplicate.id, duplicate_of=duplicate.id, reason="the same statement is already current"
            )
        check_link_targets(conn, caller, draft)
        if mode is WriteMode.REVIEW_BEFORE_WRITE or (
            mode is WriteMode.AUTOMATIC and not _auto_commits(ctx, conn, draft, scope)
        ):
            waiting = proposals.pending_same(conn, caller, "add", norm, draft.domain)
            proposal_id = waiting or proposals.stage(
                conn,
                caller,
                "add",
                {
                    "draft": draft.to_payload(),
                    "workspace_id": workspace,  # the record's binding (None for a shared record)
                    "proposer_workspace": caller.workspace_id,  # whom approval acts as
                    "domain_assigned": assigned,
                },
                now,
                norm_key=norm,
            )
            if not waiting:
                events.record(conn, caller, "proposed", now, None, proposal_id=proposal_id, kind="add")
            return _answer("staged", proposal_id=proposal_id, reason="waiting in the approval inbox")
        memory_id = commit_draft(conn, caller, draft, workspace, now)
        if assigned:
            events.record(conn, caller, "domain_assigned", now, memory_id, domain=draft.domain)
    return _answer("added", id=memory_id)


def require_writable(ctx: Context, caller: Caller) -> None:
    """Refuse an assistant's write in retrieval-only mode (the writer pass asks before anything else)."""
    _write_mode(ctx, caller)


def confirm(conn: Connection, caller: Caller, memory_id: str, now: str) -> None:
    """Someone said a current record again: its last_confirmed_at moves (nothing new is stored)."""
    memories.update(conn, memory_id, now, last_confirmed_at=now)
    events.record(conn, caller, "confirmed", now, memory_id)


def check_link_targets(conn: Connection, caller: Caller, draft: Draft) -> None:
    targets = {link.target_id for link in draft.links}
    visible = memories.fetch_many(conn, caller, sorted(targets))
    if len(visible) != len(targets):
        raise NotFound("links: no such memory")


def commit_draft(
    conn: Connection,
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
    memory_id = MemoryId(memories.new_id())
    memories.ensure_domain(conn, draft.domain, now)
    project_id = _project_of(conn, draft, now)
    evidence_hash = hashlib.sha256(draft.evidence.encode()).hexdigest() if draft.evidence else None
    memories.insert(
        conn,
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
    memories.attach_entities(conn, memory_id, draft.entities, now)
    for link in draft.links:
        memories.add_link(conn, memory_id, link.target_id, link.type.value, now)
    _index_kind(conn, memory_id, draft, project_id, now)
    memories.index_text(conn, memory_id)
    events.record(conn, caller, "added", now, memory_id, domain=draft.domain, type=draft.type.value)
    return memory_id


def _valid_from(draft: Draft, now: str) -> str | None:
    """The start of valid time: as given, else when it happened or was learned; unknown (None)
    when that default would start after the record's own end (something learned after it ended)."""
    if draft.valid_from:
        return draft.valid_from
    start = draft.event_time or now
    return None if draft.valid_until and start >= draft.valid_until else start


def _project_of(conn: Connection, draft: Draft, now: str) -> str | None:
    for tag in draft.tags:
        match = _PROJECT_TAG.match(tag)
        if match and match.group(1).strip():
            return memories.ensure_project(conn, match.group(1).strip(), now)
    return None


def _index_kind(conn: Connection, memory_id: str, draft: Draft, project_id: str | None, now: str) -> None:
    """Keep the decision, unresolved and project-state tables in step with the record's type."""
    if draft.type is MemoryType.DECISION:
        record_kinds.add_decision(conn, memory_id, project_id, draft.event_time or now)
    if draft.type in UNRESOLVED_TYPES:
        due_at = draft.due_at if draft.type in DUE_TYPES else None
        record_kinds.add_unresolved(conn, memory_id, project_id, draft.type.value, due_at)
    if project_id and draft.type in (MemoryType.PROJECT, MemoryType.PROJECT_STATE):
        record_kinds.add_project_state(conn, project_id, memory_id, draft.event_time or now)


def _current(conn: Connection, caller: Caller, memory_id: Any, expected_revision: Any) -> Any:
    """The visible record to change, refusing stale revisions (an invisible record is not_found)."""
    memory_id = required_text(memory_id, "id", max_chars=64)
    record = memories.fetch(conn, caller, memory_id)
    if record is None:
        raise NotFound("no such memory")
    revision = int_in(expected_revision, "expected_revision", 0, 1, 2**31)
    if revision and revision != record.revision:
        raise Conflict(f"the record has changed (revision {record.revision}, expected {revision})")
    return record


def correct(
    ctx: Context, caller: Caller, args: dict[str, Any], *, source_reference: str | None = None
) -> dict[str, Any]:
    """memory_correct; `source_reference` (the writer pass's conversation_ref) becomes the new record's."""
    _only(args, {"id", "statement", "reason", "valid_from", "expected_revision"})
    statement = required_text(args.get("statement"), "statement", max_chars=4000)
    reason = text(args.get("reason"), "reason", max_chars=MAX_REASON)
    valid_from = optional_time(args.get("valid_from"), "valid_from")
    mode = _write_mode(ctx, caller)
    refused = rejection(statement, [reason])
    if refused:
        raise InvalidArgument(refused)
    with ctx.transaction() as conn:
        old = _current(conn, caller, args.get("id"), args.get("expected_revision"))
        if old.status not in (Status.CURRENT, Status.PARTIAL, Status.DISPUTED):
            raise Conflict(f"only current records can be corrected (this one is {old.status.value})")
        if normalize_statement(statement) == normalize_statement(old.statement):
            raise InvalidArgument("the correction says the same as the record")
        now = ctx.now()
        if mode is not None:
            payload = {
                "id": old.id,
                "statement": statement,
                "reason": reason,
                "valid_from": valid_from,
                "expected_revision": old.revision,
                "workspace_id": caller.workspace_id,  # approval acts as the proposer, workspace included
                "source_reference": source_reference,
            }
            proposal_id = proposals.stage(conn, caller, "correct", payload, now, target_id=old.id, reason=reason)
            events.record(conn, caller, "proposed", now, old.id, proposal_id=proposal_id, kind="correct")
            return {"outcome": "staged", "id": None, "supersedes_id": old.id, "proposal_id": proposal_id}
        new_id = apply_correction(
            conn, caller, old, statement, reason, valid_from or _start(old, now), now, source_reference=source_reference
        )
    return {"outcome": "superseded", "id": new_id, "supersedes_id": old.id, "proposal_id": None}


def _start(old: Any, moment: str) -> str:
    """A correction's default valid_from: when it was said, or the old record's start if that is later."""
    return max(moment, old.valid_from) if old.valid_from else moment


def apply_correction(
    conn: Connection,
    caller: Caller,
    old: Any,
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
        sensitivity=old.sensitivity,
        entities=memories.entity_names(conn, old.id),
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
    memories.update(
        conn,
        old.id,
        now,
        status=Status.SUPERSEDED.value,
        # a record that had already ended keeps its own end (the correction does not extend it)
        valid_until=min(old.valid_until, valid_from) if old.valid_until else valid_from,
        superseded_by_id=new_id,
        superseded_at=now,
    )
    memories.add_link(conn, new_id, old.id, LinkType.SUPERSEDES.value, now)
    record_kinds.close_unresolved(conn, old.id, now)
    events.record(conn, caller, "superseded", now, old.id, by=new_id, reason_given=reason is not None)
    return new_id


def archive(ctx: Context, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
    _only(args, {"id", "reason", "expected_revision"})
    reason = text(args.get("reason"), "reason", max_chars=MAX_REASON)
    mode = _write_mode(ctx, caller)
    refused = secret_rejection([reason])  # the reason is stored with the record (or the proposal)
    if refused:
        raise InvalidArgument(refused)
    with ctx.transaction() as conn:
        record = _current(conn, caller, args.get("id"), args.get("expected_revision"))
        if record.status is Status.ARCHIVED:
            raise Conflict("the record is already archived")
        now = ctx.now()
        if mode is not None:
            payload = {
                "id": record.id,
                "reason": reason,
                "expected_revision": record.revision,
                "workspace_id": caller.workspace_id,
            }
            proposal_id = proposals.stage(conn, caller, "archive", payload, now, target_id=record.id, reason=reason)
            events.record(conn, caller, "proposed", now, record.id, proposal_id=proposal_id, kind="archive")
            return {"outcome": "staged", "id": record.id, "proposal_id": proposal_id}
        apply_archive(conn, caller, record, reason, now)
    return {"outcome": "archived", "id": record.id}


def apply_archive(conn: Connection, caller: Caller, record: Any, reason: str | None, now: str) -> None:
    memories.update(
        conn,
        record.id,
        now,
        status=Status.ARCHIVED.value,
        archived_reason=reason,
        archived_at=now,
        status_before_archive=record.status.value,
    )
    record_kinds.close_unresolved(conn, record.id, now)
    events.record(conn, caller, "archived", now, record.id)


def restore(ctx: Context, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
    _only(args, {"id"})
    _write_mode(ctx, caller)
    with ctx.transaction() as conn:
        record = _current(conn, caller, args.get("id"), None)
        if record.status is not Status.ARCHIVED:
            raise Conflict("the record is not archived")
        previous = memories.status_before_archive(conn, record.id)
        now = ctx.now()
        memories.update(
            conn,
            record.id,
            now,
            status=previous or Status.CURRENT.value,
            archived_reason=None,
            archived_at=None,
            status_before_archive=None,
        )
        record_kinds.reopen_unresolved(conn, record.id)
        events.record(conn, caller, "restored", now, record.id)
    return {"outcome": "restored", "id": record.id}


def _only(args: dict[str, Any], allowed: set[str]) -> None:
    unknown = set(args) - allowed
    if unknown:
        raise InvalidArgument(f"unknown argument(s): {', '.join(sorted(unknown))}")


def approve(ctx: Context, caller: Caller, proposal_id: str) -> dict[str, Any]:
    """Carry out a proposed write as it was proposed, re-checked against the store as it is now."""
    require_owner(caller, "approving a proposal")
    with ctx.transaction() as conn:
        proposal = _pending(conn, proposal_id)
        payload = proposal["payload"]
        workspace = payload.get("proposer_workspace", payload.get("workspace_id"))
        proposer = Caller(proposal["principal"], Surface(proposal["surface"]), workspace)
        now = ctx.now()
        result = _apply_proposal(conn, proposer, proposal, now)
        proposals.decide(conn, proposal["id"], "approved", now, result.get("id"))
        events.record(
            conn,
            caller,
            "approved",
            now,
            result.get("id"),
            proposal_id=proposal["id"],
            kind=proposal["kind"],
            proposed_by=proposal["principal"],
        )
    return {"proposal_id": proposal["id"], **result}


def _apply_proposal(conn: Connection, proposer: Caller, proposal: dict[str, Any], now: str) -> dict[str, Any]:
    payload, kind = proposal["payload"], proposal["kind"]
    if kind == "add":
        draft = parse_draft(payload["draft"])
        norm = normalize_statement(draft.statement)
        assert draft.domain is not None
        duplicate = memories.find_duplicate(conn, proposer, norm, draft.domain, draft.type.value)
        if duplicate is not None:
            confirm(conn, proposer, duplicate.id, now)  # the state change gets its event
            return {"outcome": "duplicate", "id": duplicate.id}
        check_link_targets(conn, proposer, draft)
        memory_id = commit_draft(conn, proposer, draft, payload.get("workspace_id"), now)
        if payload.get("domain_assigned"):
            events.record(conn, proposer, "domain_assigned", now, memory_id, domain=draft.domain)
        return {"outcome": "added", "id": memory_id}
    if kind == "import":  # a dropped export's dry run, approved: commit it (core/importers/inbox.py)
        from memvault.core.importers.inbox import commit_approved  # noqa: PLC0415 - importers import writes

        return commit_approved(conn, proposer, proposal, now)
    if kind not in ("correct", "archive"):  # purge requests: Vault.confirm_purge (memvault purge --confirm)
        raise InvalidArgument(f"proposals of kind {kind} are confirmed with confirm_purge, not approve")
    record = _current(conn, proposer, payload["id"], payload.get("expected_revision"))
    if kind == "correct":
        if record.status not in (Status.CURRENT, Status.PARTIAL, Status.DISPUTED):
            raise Conflict("the record is no longer current")
        new_id = apply_correction(
            conn,
            proposer,
            record,
            payload["statement"],
            payload.get("reason"),
            payload.get("valid_from") or _start(record, proposal["created_at"]),  # as said when proposed
            now,
            source_reference=payload.get("source_reference"),
        )
        return {"outcome": "superseded", "id": new_id, "supersedes_id": record.id}
    if kind == "archive":
        if record.status is Status.ARCHIVED:
            raise Conflict("the record is already archived")
        apply_archive(conn, proposer, record, payload.get("reason"), now)
        return {"outcome": "archived", "id": record.id}
    raise InvalidArgument(f"proposals of kind {kind} are confirmed elsewhere")


def _pending(conn: Connection, proposal_id: Any) -> dict[str, Any]:
    proposal_id = required_text(proposal_id, "proposal_id", max_chars=64)
    proposal = proposals.fetch(conn, proposal_id)
    if proposal is None:
        raise NotFound("no such proposal")
    if proposal["status"] != "pending":
        raise Conflict(f"the proposal was already {proposal['status']}")
    return proposal


def reject(ctx: Context, caller: Caller, proposal_id: str, reason: str | None = None) -> dict[str, Any]:
    require_owner(caller, "rejecting a proposal")
    with ctx.transaction() as conn:
        proposal = _pending(conn, proposal_id)
        now = ctx.now()
        proposals.decide(conn, proposal["id"], "rejected", now)
        events.record(
            conn,
            caller,
            "rejected",
            now,
            proposal.get("target_id"),
            proposal_id=proposal["id"],
            kind=proposal["kind"],
            reason_given=bool(reason),
        )
    return {"proposal_id": proposal["id"], "outcome": "rejected"}
