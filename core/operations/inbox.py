"""The approval inbox: what assistants proposed, and the person's one-click decision on it.

Approving carries out a proposed write as it was proposed, re-checked against the store as
it is now, acting as the proposer (its access scope and workspace). Rejecting keeps no content.
Purge requests wait here too but are confirmed by `core/maintenance/purge.py`. An import (a
dropped export's dry run) commits in chunks like `memvault import --commit`: approving it again
after a crash resumes it, and the proposal is closed in its last chunk's transaction.
"""

from __future__ import annotations

from typing import Any

from memvault.core.importers.watched_folder import commit_approved
from memvault.core.security.access import require_owner
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import Draft, required_text
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, NotFound
from memvault.core.vocabulary.model import Caller, MemoryId, ProposalId, Status, Surface
from memvault.core.vocabulary.results import Decision, ProposalRow
from memvault.core.writer.normalize import normalize_statement
from memvault.core.writer.writes import (
    apply_archive,
    apply_correction,
    apply_restore,
    check_link_targets,
    commit_draft,
    confirm,
    correction_start,
    current_record,
)

STATUSES = ("pending", "approved", "rejected")


def list_proposals(ctx: Context, caller: Caller, status: str = "pending", limit: int = 100) -> list[ProposalRow]:
    require_owner(caller, "reading the approval inbox")
    if status not in STATUSES:
        raise InvalidArgument("status: expected pending, approved or rejected")
    with ctx.reading() as conn:
        return conn.proposals.list_by_status(status, limit)


def approve(ctx: Context, caller: Caller, proposal_id: ProposalId) -> Decision:
    """Carry out a proposed write as it was proposed, re-checked against the store as it is now."""
    require_owner(caller, "approving a proposal")
    with ctx.reading() as conn:
        staged = _pending(conn, proposal_id)
    if staged["kind"] == "import":  # many transactions, resumable (core/importers/watched_folder.py)
        imported: Decision = {"proposal_id": ProposalId(staged["id"]), "outcome": "imported", "id": None}
        commit_approved(ctx, _proposer(staged), staged, lambda conn, _batch, now: _close(conn, caller, staged,
                                                                                         imported, now))  # fmt: skip
        return imported
    with ctx.transaction() as conn:
        proposal = _pending(conn, proposal_id)
        now = ctx.now()
        result = _apply(conn, _proposer(proposal), proposal, now)
        _close(conn, caller, proposal, result, now)
    return result


def _proposer(proposal: ProposalRow) -> Caller:
    """Whom approval acts as: the proposer, in its workspace (older proposals kept only the record's binding)."""
    payload = proposal["payload"]
    workspace = _optional(payload, "proposer_workspace" if "proposer_workspace" in payload else "workspace_id")
    return Caller(proposal["principal"], Surface(proposal["surface"]), workspace)


def _close(conn: Store, caller: Caller, proposal: ProposalRow, result: Decision, now: str) -> None:
    conn.proposals.decide(proposal["id"], "approved", now, result.get("id"))
    conn.events.record(
        caller,
        "approved",
        now,
        result.get("id"),
        proposal_id=proposal["id"],
        kind=proposal["kind"],
        proposed_by=proposal["principal"],
    )


def _apply(conn: Store, proposer: Caller, proposal: ProposalRow, now: str) -> Decision:
    payload, kind, proposal_id = proposal["payload"], proposal["kind"], ProposalId(proposal["id"])
    if kind == "add":
        return _apply_add(conn, proposer, proposal_id, payload, now)
    if kind not in ("correct", "archive", "restore"):  # purge requests: Vault.confirm_purge (memvault purge --confirm)
        raise InvalidArgument(f"proposals of kind {kind} are confirmed with confirm_purge, not approve")
    record = current_record(conn, proposer, str(payload["id"]), _revision(payload))
    if kind == "correct":
        if record.status not in (Status.CURRENT, Status.PARTIAL, Status.DISPUTED):
            raise Conflict("the record is no longer current")
        new_id = apply_correction(
            conn,
            proposer,
            record,
            str(payload["statement"]),
            _optional(payload, "reason"),
            _optional(payload, "valid_from") or correction_start(record, proposal["created_at"]),  # as said then
            now,
            source_reference=_optional(payload, "source_reference"),
        )
        return {"proposal_id": proposal_id, "outcome": "superseded", "id": new_id, "supersedes_id": record.id}
    if kind == "archive":
        if record.status is Status.ARCHIVED:
            raise Conflict("the record is already archived")
        apply_archive(conn, proposer, record, _optional(payload, "reason"), now)
        return {"proposal_id": proposal_id, "outcome": "archived", "id": record.id}
    if record.status is not Status.ARCHIVED:
        raise Conflict("the record is not archived")
    apply_restore(conn, proposer, record, now)
    return {"proposal_id": proposal_id, "outcome": "restored", "id": record.id}


def _apply_add(conn: Store, proposer: Caller, proposal_id: ProposalId, payload: dict[str, Any], now: str) -> Decision:
    draft = Draft.parse(payload["draft"])
    norm = normalize_statement(draft.statement)
    assert draft.domain is not None
    duplicate = conn.memories.find_duplicate(proposer, norm, draft.domain, draft.type.value)
    if duplicate is not None:
        confirm(conn, proposer, duplicate.id, now)  # the state change gets its event
        return {"proposal_id": proposal_id, "outcome": "duplicate", "id": duplicate.id}
    check_link_targets(conn, proposer, draft)
    memory_id = commit_draft(conn, proposer, draft, payload.get("workspace_id"), now)
    if payload.get("domain_assigned"):
        conn.events.record(proposer, "domain_assigned", now, memory_id, domain=draft.domain)
    return {"proposal_id": proposal_id, "outcome": "added", "id": MemoryId(memory_id)}


def _optional(payload: dict[str, Any], key: str) -> str | None:
    value = payload.get(key)
    return None if value is None else str(value)


def _revision(payload: dict[str, Any]) -> int | None:
    value = payload.get("expected_revision")
    return value if isinstance(value, int) else None


def _pending(conn: Store, proposal_id: str) -> ProposalRow:
    proposal_id = required_text(proposal_id, "proposal_id", max_chars=64)
    proposal = conn.proposals.fetch(proposal_id)
    if proposal is None:
        raise NotFound("no such proposal")
    if proposal["status"] != "pending":
        raise Conflict(f"the proposal was already {proposal['status']}")
    return proposal


def reject(ctx: Context, caller: Caller, proposal_id: ProposalId, reason: str | None = None) -> Decision:
    """Say no to a proposal: it is closed and keeps no content (nor the reason: the person said no)."""
    require_owner(caller, "rejecting a proposal")
    with ctx.transaction() as conn:
        proposal = _pending(conn, proposal_id)
        now = ctx.now()
        conn.proposals.decide(proposal["id"], "rejected", now)
        conn.events.record(
            caller,
            "rejected",
            now,
            proposal.get("target_id"),
            proposal_id=proposal["id"],
            kind=proposal["kind"],
            reason_given=bool(reason),
        )
    return {"proposal_id": ProposalId(proposal["id"]), "outcome": "rejected"}
