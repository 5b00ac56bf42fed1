"""The contract's views on PostgreSQL: the link graph, timelines, projects, decisions, unresolved items,
feedback (the SQLCipher engine's `view_queries.py` in PostgreSQL's SQL).

Every query limits memory rows with the caller's visibility (`visible_clause`) and
leaves archived records out: the views never reach them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memvault.core.store.postgres import words
from memvault.core.store.postgres.connection import Connection
from memvault.core.store.postgres.memories import FROM_MEMORIES, MEMORY_COLUMNS, row_to_memory
from memvault.core.store.postgres.visibility import visible_clause
from memvault.core.store.rows import ProjectKey, WordTerm
from memvault.core.store.shared_sql import LIVE
from memvault.core.vocabulary.model import Caller, Memory, MemoryId
from memvault.core.vocabulary.results import Edge

NOT_ARCHIVED = "m.status != 'archived'"
USAGE_JOIN = "LEFT JOIN memory_usage u ON u.memory_id = m.id"
_MOMENTS = ("valid_from", "valid_until", "superseded_at", "due_at")


def _visible(caller: Caller, alias: str) -> tuple[str, list[object]]:
    clause, params = visible_clause(caller, alias)
    return f"{clause} AND {alias}.status != 'archived'", params


def _count(conn: Connection, sql: str, params: Sequence[object]) -> int:
    row = conn.execute(sql, params).fetchone()
    return int(row["n"]) if row else 0


def links_touching(conn: Connection, caller: Caller, ids: Sequence[str], types: Sequence[str]) -> list[Edge]:
    """Links with one end in `ids` and both ends visible to the caller and not archived."""
    if not ids:
        return []
    a_clause, a_params = _visible(caller, "a")
    b_clause, b_params = _visible(caller, "b")
    type_sql, type_params = "", list[object]()
    if types:
        type_sql = " AND l.type = ANY(%s)"
        type_params = [list(types)]
    rows = conn.execute(
        f"SELECT l.from_id, l.to_id, l.type, l.weight FROM links l"
        f" JOIN memories a ON a.id = l.from_id JOIN memories b ON b.id = l.to_id"
        f" WHERE (l.from_id = ANY(%s) OR l.to_id = ANY(%s)) AND {a_clause} AND {b_clause}{type_sql}"
        f" ORDER BY l.weight DESC, l.created_at, l.from_id, l.to_id",
        [list(ids), list(ids), *a_params, *b_params, *type_params],
    ).fetchall()
    return [
        {"from": MemoryId(r["from_id"]), "to": MemoryId(r["to_id"]), "type": r["type"], "weight": float(r["weight"])}
        for r in rows
    ]


def timeline_records(
    conn: Connection,
    caller: Caller,
    *,
    every_term: Sequence[WordTerm] = (),
    domain: str | None,
    entity: str | None,
    start: str | None = None,
    end: str | None = None,
    limit: int,
) -> list[tuple[Memory, str | None]]:
    """Visible, non-archived records (every version) matching the filters (holding every one of
    `every_term`), newest knowledge first, each with the moment it was superseded (None while it was not)."""
    clause, params = _visible(caller, "m")
    where = [clause]
    if domain:
        where.append("m.domain = %s")
        params.append(domain)
    if entity:
        where.append(
            "m.id IN (SELECT me.memory_id FROM memory_entities me JOIN entities e ON e.id = me.entity_id"
            " WHERE e.norm_name = %s)"
        )
        params.append(entity)
    if every_term:
        where.append("m.words @@ to_tsquery('simple', %s)")
        params.append(words.every_term(every_term))
    # A record belongs to a window when any of its moments (learned, valid from/until,
    # superseded, due) falls in it; learned_at stands in for the moments it lacks.
    moments = ", ".join(f"coalesce(m.{c}, m.learned_at)" for c in _MOMENTS)
    if start:
        where.append(f"greatest(m.learned_at, {moments}) >= %s")
        params.append(start)
    if end:
        where.append(f"least(m.learned_at, {moments}) <= %s")
        params.append(end)
    order = "ASC" if start else "DESC"
    rows = conn.execute(
        f"SELECT {MEMORY_COLUMNS}, m.superseded_at AS superseded_at_ FROM {FROM_MEMORIES}"
        f" WHERE {' AND '.join(where)} ORDER BY m.learned_at {order}, m.id LIMIT %s",
        [*params, limit],
    ).fetchall()
    return [(row_to_memory(row), row["superseded_at_"]) for row in rows]


def state_events(conn: Connection, ids: Sequence[str]) -> list[tuple[str, str, str]]:
    """(memory_id, action, time) of archive and restore events of these records."""
    if not ids:
        return []
    rows = conn.execute(
        "SELECT memory_id, action, time FROM events WHERE memory_id = ANY(%s)"
        " AND action IN ('archived', 'restored') ORDER BY id",
        (list(ids),),
    ).fetchall()
    return [(r["memory_id"], r["action"], r["time"]) for r in rows]


def _member_clause(key: ProjectKey, alias: str = "m") -> tuple[str, list[object]]:
    """The WHERE fragment (and its parameters) for the records of project `key`."""
    parts, params = [], list[object]()
    if key.project_id:
        parts.append(f"{alias}.project_id = %s")
        params.append(key.project_id)
    if key.anchors:
        parts.append(f"{alias}.id = ANY(%s)")
        parts.append(f"{alias}.id IN (SELECT from_id FROM links WHERE type = 'part_of_project' AND to_id = ANY(%s))")
        params += [list(key.anchors), list(key.anchors)]
    if key.entity_id:
        parts.append(f"{alias}.id IN (SELECT memory_id FROM memory_entities WHERE entity_id = %s)")
        params.append(key.entity_id)
    return "(" + (" OR ".join(parts) or "FALSE") + ")", params


def project_key(conn: Connection, caller: Caller, value: str, norm_name: str) -> ProjectKey | None:
    """The project named `value` (a project or entity name) or whose PROJECT record has id `value`."""
    clause, params = _visible(caller, "m")
    record = conn.execute(
        f"SELECT m.id, m.project_id, m.statement FROM memories m WHERE m.id = %s AND m.type = 'PROJECT' AND {clause}",
        [value, *params],
    ).fetchone()
    if record is not None:
        return _by_record(conn, caller, record)
    project = conn.execute("SELECT id, name FROM projects WHERE norm_name = %s", (norm_name,)).fetchone()
    entity = conn.execute("SELECT id, name FROM entities WHERE norm_name = %s", (norm_name,)).fetchone()
    if project is None and entity is None:
        return None
    key = ProjectKey(
        (project or entity or {})["name"], project["id"] if project else None, (), entity["id"] if entity else None
    )
    member, member_params = _member_clause(key)
    anchors = conn.execute(
        f"SELECT m.id FROM memories m WHERE m.type = 'PROJECT' AND {member} AND {clause}", [*member_params, *params]
    ).fetchall()
    return ProjectKey(key.name, key.project_id, tuple(r["id"] for r in anchors), key.entity_id)


def _by_record(conn: Connection, caller: Caller, record: dict[str, Any]) -> ProjectKey:
    """A PROJECT record's project: its tag's project, or the project named by its entity, with it as an anchor."""
    named = conn.execute(
        "SELECT p.name, p.norm_name FROM projects p WHERE p.id = %s UNION ALL SELECT e.name, e.norm_name"
        " FROM entities e JOIN memory_entities me ON me.entity_id = e.id WHERE me.memory_id = %s",
        (record["project_id"], record["id"]),
    ).fetchone()
    found = project_key(conn, caller, named["name"], named["norm_name"]) if named else None
    if found is None:
        return ProjectKey(record["statement"][:100], record["project_id"], (record["id"],))
    return ProjectKey(found.name, found.project_id, tuple({*found.anchors, record["id"]}), found.entity_id)


def project_states(conn: Connection, caller: Caller, project: ProjectKey) -> list[Memory]:
    """The project's own records and its states: tagged ones through project_states, members by type."""
    clause, params = _visible(caller, "m")
    member, member_params = _member_clause(project)
    rows = conn.execute(
        f"SELECT {MEMORY_COLUMNS} FROM {FROM_MEMORIES}"
        f" LEFT JOIN project_states ps ON ps.memory_id = m.id AND ps.project_id IS NOT DISTINCT FROM %s"
        f" WHERE {member} AND (ps.id IS NOT NULL OR m.type IN ('PROJECT', 'PROJECT_STATE')) AND {clause}"
        " ORDER BY coalesce(ps.recorded_at, m.event_time, m.valid_from, m.learned_at), m.id",
        [project.project_id, *member_params, *params],
    ).fetchall()
    return [row_to_memory(row) for row in rows]


