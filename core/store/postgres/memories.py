"""Memory rows and what hangs off them (usage, the word and trigram indexes, entities, links,
projects): the SQLCipher engine's `memories.py` in PostgreSQL's SQL."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from memvault.core.store.postgres.connection import Connection
from memvault.core.store.postgres.visibility import visible_clause
from memvault.core.store.postgres.words import WORDS_OF, folded, trigrams
from memvault.core.store.rows import MEMORY_FIELDS, UPDATABLE_FIELDS, memory_from
from memvault.core.store.shared_sql import LIVE
from memvault.core.vocabulary.model import (
    Caller,
    Memory,
    MemoryId,
    new_id,
)

# Memory's fields in order, as its constructor takes them.
MEMORY_COLUMNS = (
    "m.id, m.domain, m.type, m.statement, m.status, m.confidence, m.importance, m.explicitness,"
    " m.sensitivity, m.access_scope, m.tags, m.source, m.source_reference, m.evidence, m.event_time,"
    " m.learned_at, m.observed_at, m.valid_from, m.valid_until, m.last_confirmed_at, m.created_at,"
    " m.updated_at, m.supersedes_id, m.superseded_by_id, m.archived_reason,"
    " coalesce(u.retrieval_count, 0) AS retrieval_count, u.last_retrieved_at, m.revision, m.due_at,"
    " m.authorized_principal_id, m.authorized_workspace_id"
)
FROM_MEMORIES = "memories m LEFT JOIN memory_usage u ON u.memory_id = m.id"


def row_to_memory(row: dict[str, Any]) -> Memory:
    return memory_from([row[name] for name in MEMORY_FIELDS])


def _select(
    conn: Connection,
    caller: Caller,
    where: Sequence[str],
    params: Sequence[object],
    *,
    order: str = "m.created_at DESC, m.id DESC",
    limit: int | None = None,
) -> list[Memory]:
    clause, visible = visible_clause(caller)
    sql = f"SELECT {MEMORY_COLUMNS} FROM {FROM_MEMORIES} WHERE {' AND '.join([clause, *where])} ORDER BY {order}"
    args = [*visible, *params]
    if limit is not None:
        sql += " LIMIT %s"
        args.append(limit)
    return [row_to_memory(row) for row in conn.execute(sql, args).fetchall()]


def fetch(conn: Connection, caller: Caller, memory_id: str) -> Memory | None:
    found = _select(conn, caller, ["m.id = %s"], [memory_id])
    return found[0] if found else None


def provenance_row(conn: Connection, memory_id: str) -> dict[str, Any] | None:
    return conn.execute(
        "SELECT evidence_hash, created_by, import_batch_id FROM memories WHERE id = %s", (memory_id,)
    ).fetchone()


def fetch_many(conn: Connection, caller: Caller, ids: Sequence[str]) -> dict[str, Memory]:
    if not ids:
        return {}
    return {m.id: m for m in _select(conn, caller, ["m.id = ANY(%s)"], [list(ids)])}


def current(conn: Connection, caller: Caller, limit: int) -> list[Memory]:
    """Visible current records, newest first."""
    return _select(conn, caller, ["m.status = 'current'"], [], limit=limit)


def live_oldest_first(conn: Connection, caller: Caller, limit: int) -> list[Memory]:
    """Visible live records (current, partial), in the order they were learned."""
    return _select(conn, caller, ["m.status IN ('current', 'partial')"], [], order="m.learned_at, m.id", limit=limit)


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
    where, params = ["m.status = %s"], [status]
    if domain:
        where.append("m.domain = %s")
        params.append(domain)
    if type_:
        where.append("m.type = %s")
        params.append(type_)
    if before:
        where.append("(m.created_at, m.id) < (%s, %s)")
        params += [before[0], before[1]]
    return _select(conn, caller, where, params, limit=limit)


def for_export(conn: Connection, caller: Caller, domain: str | None, statuses: Iterable[str]) -> list[Memory]:
    """Records of the given states (one domain or all), in the order the Markdown views list them."""
    where, params = ["m.status = ANY(%s)"], list[object]([sorted(set(statuses))])
    if domain:
        where.append("m.domain = %s")
        params.append(domain)
    return _select(conn, caller, where, params, order="m.domain, m.created_at, m.id")


def domain_in_use(conn: Connection, domain: str) -> bool:
    return conn.execute("SELECT 1 FROM memories WHERE domain = %s LIMIT 1", (domain,)).fetchone() is not None


def domain_visible(conn: Connection, caller: Caller, domain: str) -> bool:
    """Whether the caller can see any record in the domain (the only domains that exist for it)."""
    clause, params = visible_clause(caller)
    row = conn.execute(f"SELECT 1 FROM memories m WHERE m.domain = %s AND {clause} LIMIT 1", [domain, *params])
    return row.fetchone() is not None


def find_duplicate(conn: Connection, caller: Caller, norm_key: str, domain: str, type_: str) -> Memory | None:
    found = _select(
        conn, caller, ["m.norm_key = %s", "m.domain = %s", "m.type = %s", LIVE], [norm_key, domain, type_], limit=1
    )
    return found[0] if found else None


def live_with_norm_key(conn: Connection, caller: Caller, norm_key: str, limit: int = 10) -> list[Memory]:
    """Visible live records saying exactly this (normalised) statement, in any domain and type."""
    return _select(conn, caller, ["m.norm_key = %s", LIVE], [norm_key], limit=limit)


def insert(conn: Connection, values: dict[str, Any]) -> None:
    columns = ", ".join(values)
    marks = ", ".join(["%s"] * len(values))
    with conn.pipeline():  # both rows in one round trip
        conn.execute(f"INSERT INTO memories ({columns}) VALUES ({marks})", list(values.values()))
        conn.execute("INSERT INTO memory_usage (memory_id) VALUES (%s)", (values["id"],))


def update(conn: Connection, memory_id: str, now: str, **changes: Any) -> None:
    """Change a record's own row: its revision grows and updated_at moves with every change."""
    if not changes or not set(changes) <= UPDATABLE_FIELDS:
        raise ValueError(f"not updatable: {sorted(set(changes) - UPDATABLE_FIELDS)}")
    assignments = ", ".join(f"{name} = %s" for name in changes)
    conn.execute(
        f"UPDATE memories SET {assignments}, revision = revision + 1, updated_at = %s WHERE id = %s",
        [*changes.values(), now, memory_id],
    )


