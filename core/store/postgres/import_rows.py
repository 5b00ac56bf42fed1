"""Import batches, their manifests and the items a rollback undoes (ids and prior values only): the
SQLCipher engine's `import_rows.py` in PostgreSQL's SQL."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from memvault.core.store.postgres.connection import Connection


def create_batch(
    conn: Connection, batch_id: str, *, path: str, fmt: str, source_hash: str, options: dict[str, Any],
    chunks_total: int, now: str,
) -> None:  # fmt: skip
    conn.execute(
        "INSERT INTO import_batches (id, format, created_at, status) VALUES (%s, %s, %s, 'committed')",
        (batch_id, fmt, now),
    )
    conn.execute(
        "INSERT INTO import_manifests (batch_id, path, format, source_hash, options, chunks_total, started_at)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s)",
        (batch_id, path, fmt, source_hash, json.dumps(options, sort_keys=True), chunks_total, now),
    )


def manifest(conn: Connection, batch_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT m.*, b.status, b.counts FROM import_manifests m JOIN import_batches b ON b.id = m.batch_id"
        " WHERE m.batch_id = %s",
        (batch_id,),
    ).fetchone()
    if row is None:
        return None
    return {**row, "options": json.loads(row["options"]), "counts": json.loads(row["counts"])}


def unfinished_for(conn: Connection, source_hash: str) -> str | None:
    """The batch of an interrupted import of the same original, to resume from its last chunk."""
    row = conn.execute(
        "SELECT m.batch_id FROM import_manifests m JOIN import_batches b ON b.id = m.batch_id"
        " WHERE m.source_hash = %s AND m.finished_at IS NULL AND b.status = 'committed'"
        " ORDER BY m.started_at DESC LIMIT 1",
        (source_hash,),
    ).fetchone()
    return None if row is None else str(row["batch_id"])


def list_manifests(conn: Connection, limit: int = 50) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT m.batch_id, m.path, m.format, m.chunks_total, m.chunks_done, m.started_at, m.finished_at,"
        " m.rolled_back_at, b.status, b.counts FROM import_manifests m JOIN import_batches b ON b.id = m.batch_id"
        " ORDER BY m.started_at DESC LIMIT %s",
        (limit,),
    ).fetchall()
    return [{**row, "counts": json.loads(row["counts"])} for row in rows]


def chunk_done(conn: Connection, batch_id: str, chunk: int, counts: dict[str, int], finished: str | None) -> None:
    """The manifest moves past a chunk; the chunk's items keep the state they left their records in."""
    seal(conn, batch_id)
    conn.execute(
        "UPDATE import_manifests SET chunks_done = %s, finished_at = %s WHERE batch_id = %s",
        (chunk, finished, batch_id),
    )
    conn.execute("UPDATE import_batches SET counts = %s WHERE id = %s", (json.dumps(counts, sort_keys=True), batch_id))


def add_item(
    conn: Connection, batch_id: str, action: str, *, memory_id: str | None = None, target_id: str | None = None,
    prior: dict[str, Any] | None = None,
) -> None:  # fmt: skip
    conn.execute(
        "INSERT INTO import_items (batch_id, seq, action, memory_id, target_id, prior) VALUES"
        " (%(batch)s, (SELECT coalesce(max(seq), 0) + 1 FROM import_items WHERE batch_id = %(batch)s),"
        " %(action)s, %(memory)s, %(target)s, %(prior)s)",
        {
            "batch": batch_id,
            "action": action,
            "memory": memory_id,
            "target": target_id,
            "prior": json.dumps(prior or {}, sort_keys=True),
        },
    )


def items(conn: Connection, batch_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT seq, action, memory_id, target_id, prior FROM import_items WHERE batch_id = %s ORDER BY seq DESC",
        (batch_id,),
    ).fetchall()
    return [{**row, "prior": json.loads(row["prior"])} for row in rows]


def mark_rolled_back(conn: Connection, batch_id: str, now: str) -> None:
    conn.execute("UPDATE import_batches SET status = 'rolled_back' WHERE id = %s", (batch_id,))
    conn.execute("UPDATE import_manifests SET rolled_back_at = %s WHERE batch_id = %s", (now, batch_id))


def tag_batch(conn: Connection, memory_id: str, batch_id: str) -> None:
    """A correction the import made carries the batch too (apply_correction writes it without)."""
    conn.execute("UPDATE memories SET import_batch_id = %s WHERE id = %s", (batch_id, memory_id))


# What an import or a consolidation may change on a record, and what a person may change on it since:
# a rollback compares these as the batch left them with the record now (the domain is left out:
# the daemon's domain upkeep moves records without anyone changing what they say).
STATE = (
    "status, valid_until, superseded_by_id, superseded_at, last_confirmed_at, importance, confidence,"
    " access_scope, authorized_workspace_id, tags, archived_at,"
    " (SELECT resolved_at FROM unresolved_items WHERE memory_id = m.id) AS resolved_at"
)


def prior_of(conn: Connection, memory_id: str) -> dict[str, Any]:
    """The state of a record an import may change (confirm, supersede): to put back, and to compare."""
    row = conn.execute(f"SELECT {STATE} FROM memories m WHERE id = %s", (memory_id,)).fetchone()
    return dict(row) if row else {}