def project_records(conn: Connection, caller: Caller, project: ProjectKey) -> int:
    """How many non-archived records of the project this caller may see."""
    clause, params = _visible(caller, "m")
    member, member_params = _member_clause(project)
    return _count(conn, f"SELECT count(*) AS n FROM memories m WHERE {member} AND {clause}", [*member_params, *params])


def decisions(
    conn: Connection,
    caller: Caller,
    *,
    project: ProjectKey | None,
    domain: str | None,
    include_history: bool,
    limit: int,
) -> list[Memory]:
    """Decisions, newest first: live ones, and superseded or historical ones when asked."""
    clause, params = _visible(caller, "m")
    where = [clause, LIVE if not include_history else NOT_ARCHIVED]
    if project:
        member, member_params = _member_clause(project)
        where.append(member)
        params += member_params
    if domain:
        where.append("m.domain = %s")
        params.append(domain)
    rows = conn.execute(
        f"SELECT {MEMORY_COLUMNS} FROM decisions d JOIN memories m ON m.id = d.memory_id"
        f" {USAGE_JOIN}"
        f" WHERE {' AND '.join(where)} ORDER BY d.decided_at DESC, m.learned_at DESC, m.id LIMIT %s",
        [*params, limit],
    ).fetchall()
    return [row_to_memory(row) for row in rows]


