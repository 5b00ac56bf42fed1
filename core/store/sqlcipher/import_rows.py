"""SQL of import batches, their manifests and the items a rollback undoes (ids and prior values only)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from memvault.core.store.sqlcipher.connection import Connection


def create_batch(
    conn: Connection, batch_id: str, *, path: str, fmt: str, source_hash: str, options: dict[str, Any],
    chunks_total: int, now: str,
) -> None:  # fmt: skip
    conn.execute(
        "INSERT INTO import_batches (id, format, created_at, status) VALUES (?, ?, ?, 'committed')",
        (batch_id, fmt, now),
    )
    conn.execute(
        "INSERT INTO import_manifests (batch_id, path, format, source_hash, options, chunks_total, started_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (batch_id, path, fmt, source_hash, json.dumps(options, sort_keys=True), chunks_total, now),
    )


def manifest(conn: Connection, batch_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT m.*, b.status, b.counts FROM import_manifests m JOIN import_batches b ON b.id = m.batch_id"
        " WHERE m.batch_id = ?",
        (batch_id,),
    ).fetchone()
    if row is None:
        return None
    return {**dict(row), "options": json.loads(row["options"]), "counts": json.loads(row["counts"])}


def unfinished_for(conn: Connection, source_hash: str) -> str | None:
    """The batch of an interrupted import of the same original, to resume from its last chunk."""
    row = conn.execute(
        "SELECT m.batch_id FROM import_manifests m JOIN import_batches b ON b.id = m.batch_id"
        " WHERE m.source_hash = ? AND m.finished_at IS NULL AND b.status = 'committed'"
        " ORDER BY m.started_at DESC LIMIT 1",
        (source_hash,),
    ).fetchone()
    return None if row is None else str(row[0])


def list_manifests(conn: Connection, limit: int = 50) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT m.batch_id, m.path, m.format, m.chunks_total, m.chunks_done, m.started_at, m.finished_at,"
        " m.rolled_back_at, b.status, b.counts FROM import_manifests m JOIN import_batches b ON b.id = m.batch_id"
        " ORDER BY m.started_at DESC LIMIT ?",
        (limit,),
    ).fetchall()
    return [{**dict(row), "counts": json.loads(row["counts"])} for row in rows]


def chunk_done(conn: Connection, batch_id: str, chunk: int, counts: dict[str, int], finished: str | None) -> None:
    """The manifest moves past a chunk; the chunk's items keep the state they left their records in."""
    seal(conn, batch_id)
    conn.execute(
        "UPDATE import_manifests SET chunks_done = ?, finished_at = ? WHERE batch_id = ?", (chunk, finished, batch_id)
    )
    conn.execute("UPDATE import_batches SET counts = ? WHERE id = ?", (json.dumps(counts, sort_keys=True), batch_id))


def add_item(
    conn: Connection, batch_id: str, action: str, *, memory_id: str | None = None, target_id: str | None = None,
    prior: dict[str, Any] | None = None,
) -> None:  # fmt: skip
    conn.execute(
        "INSERT INTO import_items (batch_id, seq, action, memory_id, target_id, prior) VALUES"
        " (?, (SELECT coalesce(max(seq), 0) + 1 FROM import_items WHERE batch_id = ?), ?, ?, ?, ?)",
        (batch_id, batch_id, action, memory_id, target_id, json.dumps(prior or {}, sort_keys=True)),
    )


def items(conn: Connection, batch_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT seq, action, memory_id, target_id, prior FROM import_items WHERE batch_id = ? ORDER BY seq DESC",
        (batch_id,),
    ).fetchall()
    return [{**dict(row), "prior": json.loads(row["prior"])} for row in rows]


def mark_rolled_back(conn: Connection, batch_id: str, now: str) -> None:
    conn.execute("UPDATE import_batches SET status = 'rolled_back' WHERE id = ?", (batch_id,))
    conn.execute("UPDATE import_manifests SET rolled_back_at = ? WHERE batch_id = ?", (now, batch_id))


def tag_batch(conn: Connection, memory_id: str, batch_id: str) -> None:
    """A correction the import made carries the batch too (apply_correction writes it without)."""
    conn.execute("UPDATE memories SET import_batch_id = ? WHERE id = ?", (batch_id, memory_id))


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
    row = conn.execute(f"SELECT {STATE} FROM memories m WHERE id = ?", (memory_id,)).fetchone()
    return dict(row) if row else {}


