"""SQL for memory rows and what hangs off them (usage, FTS, entities, links, projects)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from memvault.core.store.rows import MEMORY_FIELDS, UPDATABLE_FIELDS, memory_from
from memvault.core.store.sqlcipher.connection import Connection
from memvault.core.store.sqlcipher.visibility import visible_clause
from memvault.core.vocabulary.model import (
    Caller,
    Memory,
    MemoryId,
    Status,
    new_id,
)

MEMORY_COLUMNS = (
    "m.id, m.domain, m.type, m.statement, m.status, m.confidence, m.importance, m.explicitness,"
    " m.sensitivity, m.access_scope, m.tags, m.source, m.source_reference, m.evidence, m.event_time,"
    " m.learned_at, m.observed_at, m.valid_from, m.valid_until, m.last_confirmed_at, m.created_at,"
    " m.updated_at, m.supersedes_id, m.superseded_by_id, m.archived_reason,"
    " coalesce(u.retrieval_count, 0) AS retrieval_count, u.last_retrieved_at, m.revision, m.due_at,"
    " m.authorized_principal_id, m.authorized_workspace_id"
)
USAGE_JOIN = "LEFT JOIN memory_usage u ON u.memory_id = m.id"
FROM_MEMORIES = f"memories m {USAGE_JOIN}"
# Lookups by id: left to itself, the planner answers a remote caller's lookup by scanning the
# access-scope index (every remote_allowed record: ~220 ms at 100k records).
BY_ID = f"memories m INDEXED BY sqlite_autoindex_memories_1 {USAGE_JOIN}"


def row_to_memory(row: Any) -> Memory:
    """A record from a row whose first columns are MEMORY_COLUMNS (`Memory`'s fields in order; later
    ones are ignored)."""
    return memory_from(list(row[: len(MEMORY_FIELDS)]))


def plain_rows(conn: Connection, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """A query's rows as plain tuples: the connection's named rows cost ~2.5 µs more a row, and a
    search reads ~50-100 records."""
    cursor = conn.cursor()
    cursor.row_factory = None
    return cursor.execute(sql, params).fetchall()


def records_by_id(conn: Connection, sql: str, params: Sequence[Any]) -> dict[str, Memory]:
    """The records a query of MEMORY_COLUMNS finds, by id."""
    return {row[0]: row_to_memory(row) for row in plain_rows(conn, sql, params)}


def fetch(conn: Connection, caller: Caller, memory_id: str) -> Memory | None:
    clause, params = visible_clause(caller)
    row = conn.execute(
        f"SELECT {MEMORY_COLUMNS} FROM {BY_ID} WHERE m.id = ? AND {clause}",
        [memory_id, *params],
    ).fetchone()
    return row_to_memory(row) if row else None


def provenance_row(conn: Connection, memory_id: str) -> dict[str, Any] | None:
    """What a record's provenance adds to its contract fields (the caller checked visibility)."""
    row = conn.execute(
        "SELECT evidence_hash, created_by, import_batch_id FROM memories WHERE id = ?", (memory_id,)
    ).fetchone()
    return dict(row) if row else None


def fetch_many(conn: Connection, caller: Caller, ids: Sequence[str]) -> dict[str, Memory]:
    if not ids:
        return {}
    clause, params = visible_clause(caller)
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        f"SELECT {MEMORY_COLUMNS} FROM {BY_ID} WHERE m.id IN ({marks}) AND {clause}",
        [*ids, *params],
    ).fetchall()
    return {row["id"]: row_to_memory(row) for row in rows}


def select(
    conn: Connection,
    caller: Caller,
    where: Iterable[str] = (),
    params: Iterable[object] = (),
    *,
    order: str = "m.created_at DESC, m.id DESC",
    limit: int | None = None,
) -> list[Memory]:
    """Visible memories matching extra conditions (fragments written in this package only)."""
    clause, visible_params = visible_clause(caller)
    conditions = [clause, *where]
    sql = f"SELECT {MEMORY_COLUMNS} FROM {FROM_MEMORIES} WHERE {' AND '.join(conditions)} ORDER BY {order}"
    args: list[object] = [*visible_params, *params]
    if limit is not None:
        sql += " LIMIT ?"
        args.append(limit)
    return [row_to_memory(row) for row in conn.execute(sql, args).fetchall()]