def unresolved(
    conn: Connection,
    caller: Caller,
    *,
    project: ProjectKey | None,
    domain: str | None,
    due_before: str | None,
    limit: int,
) -> list[Memory]:
    """Open items of live records: soonest due first, undated last, then oldest first."""
    clause, params = _visible(caller, "m")
    where = [clause, LIVE, "ui.resolved_at IS NULL"]
    if project:
        member, member_params = _member_clause(project)
        where.append(member)
        params += member_params
    if domain:
        where.append("m.domain = %s")
        params.append(domain)
    if due_before:
        where.append("coalesce(m.due_at, ui.due_at) < %s")
        params.append(due_before)
    rows = conn.execute(
        f"SELECT {MEMORY_COLUMNS} FROM unresolved_items ui JOIN memories m ON m.id = ui.memory_id"
        f" {USAGE_JOIN} WHERE {' AND '.join(where)}"
        " ORDER BY coalesce(m.due_at, ui.due_at) IS NULL, coalesce(m.due_at, ui.due_at), m.learned_at, m.id"
        " LIMIT %s",
        [*params, limit],
    ).fetchall()
    return [row_to_memory(row) for row in rows]


def add_feedback(conn: Connection, memory_id: str, useful: bool, principal: str, note: str | None, now: str) -> int:
    row = conn.execute(
        "INSERT INTO feedback (memory_id, useful, principal, note, time) VALUES (%s, %s, %s, %s, %s) RETURNING id",
        (memory_id, int(useful), principal, note, now),
    ).fetchone()
    return int(row["id"]) if row else 0