def version_chain(conn: Connection, memory_id: str) -> list[str]:
    """The ids of a record's other versions, older and newer (supersede links both ways), unfiltered."""
    rows = conn.execute(
        "WITH RECURSIVE older(id) AS (SELECT supersedes_id FROM memories WHERE id = %(id)s"
        " UNION SELECT m.supersedes_id FROM memories m JOIN older o ON m.id = o.id),"
        " newer(id) AS (SELECT superseded_by_id FROM memories WHERE id = %(id)s"
        " UNION SELECT m.superseded_by_id FROM memories m JOIN newer n ON m.id = n.id)"
        " SELECT id FROM older WHERE id IS NOT NULL UNION SELECT id FROM newer WHERE id IS NOT NULL",
        {"id": memory_id},
    ).fetchall()
    return sorted(str(row["id"]) for row in rows if row["id"] != memory_id)


def status_of(conn: Connection, memory_id: str) -> tuple[str, int] | None:
    row = conn.execute("SELECT status, revision FROM memories WHERE id = %s", (memory_id,)).fetchone()
    return (row["status"], row["revision"]) if row else None


def status_before_archive(conn: Connection, memory_id: str) -> str | None:
    row = conn.execute("SELECT status_before_archive FROM memories WHERE id = %s", (memory_id,)).fetchone()
    return None if row is None or row["status_before_archive"] is None else str(row["status_before_archive"])


def domain_exists(conn: Connection, name: str | None) -> bool:
    return conn.execute("SELECT 1 FROM domains WHERE name = %s", (name,)).fetchone() is not None


def counts(conn: Connection, caller: Caller) -> tuple[dict[str, int], dict[str, int]]:
    """Visible records by status, and live records by domain."""
    clause, params = visible_clause(caller)
    rows = conn.execute(f"SELECT m.status, count(*) AS n FROM memories m WHERE {clause} GROUP BY m.status", params)
    by_status = {row["status"]: int(row["n"]) for row in rows}
    rows = conn.execute(
        f"SELECT m.domain, count(*) AS n FROM memories m WHERE {clause} AND {LIVE} GROUP BY m.domain ORDER BY m.domain",
        params,
    )
    return by_status, {row["domain"]: int(row["n"]) for row in rows}


def index_text(conn: Connection, memory_id: str) -> None:
    """(Re)write the word and trigram index entries of one memory from its statement, tags and entities:
    what it holds read in one round trip, the three writes sent in another."""
    rows = conn.execute(f"{_INDEXED_COLUMNS} WHERE m.id = %s", (memory_id,)).fetchall()
    assert rows, "index_text: the record was written in this transaction"
    ((rowid, statement, tags, names),) = _indexed(rows)
    with conn.pipeline():
        conn.execute(
            f"UPDATE memories SET words = {WORDS_OF} WHERE rowid = %s",
            (folded(statement), folded(tags), folded(names), rowid),
        )
        conn.execute("DELETE FROM memory_trigrams WHERE memory_rowid = %s", (rowid,))
        conn.execute(
            "INSERT INTO memory_trigrams (trigram, memory_rowid) SELECT t, %s FROM unnest(%s::text[]) AS t",
            (rowid, sorted(trigrams(statement))),
        )


