"""The changes a consolidation run makes, each an event and an undo item of its run.

- merge: the near duplicates become one new record (`explicitness: consolidated`) that says the
  oldest wording, takes the group's highest importance and confidence and every tag, and lists
  each member's id and evidence hash as its evidence; the members turn `superseded` by it and keep
  all their evidence (a `supersedes` link to each).
- promote: a group of at least MIN_RECURRENCE members saying a constraint becomes a CONSTRAINT.
- inferred only: a group whose members are all inferred, with fewer than MIN_EVIDENCE members,
  is not merged but proposed in the approval inbox (the person decides).
- dispute: two current records of the same subject with different values both turn `disputed`,
  linked `contradicts`.
- lower: a stale record (idle past STALE_DAYS, never retrieved, not durable) loses importance,
  so its activation fades faster; nothing is removed.
"""

from __future__ import annotations

import re
from datetime import timedelta

from memvault.core.retrieval.tiers import is_durable, moment
from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import Caller, Explicitness, LinkType, Memory, MemoryType, Status
from memvault.core.writer.normalize import normalize_statement
from memvault.core.writer.writes import commit_draft

MIN_RECURRENCE = 3
MIN_EVIDENCE = 3
STALE_DAYS = 365
STALE_STEP, MIN_IMPORTANCE = 0.1, 0.1
MAX_EVIDENCE = 3900
_CONSTRAINT = re.compile(r"\b(?:can't|cannot|can not|must|mustn't|never|always|not allowed|allergic|only)\b", re.I)


def _change(conn: Store, run_id: str, record_id: str) -> None:
    conn.imports.add_item(run_id, "changed", target_id=record_id, prior=conn.imports.prior_of(record_id))


def _evidence(group: list[Memory]) -> str:
    parts = [f"{m.id}" + (f" ({m.source_reference})" if m.source_reference else "") for m in group]
    return ("consolidated from " + "; ".join(parts))[:MAX_EVIDENCE]


def merge(conn: Store, caller: Caller, run_id: str, group: list[Memory], now: str) -> str | None:
    """One record for a group of near duplicates (None: proposed for approval instead)."""
    first = group[0]
    promoted = len(group) >= MIN_RECURRENCE and first.type is not MemoryType.CONSTRAINT
    promoted = promoted and all(_CONSTRAINT.search(m.statement) for m in group)
    draft = Draft(
        statement=first.statement,
        type=MemoryType.CONSTRAINT if promoted else first.type,
        domain=first.domain,
        tags=sorted({t for m in group for t in m.tags}),
        importance=max([*(m.importance for m in group), 0.8 if promoted else 0.0]),
        confidence=max(m.confidence for m in group),
        explicitness=Explicitness.CONSOLIDATED,
        source="consolidation",
        source_reference=f"consolidation:{run_id}",
        evidence=_evidence(group),
        valid_from=min((m.valid_from for m in group if m.valid_from), default=None),
        due_at=first.due_at,
        access_scope=first.access_scope,
        sensitivity=first.sensitivity,
        entities=sorted({n for m in group for n in conn.memories.entity_names(m.id)}),
    )
    if all(m.explicitness is Explicitness.INFERRED for m in group) and len(group) < MIN_EVIDENCE:
        payload = {"draft": draft.to_payload(), "workspace_id": first.authorized_workspace_id, "domain_assigned": False}
        proposal = conn.proposals.stage(caller, "add", payload, now, norm_key=normalize_statement(draft.statement),
                                   reason="consolidation: inferred records need your approval")  # fmt: skip
        conn.events.record(caller, "proposed", now, None, proposal_id=proposal, kind="add", run_id=run_id)
        return None
    merged = commit_draft(conn, caller, draft, first.authorized_workspace_id, now,
                          principal_binding=first.authorized_principal_id)  # fmt: skip
    conn.imports.tag_batch(merged, run_id)
    conn.imports.add_item(run_id, "added", memory_id=merged)
    for member in group:
        _change(conn, run_id, member.id)
        conn.memories.update(member.id, now, status=Status.SUPERSEDED.value, superseded_by_id=merged, superseded_at=now)
        conn.memories.add_link(merged, member.id, LinkType.SUPERSEDES.value, now)
        conn.events.record(caller, "superseded", now, member.id, by=merged, run_id=run_id)
    conn.events.record(caller, "consolidated", now, merged, members=[m.id for m in group], promoted=promoted)
    return merged


def dispute(conn: Store, caller: Caller, run_id: str, older: Memory, newer: Memory, now: str) -> None:
    for record in (older, newer):
        _change(conn, run_id, record.id)
        conn.memories.update(record.id, now, status=Status.DISPUTED.value)
        conn.events.record(caller, "disputed", now, record.id, run_id=run_id)
    conn.memories.add_link(newer.id, older.id, LinkType.CONTRADICTS.value, now)
    conn.imports.add_item(run_id, "linked", memory_id=newer.id, target_id=older.id,
                         prior={"type": LinkType.CONTRADICTS.value})  # fmt: skip


def is_stale(record: Memory, now: str) -> bool:
    latest = max(
        t for t in (record.last_retrieved_at, record.last_confirmed_at, record.learned_at, "") if t is not None
    )
    if not latest or is_durable(record) or record.retrieval_count or record.importance <= MIN_IMPORTANCE:
        return False
    return moment(now) - moment(latest) > timedelta(days=STALE_DAYS)


def lower(conn: Store, caller: Caller, run_id: str, record: Memory, now: str) -> None:
    _change(conn, run_id, record.id)
    lowered = round(max(MIN_IMPORTANCE, record.importance - STALE_STEP), 3)
    conn.memories.update(record.id, now, importance=lowered)
    conn.events.record(caller, "activation_lowered", now, record.id, run_id=run_id, importance=lowered)
