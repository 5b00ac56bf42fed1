"""The contract's advanced read tools: related records, timelines, project history, decisions, unresolved items.

Each view takes a validated request (core/vocabulary/requests.py), applies the caller's
visibility inside its queries, and never returns archived records (only `memory_get`,
`memory_list(status="archived")` and `memory_restore` reach those). A record the caller
may not see behaves exactly like a missing one.
"""

from __future__ import annotations

import re

from memvault.core.retrieval.query import word_terms
from memvault.core.store.context import Context
from memvault.core.store.rows import ProjectKey
from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import required_text
from memvault.core.vocabulary.errors import NotFound
from memvault.core.vocabulary.model import Caller, Memory, Status
from memvault.core.vocabulary.requests import (
    MAX_ITEMS,
    DecisionsRequest,
    RelatedRequest,
    TimelineRequest,
    UnresolvedRequest,
)
from memvault.core.vocabulary.results import Graph, Items, ProjectHistory, Timeline

MAX_TIMELINE_RECORDS = 5000  # records read for one timeline (their events are then windowed)
# Kinds of timeline events, in the order they sort when they share a moment.
KIND_ORDER = ("valid_from", "learned", "superseded", "valid_until", "archived", "restored", "due")


def _norm(name: str) -> str:
    return re.sub(r"\s+", " ", name).strip().casefold()


# -- related ---------------------------------------------------------------------------------
def related(ctx: Context, caller: Caller, request: RelatedRequest) -> Graph:
    """The records linked to one record, up to `depth` hops, with the links between them."""
    memory_id, depth, limit = request.id, request.depth, request.limit
    types = [t.value for t in request.types]
    with ctx.reading() as conn:
        root = conn.memories.fetch(caller, memory_id)
        if root is None or root.status is Status.ARCHIVED:
            raise NotFound("no such memory")
        order: list[str] = [root.id]
        frontier: list[str] = [root.id]
        for _ in range(depth):
            found: list[str] = []
            for edge in conn.views.links_touching(caller, frontier, types):
                for end in (edge["from"], edge["to"]):
                    if end not in order and end not in found and len(order) + len(found) < limit:
                        found.append(end)
            order += found
            frontier = found
            if not frontier:
                break
        records = conn.memories.fetch_many(caller, order)
        members = set(order)
        # Every link among the chosen nodes, including links between two nodes of the last hop.
        edges = [
            edge
            for edge in conn.views.links_touching(caller, order, types)
            if edge["from"] in members and edge["to"] in members
        ]
    return {"nodes": [records[i].to_dict() for i in order if i in records], "edges": edges}


# -- timeline --------------------------------------------------------------------------------
def _events_of(record: Memory, superseded_at: str | None) -> list[tuple[str, str]]:
    found = []
    if record.valid_from and record.valid_from != record.learned_at:
        found.append((record.valid_from, "valid_from"))
    if record.learned_at:
        found.append((record.learned_at, "learned"))
    if superseded_at:
        found.append((superseded_at, "superseded"))
    if record.valid_until:
        found.append((record.valid_until, "valid_until"))
    if record.due_at:
        found.append((record.due_at, "due"))
    return found


def timeline(ctx: Context, caller: Caller, request: TimelineRequest) -> Timeline:
    """What happened, in time order: records learned, becoming valid, superseded, ending, due.

    Superseded versions are included. With `start`, the first `limit` events from then on;
    otherwise the latest `limit` events. Either way the answer is in time order.
    """
    subject, domain, entity = request.subject, request.domain, request.entity
    start, end, limit = request.start, request.end, request.limit
    # Every word of the subject must match (a stem matches its other forms): a timeline of "roof
    # repair" is about roof repairs, not about every repair.
    terms = word_terms(subject) if subject else []
    if subject and not terms:
        return {"events": []}
    with ctx.reading() as conn:
        records = conn.views.timeline_records(
            caller,
            every_term=terms,
            domain=domain,
            entity=_norm(entity) if entity else None,
            start=start,
            end=end,
            limit=MAX_TIMELINE_RECORDS,
        )
        by_id: dict[str, Memory] = {r.id: r for r, _ in records}
        moments: list[tuple[str, str, str]] = [
            (time, kind, r.id) for r, at in records for time, kind in _events_of(r, at)
        ]
        moments += [(time, action, memory_id) for memory_id, action, time in conn.views.state_events(list(by_id))]
    moments = [m for m in moments if (not start or m[0] >= start) and (not end or m[0] <= end)]
    moments.sort(key=lambda m: (m[0], KIND_ORDER.index(m[1]), m[2]))
    chosen = moments[:limit] if start else moments[-limit:]
    return {"events": [{"time": t, "kind": k, "record": by_id[i].to_dict()} for t, k, i in chosen]}


# -- projects, decisions, unresolved ---------------------------------------------------------
def _project(conn: Store, caller: Caller, name: str) -> ProjectKey | None:
    """The project named so (by a `project:` tag or an entity) or whose PROJECT record has this id,
    when the caller has records in it; None when unknown or invisible."""
    found = conn.views.project_key(caller, name, _norm(name))
    if found is None or conn.views.project_records(caller, found) == 0:
        return None
    return found


def _project_filter(conn: Store, caller: Caller, value: str | None) -> tuple[bool, ProjectKey | None]:
    """For an optional `project` argument: (can anything match, the project or None for all)."""
    if value is None:
        return True, None
    project = _project(conn, caller, value)
    return (False, None) if project is None else (True, project)


def project_history(ctx: Context, caller: Caller, project_name: str) -> ProjectHistory:
    """A project's states over time, its decisions (with history) and what is still open.

    A record belongs to a project by its `project:NAME` tag, a `part_of_project` link to the
    project's PROJECT record, or the project's entity; the project is named, or its PROJECT
    record's id given.
    """
    name = required_text(project_name, "project", max_chars=100)
    with ctx.reading() as conn:
        project = _project(conn, caller, name)
        if project is None:
            raise NotFound("no such project")
        states = conn.views.project_states(caller, project)
        decided = conn.views.decisions(caller, project=project, domain=None, include_history=True, limit=MAX_ITEMS)
        still_open = conn.views.unresolved(caller, project=project, domain=None, due_before=None, limit=MAX_ITEMS)
    return {
        "project": project.name,
        "states": [r.to_dict() for r in states],
        "decisions": [r.to_dict() for r in decided],
        "unresolved": [r.to_dict() for r in still_open],
    }


def decisions(ctx: Context, caller: Caller, request: DecisionsRequest) -> Items:
    """Decisions, newest first; superseded ones too with `include_history`."""
    domain, include_history, limit = request.domain, request.include_history, request.limit
    with ctx.reading() as conn:
        wanted, project = _project_filter(conn, caller, request.project)
        found = wanted and conn.views.decisions(
            caller, project=project, domain=domain, include_history=include_history, limit=limit
        )
    return {"items": [r.to_dict() for r in found or []]}


def unresolved(ctx: Context, caller: Caller, request: UnresolvedRequest) -> Items:
    """Open questions, next actions, goals and failed approaches: soonest due first, undated last."""
    domain, due_before, limit = request.domain, request.due_before, request.limit
    with ctx.reading() as conn:
        wanted, project = _project_filter(conn, caller, request.project)
        found = wanted and conn.views.unresolved(
            caller, project=project, domain=domain, due_before=due_before, limit=limit
        )
    return {"items": [r.to_dict() for r in found or []]}
