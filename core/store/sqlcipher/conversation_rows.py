"""SQL of imported conversations: sources with a pointer and a hash, and their word index."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memvault.core.store.sqlcipher.connection import Connection
from memvault.core.store.sqlcipher.match import any_word


def insert(conn: Connection, row: dict[str, Any], body: str, now: str) -> None:
    """One conversation (its source row first): the words go to the index, never to a column."""
    conn.execute(
        "INSERT INTO sources (id, kind, title, reference, integrity_hash, created_at) VALUES (?, 'import', ?, ?, ?, ?)",
        (row["source_id"], row["title"], row["reference"], row["content_hash"], now),
    )
    conn.execute(
        "INSERT INTO conversations (id, source_id, title, started_at, snippet, import_batch_id, format, reference,"
        " content_hash, turns) VALUES (:id, :source_id, :title, :started_at, :snippet, :batch_id, :format,"
        " :reference, :content_hash, :turns)",
        row,
    )
    rowid = conn.execute("SELECT rowid FROM conversations WHERE id = ?", (row["id"],)).fetchone()[0]
    conn.execute("INSERT INTO conversation_fts (rowid, title, body) VALUES (?, ?, ?)", (rowid, row["title"], body))


def delete_batch(conn: Connection, batch_id: str) -> int:
    rows = conn.execute("SELECT rowid, source_id FROM conversations WHERE import_batch_id = ?", (batch_id,)).fetchall()
    for rowid, source_id in rows:
        conn.execute("DELETE FROM conversation_fts WHERE rowid = ?", (rowid,))
        conn.execute("DELETE FROM conversations WHERE rowid = ?", (rowid,))
        conn.execute(
            "DELETE FROM sources WHERE id = ? AND NOT EXISTS (SELECT 1 FROM memories WHERE source_id = ?)",
            (source_id, source_id),
        )
    return len(rows)


def count_batch(conn: Connection, batch_id: str) -> int:
    return int(conn.execute("SELECT count(*) FROM conversations WHERE import_batch_id = ?", (batch_id,)).fetchone()[0])


def search(
    conn: Connection, words: Sequence[str], *, limit: int, start: str | None, end: str | None, fmt: str | None
) -> list[dict[str, Any]]:
    """Conversations holding any of the words, best first, filtered by time and format."""
    where, params = ["conversation_fts MATCH ?"], [any_word(words)]
    for clause, value in (("c.started_at >= ?", start), ("c.started_at < ?", end), ("c.format = ?", fmt)):
        if value is not None:
            where.append(clause)
            params.append(value)
    rows = conn.execute(
        "SELECT c.id AS conversation_id, c.title, c.started_at AS time, c.snippet, c.format AS source"
        " FROM conversation_fts JOIN conversations c ON c.rowid = conversation_fts.rowid"
        f" WHERE {' AND '.join(where)} ORDER BY bm25(conversation_fts) LIMIT ?",
        [*params, limit],
    ).fetchall()
    return [dict(row) for row in rows]