# What the word index holds of a record: (rowid, statement, tags, entity names sorted and joined by spaces).
_INDEXED_COLUMNS = (
    "SELECT m.rowid, m.statement, m.tags, (SELECT string_agg(e.name, ' ' ORDER BY e.name)"
    " FROM entities e JOIN memory_entities me ON me.entity_id = e.id WHERE me.memory_id = m.id) AS names"
    " FROM memories m"
)


def _indexed(rows: Sequence[dict[str, Any]]) -> list[tuple[int, str, str, str]]:
    return [(int(r["rowid"]), str(r["statement"]), " ".join(json.loads(r["tags"])), r["names"] or "") for r in rows]


def indexed_columns(conn: Connection, rowids: Sequence[int]) -> list[tuple[int, str, str, str]]:
    """What the word index holds of each record, by rowid: (rowid, statement, tags, entity names),
    the tags and the names (sorted) each joined by spaces."""
    rows = conn.execute(f"{_INDEXED_COLUMNS} WHERE m.rowid = ANY(%s) ORDER BY m.rowid", (list(rowids),)).fetchall()
    return _indexed(rows)


def _norm_name(name: str) -> str:
    return re.sub(r"\s+", " ", name).strip().casefold()


def attach_entities(conn: Connection, memory_id: str, names: Iterable[str], now: str) -> None:
    named = list(names)
    if not named:
        return
    with conn.pipeline():  # every name's two rows in one round trip, in order
        for name in named:
            norm = _norm_name(name)
            conn.execute(
                "INSERT INTO entities (id, name, norm_name, created_at) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (norm_name) DO NOTHING",
                (new_id("e"), name, norm, now),
            )
            conn.execute(
                "INSERT INTO memory_entities (memory_id, entity_id) SELECT %s, id FROM entities WHERE norm_name = %s"
                " ON CONFLICT DO NOTHING",
                (memory_id, norm),
            )


def entity_names(conn: Connection, memory_id: str) -> list[str]:
    rows = conn.execute(
        "SELECT e.name FROM entities e JOIN memory_entities me ON me.entity_id = e.id"
        " WHERE me.memory_id = %s ORDER BY e.name",
        (memory_id,),
    ).fetchall()
    return [row["name"] for row in rows]


def add_link(conn: Connection, from_id: str, to_id: str, link_type: str, now: str, weight: float = 1.0) -> None:
    # A link made twice is kept once; a link of an unknown type is refused.
    conn.execute(
        "INSERT INTO links (from_id, to_id, type, weight, created_at) VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT (from_id, to_id, type) DO NOTHING",
        (from_id, to_id, link_type, weight, now),
    )


def links_from(conn: Connection, caller: Caller, memory_id: str) -> list[dict[str, Any]]:
    """Links of a record in both directions, to records the caller may see."""
    clause, params = visible_clause(caller)
    rows = conn.execute(
        f"SELECT l.type, l.to_id AS target_id, l.weight, 'out' AS direction FROM links l"
        f" JOIN memories m ON m.id = l.to_id WHERE l.from_id = %s AND {clause}"
        f" UNION ALL SELECT l.type, l.from_id, l.weight, 'in' FROM links l"
        f" JOIN memories m ON m.id = l.from_id WHERE l.to_id = %s AND {clause}",
        [memory_id, *params, memory_id, *params],
    ).fetchall()
    return [dict(row) for row in rows]


def ensure_project(conn: Connection, name: str, now: str) -> str:
    norm = _norm_name(name)
    conn.execute(
        "INSERT INTO projects (id, name, norm_name, created_at) VALUES (%s, %s, %s, %s)"
        " ON CONFLICT (norm_name) DO NOTHING",
        (new_id("p"), name, norm, now),
    )
    row = conn.execute("SELECT id FROM projects WHERE norm_name = %s", (norm,)).fetchone()
    assert row is not None
    return str(row["id"])


def ensure_domain(conn: Connection, name: str, now: str) -> None:
    conn.execute(
        "INSERT INTO domains (name, created_at, updated_at) VALUES (%s, %s, %s) ON CONFLICT (name) DO NOTHING",
        (name, now, now),
    )


def still_stored(conn: Connection, ids: Sequence[MemoryId]) -> set[MemoryId]:
    """Those of `ids` whose records exist (a purge deletes the row)."""
    if not ids:
        return set()
    rows = conn.execute("SELECT id FROM memories WHERE id = ANY(%s)", (list(ids),))
    return {MemoryId(row["id"]) for row in rows}


def record_usage(conn: Connection, ids: Sequence[MemoryId], now: str) -> None:
    with conn.cursor() as cursor:
        cursor.executemany(
            "UPDATE memory_usage SET retrieval_count = retrieval_count + 1, last_retrieved_at = %s"
            " WHERE memory_id = %s",
            [(now, memory_id) for memory_id in ids],
        )