def current(conn: Connection, caller: Caller, limit: int) -> list[Memory]:
    """Visible current records, newest first."""
    return select(conn, caller, ["m.status = 'current'"], limit=limit)


def live_oldest_first(conn: Connection, caller: Caller, limit: int) -> list[Memory]:
    """Visible live records (current, partial), in the order they were learned."""
    return select(conn, caller, ["m.status IN ('current', 'partial')"], order="m.learned_at, m.id", limit=limit)


def page(
    conn: Connection,
    caller: Caller,
    *,
    domain: str | None,
    type_: str | None,
    status: str,
    before: tuple[str, str] | None,
    limit: int,
) -> list[Memory]:
    """One page of `memory_list`, newest first: records older than `before` = (created_at, id)."""
    where, params = ["m.status = ?"], [status]
    if domain:
        where.append("m.domain = ?")
        params.append(domain)
    if type_:
        where.append("m.type = ?")
        params.append(type_)
    if before:
        where.append("(m.created_at < ? OR (m.created_at = ? AND m.id < ?))")
        params += [before[0], before[0], before[1]]
    return select(conn, caller, where, params, limit=limit)


def for_export(conn: Connection, caller: Caller, domain: str | None, statuses: Iterable[str]) -> list[Memory]:
    """Records of the given states (one domain or all), in the order the Markdown views list them."""
    wanted = sorted(set(statuses))
    where = [f"m.status IN ({', '.join('?' * len(wanted))})"]
    params: list[object] = [*wanted]
    if domain:
        where.append("m.domain = ?")
        params.append(domain)
    return select(conn, caller, where, params, order="m.domain, m.created_at, m.id")


# Every status, named so that a domain lookup seeks the (status, domain) index once per status
# instead of scanning it (a scan grows with the store: ms per add at 100k records).
_ANY_STATUS = f"m.status IN ({','.join(repr(s.value) for s in Status)})"


def domain_in_use(conn: Connection, domain: str) -> bool:
    row = conn.execute(f"SELECT 1 FROM memories m WHERE {_ANY_STATUS} AND m.domain = ? LIMIT 1", (domain,))
    return row.fetchone() is not None


def domain_visible(conn: Connection, caller: Caller, domain: str) -> bool:
    """Whether the caller can see any record in the domain (the only domains that exist for it)."""
    clause, params = visible_clause(caller)
    row = conn.execute(
        f"SELECT 1 FROM memories m WHERE {_ANY_STATUS} AND m.domain = ? AND {clause} LIMIT 1", [domain, *params]
    )
    return row.fetchone() is not None


def find_duplicate(conn: Connection, caller: Caller, norm_key: str, domain: str, type_: str) -> Memory | None:
    found = select(
        conn,
        caller,
        ["m.norm_key = ?", "m.domain = ?", "m.type = ?", "m.status IN ('current', 'partial', 'disputed')"],
        [norm_key, domain, type_],
        limit=1,
    )
    return found[0] if found else None


def live_with_norm_key(conn: Connection, caller: Caller, norm_key: str, limit: int = 10) -> list[Memory]:
    """Visible live records saying exactly this (normalised) statement, in any domain and type."""
    return select(
        conn, caller, ["m.norm_key = ?", "m.status IN ('current', 'partial', 'disputed')"], [norm_key], limit=limit
    )


def insert(conn: Connection, values: dict[str, Any]) -> None:
    columns = ", ".join(values)
    marks = ", ".join("?" * len(values))
    conn.execute(f"INSERT INTO memories ({columns}) VALUES ({marks})", list(values.values()))
    conn.execute("INSERT INTO memory_usage (memory_id) VALUES (?)", (values["id"],))