def states(conn: Connection, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The state of each record still stored (missing ids are left out)."""
    found: dict[str, dict[str, Any]] = {}
    wanted = sorted(set(ids))
    for start in range(0, len(wanted), 500):
        part = wanted[start : start + 500]
        rows = conn.execute(
            f"SELECT id, {STATE} FROM memories m WHERE id IN ({','.join('?' * len(part))})", part
        ).fetchall()
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
        " WHERE batch_id = ? AND json_extract(prior, '$.sealed') IS NULL",
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
            "UPDATE import_items SET prior = ? WHERE batch_id = ? AND seq = ?",
            (json.dumps(prior, sort_keys=True), batch_id, row["seq"]),
        )


def batch_mark(conn: Connection, batch_id: str) -> int:
    """The id of the last event an import batch (or consolidation run) wrote about itself."""
    row = conn.execute(
        "SELECT max(id) FROM events WHERE action IN ('import_chunk', 'consolidation_run')"
        " AND (json_extract(details, '$.batch_id') = ? OR json_extract(details, '$.run_id') = ?)",
        (batch_id, batch_id),
    ).fetchone()
    return int(row[0] or 0)


def touched_after(conn: Connection, ids: Iterable[str], mark: int) -> set[str]:
    """The records with an event after event `mark` (for batches recorded before items kept their state)."""
    return {
        memory_id
        for memory_id in set(ids)
        if conn.execute("SELECT 1 FROM events WHERE memory_id = ? AND id > ? LIMIT 1", (memory_id, mark)).fetchone()
    }


def linked_from_outside(conn: Connection, ids: Iterable[str], inside: set[str]) -> dict[str, str]:
    """For records of `ids`, one record not `inside` linked to or from each (a link someone made since)."""
    found: dict[str, str] = {}
    for memory_id in sorted(ids):
        rows = conn.execute(
            "SELECT to_id AS other FROM links WHERE from_id = ? UNION SELECT from_id FROM links WHERE to_id = ?",
            (memory_id, memory_id),
        ).fetchall()
        outside = sorted(str(r[0]) for r in rows if r[0] not in inside)
        if outside:
            found[memory_id] = outside[0]
    return found


def put_back(conn: Connection, memory_id: str, prior: dict[str, Any], now: str) -> None:
    """Return a record the import changed to what it was (its revision grows: its row changed again)."""
    conn.execute(
        "UPDATE memories SET status = ?, valid_until = ?, superseded_by_id = ?, superseded_at = ?,"
        " last_confirmed_at = ?, importance = ?, revision = revision + 1, updated_at = ? WHERE id = ?",
        (
            prior["status"], prior["valid_until"], prior["superseded_by_id"], prior["superseded_at"],
            prior["last_confirmed_at"], prior["importance"], now, memory_id,
        ),
    )  # fmt: skip
    conn.execute("UPDATE unresolved_items SET resolved_at = ? WHERE memory_id = ?", (prior["resolved_at"], memory_id))


def drop_unused_domain(conn: Connection, name: str) -> None:
    conn.execute(
        "DELETE FROM domains WHERE name = ? AND pinned = 0 AND NOT EXISTS (SELECT 1 FROM memories WHERE domain = ?)",
        (name, name),
    )


def drop_link(conn: Connection, from_id: str, to_id: str, link_type: str) -> None:
    conn.execute("DELETE FROM links WHERE from_id = ? AND to_id = ? AND type = ?", (from_id, to_id, link_type))


def staged_import(conn: Connection, source_hash: str) -> str | None:
    """A pending or approved inbox proposal for this very file (a file dropped twice is staged once)."""
    row = conn.execute(
        "SELECT id FROM proposals WHERE kind = 'import' AND norm_key = ? AND status != 'rejected' LIMIT 1",
        (source_hash,),
    ).fetchone()
    return None if row is None else str(row[0])


def last_consolidation(conn: Connection) -> str | None:
    row = conn.execute("SELECT max(time) FROM events WHERE action = 'consolidation_run'").fetchone()
    return None if row is None or row[0] is None else str(row[0])
