"""SQL of import batches, their manifests and the items a rollback undoes (ids and prior values only)."""

from __future__ import annotations

import json
from typing import Any

from memvault.core.store.connection import Connection


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


def prior_of(conn: Connection, memory_id: str) -> dict[str, Any]:
    """The fields an import may change on an existing record (confirm, supersede): to put back."""
    row = conn.execute(
        "SELECT status, valid_until, superseded_by_id, superseded_at, last_confirmed_at, importance,"
        " (SELECT resolved_at FROM unresolved_items WHERE memory_id = m.id) AS resolved_at"
        " FROM memories m WHERE id = ?",
        (memory_id,),
    ).fetchone()
    return dict(row) if row else {}


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