def update(conn: Connection, memory_id: str, now: str, **changes: Any) -> None:
    """Change a record's own row: its revision grows and updated_at moves with every change."""
    if not changes or not set(changes) <= UPDATABLE_FIELDS:
        raise ValueError(f"not updatable: {sorted(set(changes) - UPDATABLE_FIELDS)}")
    assignments = ", ".join(f"{name} = ?" for name in changes)
    conn.execute(
        f"UPDATE memories SET {assignments}, revision = revision + 1, updated_at = ? WHERE id = ?",
        [*changes.values(), now, memory_id],
    )


def version_chain(conn: Connection, memory_id: str) -> list[str]:
    """The ids of a record's other versions, older and newer (supersede links both ways), unfiltered."""
    rows = conn.execute(
        "WITH RECURSIVE older(id) AS (SELECT supersedes_id FROM memories WHERE id = ?"
        " UNION SELECT m.supersedes_id FROM memories m JOIN older o ON m.id = o.id),"
        " newer(id) AS (SELECT superseded_by_id FROM memories WHERE id = ?"
        " UNION SELECT m.superseded_by_id FROM memories m JOIN newer n ON m.id = n.id)"
        " SELECT id FROM older WHERE id IS NOT NULL UNION SELECT id FROM newer WHERE id IS NOT NULL",
        (memory_id, memory_id),
    ).fetchall()
    return sorted(str(row[0]) for row in rows if row[0] != memory_id)


def status_of(conn: Connection, memory_id: str) -> tuple[str, int] | None:
    row = conn.execute("SELECT status, revision FROM memories WHERE id = ?", (memory_id,)).fetchone()
    return (row[0], row[1]) if row else None


def status_before_archive(conn: Connection, memory_id: str) -> str | None:
    row = conn.execute("SELECT status_before_archive FROM memories WHERE id = ?", (memory_id,)).fetchone()
    return None if row is None or row[0] is None else str(row[0])


def domain_exists(conn: Connection, name: str | None) -> bool:
    return conn.execute("SELECT 1 FROM domains WHERE name = ?", (name,)).fetchone() is not None


def counts(conn: Connection, caller: Caller) -> tuple[dict[str, int], dict[str, int]]:
    """Visible records by status, and live records by domain."""
    clause, params = visible_clause(caller)
    by_status = {
        row[0]: row[1]
        for row in conn.execute(f"SELECT m.status, count(*) FROM memories m WHERE {clause} GROUP BY m.status", params)
    }
    by_domain = {
        row[0]: row[1]
        for row in conn.execute(
            f"SELECT m.domain, count(*) FROM memories m WHERE {clause}"
            " AND m.status IN ('current', 'partial', 'disputed') GROUP BY m.domain ORDER BY m.domain",
            params,
        )
    }
    return by_status, by_domain


def rowid_of(conn: Connection, memory_id: str) -> int:
    return int(conn.execute("SELECT rowid FROM memories WHERE id = ?", (memory_id,)).fetchone()[0])


def index_text(conn: Connection, memory_id: str) -> None:
    """(Re)write the lexical index entry of one memory from its statement, tags and entities."""
    rowid = rowid_of(conn, memory_id)
    ((_, statement, tags, names),) = indexed_columns(conn, [rowid])
    conn.execute("DELETE FROM memory_fts WHERE rowid = ?", (rowid,))
    conn.execute(
        "INSERT INTO memory_fts (rowid, statement, tags, entities) VALUES (?, ?, ?, ?)",
        (rowid, statement, tags, names),
    )
    conn.execute("DELETE FROM memory_trigram WHERE rowid = ?", (rowid,))
    conn.execute("INSERT INTO memory_trigram (rowid, statement) VALUES (?, ?)", (rowid, statement))


def indexed_columns(conn: Connection, rowids: Sequence[int]) -> list[tuple[int, str, str, str]]:
    """What the word index holds of each record, by rowid: (rowid, statement, tags, entity names),
    the tags and the names (sorted) each joined by spaces. The one place that composes it."""
    found = []
    for start in range(0, len(rowids), 500):
        chunk = list(rowids[start : start + 500])
        found += plain_rows(
            conn,
            "SELECT m.rowid, m.statement, m.tags, (SELECT group_concat(e.name, ' ' ORDER BY e.name)"
            " FROM entities e JOIN memory_entities me ON me.entity_id = e.id WHERE me.memory_id = m.id)"
            f" FROM memories m WHERE m.rowid IN ({','.join('?' * len(chunk))}) ORDER BY m.rowid",
            chunk,
        )
    return [(int(r[0]), str(r[1]), " ".join(json.loads(r[2])), r[3] or "") for r in found]