def states(conn: Connection, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The state of each record still stored (missing ids are left out)."""
    rows = conn.execute(f"SELECT id, {STATE} FROM memories m WHERE id = ANY(%s)", (sorted(set(ids)),)).fetchall()
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        state = dict(row)
        found[str(state.pop("id"))] = state
    return found


def add_done_item(
    conn: Connection, batch_id: str, action: str, *, memory_id: str | None = None, target_id: str | None = None,
    prior: dict[str, Any] | None = None,
) -> None:  # fmt: skip
    """An item recorded right after its change, with the state it left each record in (`after` of the
    target, `after_new` of the record it wrote): a rollback compares them with the records later."""
    left: dict[str, Any] = {"sealed": True, "exact": True}
    if target_id:
        left["after"] = prior_of(conn, target_id)
    if memory_id:
        left["after_new"] = prior_of(conn, memory_id)
    add_item(conn, batch_id, action, memory_id=memory_id, target_id=target_id, prior={**(prior or {}), **left})


def seal(conn: Connection, batch_id: str) -> None:
    """Items recorded before their change (a consolidation's) get the state their records are left in."""
    rows = conn.execute(
        "SELECT seq, action, memory_id, target_id, prior FROM import_items"
        " WHERE batch_id = %s AND (prior::json ->> 'sealed') IS NULL",
        (batch_id,),
    ).fetchall()
    for row in rows:
        prior = {**json.loads(row["prior"]), "sealed": True}
        if row["action"] != "domain_created":
            if row["target_id"]:
                prior["after"] = prior_of(conn, row["target_id"])
            if row["memory_id"]:
                prior["after_new"] = prior_of(conn, row["memory_id"])
        conn.execute(
            "UPDATE import_items SET prior = %s WHERE batch_id = %s AND seq = %s",
            (json.dumps(prior, sort_keys=True), batch_id, row["seq"]),
        )


def batch_mark(conn: Connection, batch_id: str) -> int:
    """The id of the last event an import batch (or consolidation run) wrote about itself."""
    row = conn.execute(
        "SELECT max(id) AS mark FROM events WHERE action IN ('import_chunk', 'consolidation_run')"
        " AND ((details::json ->> 'batch_id') = %(batch)s OR (details::json ->> 'run_id') = %(batch)s)",
        {"batch": batch_id},
    ).fetchone()
    return int(row["mark"] or 0) if row else 0


def touched_after(conn: Connection, ids: Iterable[str], mark: int) -> set[str]:
    """The records with an event after event `mark` (for batches recorded before items kept their state)."""
    rows = conn.execute(
        "SELECT DISTINCT memory_id FROM events WHERE memory_id = ANY(%s) AND id > %s", (sorted(set(ids)), mark)
    ).fetchall()
    return {str(row["memory_id"]) for row in rows}


def linked_from_outside(conn: Connection, ids: Iterable[str], inside: set[str]) -> dict[str, str]:
    """For records of `ids`, one record not `inside` linked to or from each (a link someone made since)."""
    found: dict[str, str] = {}
    for memory_id in sorted(ids):
        rows = conn.execute(
            "SELECT to_id AS other FROM links WHERE from_id = %(id)s"
            " UNION SELECT from_id FROM links WHERE to_id = %(id)s",
            {"id": memory_id},
        ).fetchall()
        outside = sorted(str(r["other"]) for r in rows if r["other"] not in inside)
        if outside:
            found[memory_id] = outside[0]
    return found


def put_back(conn: Connection, memory_id: str, prior: dict[str, Any], now: str) -> None:
    """Return a record the import changed to what it was (its revision grows: its row changed again)."""
    conn.execute(
        "UPDATE memories SET status = %s, valid_until = %s, superseded_by_id = %s, superseded_at = %s,"
        " last_confirmed_at = %s, importance = %s, revision = revision + 1, updated_at = %s WHERE id = %s",
        (
            prior["status"], prior["valid_until"], prior["superseded_by_id"], prior["superseded_at"],
            prior["last_confirmed_at"], prior["importance"], now, memory_id,
        ),
    )  # fmt: skip
    conn.execute("UPDATE unresolved_items SET resolved_at = %s WHERE memory_id = %s", (prior["resolved_at"], memory_id))


def drop_unused_domain(conn: Connection, name: str) -> None:
    conn.execute(
        "DELETE FROM domains WHERE name = %(name)s AND pinned = 0"
        " AND NOT EXISTS (SELECT 1 FROM memories WHERE domain = %(name)s)",
        {"name": name},
    )


def drop_link(conn: Connection, from_id: str, to_id: str, link_type: str) -> None:
    conn.execute("DELETE FROM links WHERE from_id = %s AND to_id = %s AND type = %s", (from_id, to_id, link_type))


def staged_import(conn: Connection, source_hash: str) -> str | None:
    """A pending or approved inbox proposal for this very file (a file dropped twice is staged once)."""
    row = conn.execute(
        "SELECT id FROM proposals WHERE kind = 'import' AND norm_key = %s AND status != 'rejected' LIMIT 1",
        (source_hash,),
    ).fetchone()
    return None if row is None else str(row["id"])


def last_consolidation(conn: Connection) -> str | None:
    row = conn.execute("SELECT max(time) AS latest FROM events WHERE action = 'consolidation_run'").fetchone()
    return None if row is None or row["latest"] is None else str(row["latest"])