def _norm_name(name: str) -> str:
    return re.sub(r"\s+", " ", name).strip().casefold()


def attach_entities(conn: Connection, memory_id: str, names: Iterable[str], now: str) -> None:
    for name in names:
        norm = _norm_name(name)
        row = conn.execute("SELECT id FROM entities WHERE norm_name = ?", (norm,)).fetchone()
        entity_id = row[0] if row else new_id("e")
        if not row:
            conn.execute(
                "INSERT INTO entities (id, name, norm_name, created_at) VALUES (?, ?, ?, ?)",
                (entity_id, name, norm, now),
            )
        conn.execute(
            "INSERT OR IGNORE INTO memory_entities (memory_id, entity_id) VALUES (?, ?)", (memory_id, entity_id)
        )


def entity_names(conn: Connection, memory_id: str) -> list[str]:
    rows = conn.execute(
        "SELECT e.name FROM entities e JOIN memory_entities me ON me.entity_id = e.id"
        " WHERE me.memory_id = ? ORDER BY e.name",
        (memory_id,),
    ).fetchall()
    return [row[0] for row in rows]


def add_link(conn: Connection, from_id: str, to_id: str, link_type: str, now: str, weight: float = 1.0) -> None:
    # A link made twice is kept once; a link of an unknown type is refused (OR IGNORE would drop it unsaid).
    conn.execute(
        "INSERT INTO links (from_id, to_id, type, weight, created_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (from_id, to_id, type) DO NOTHING",
        (from_id, to_id, link_type, weight, now),
    )


def links_from(conn: Connection, caller: Caller, memory_id: str) -> list[dict[str, Any]]:
    """Links of a record in both directions, to records the caller may see."""
    clause, params = visible_clause(caller)
    rows = conn.execute(
        f"SELECT l.type, l.to_id AS target_id, l.weight, 'out' AS direction FROM links l"
        f" JOIN memories m ON m.id = l.to_id WHERE l.from_id = ? AND {clause}"
        f" UNION ALL SELECT l.type, l.from_id, l.weight, 'in' FROM links l"
        f" JOIN memories m ON m.id = l.from_id WHERE l.to_id = ? AND {clause}",
        [memory_id, *params, memory_id, *params],
    ).fetchall()
    return [dict(row) for row in rows]


def ensure_project(conn: Connection, name: str, now: str) -> str:
    norm = _norm_name(name)
    row = conn.execute("SELECT id FROM projects WHERE norm_name = ?", (norm,)).fetchone()
    if row:
        return str(row[0])
    project_id = new_id("p")
    conn.execute(
        "INSERT INTO projects (id, name, norm_name, created_at) VALUES (?, ?, ?, ?)", (project_id, name, norm, now)
    )
    return project_id


def ensure_domain(conn: Connection, name: str, now: str) -> None:
    conn.execute("INSERT OR IGNORE INTO domains (name, created_at, updated_at) VALUES (?, ?, ?)", (name, now, now))


def still_stored(conn: Connection, ids: Sequence[MemoryId]) -> set[MemoryId]:
    """Those of `ids` whose records exist (a purge deletes the row)."""
    if not ids:
        return set()
    rows = conn.execute(f"SELECT id FROM memories WHERE id IN ({','.join('?' * len(ids))})", list(ids))
    return {MemoryId(row[0]) for row in rows}


def record_usage(conn: Connection, ids: Sequence[MemoryId], now: str) -> None:
    conn.executemany(
        "UPDATE memory_usage SET retrieval_count = retrieval_count + 1, last_retrieved_at = ? WHERE memory_id = ?",
        [(now, memory_id) for memory_id in ids],
    )
