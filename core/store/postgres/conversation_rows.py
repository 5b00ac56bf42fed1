"""Imported conversations (sources with a pointer and a hash) and their words: the SQLCipher engine's
`conversation_rows.py` in PostgreSQL's SQL, a tsvector in place of its contentless FTS5 index."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memvault.core.store.postgres.connection import Connection
from memvault.core.store.postgres.words import any_term, folded

# A conversation's words: its title (weight A) and body (B), each argument already folded.
CONVERSATION_WORDS = (
    "setweight(to_tsvector('simple', %(title_words)s), 'A') || setweight(to_tsvector('simple', %(body)s), 'B')"
)
# ts_rank_cd's weights are given for D, C, B, A: title and body count alike, as in FTS5's bm25 with
# no column weights.
_RANK_WEIGHTS = "{0, 0, 1, 1}"


def insert(conn: Connection, row: dict[str, Any], body: str, now: str) -> None:
    """One conversation (its source row first). The body is never stored, only its words: the
    `words` tsvector holds lexemes and their positions, as FTS5's contentless index of it does."""
    conn.execute(
        "INSERT INTO sources (id, kind, title, reference, integrity_hash, created_at)"
        " VALUES (%s, 'import', %s, %s, %s, %s)",
        (row["source_id"], row["title"], row["reference"], row["content_hash"], now),
    )
    conn.execute(
        "INSERT INTO conversations (id, source_id, title, started_at, snippet, import_batch_id, format, reference,"
        " content_hash, turns, words) VALUES (%(id)s, %(source_id)s, %(title)s, %(started_at)s, %(snippet)s,"
        f" %(batch_id)s, %(format)s, %(reference)s, %(content_hash)s, %(turns)s, {CONVERSATION_WORDS})",
        {**row, "title_words": folded(row["title"] or ""), "body": folded(body)},
    )


def delete_batch(conn: Connection, batch_id: str) -> int:
    """Remove an import batch's conversations (their words with them) and the sources no record cites."""
    rows = conn.execute(
        "DELETE FROM conversations WHERE import_batch_id = %s RETURNING source_id", (batch_id,)
    ).fetchall()
    for row in rows:
        conn.execute(
            "DELETE FROM sources WHERE id = %(id)s AND NOT EXISTS (SELECT 1 FROM memories WHERE source_id = %(id)s)",
            {"id": row["source_id"]},
        )
    return len(rows)


def count_batch(conn: Connection, batch_id: str) -> int:
    row = conn.execute("SELECT count(*) AS n FROM conversations WHERE import_batch_id = %s", (batch_id,)).fetchone()
    return int(row["n"]) if row else 0


def search(
    conn: Connection, words: Sequence[str], *, limit: int, start: str | None, end: str | None, fmt: str | None
) -> list[dict[str, Any]]:
    """Conversations holding any of the words, best first, filtered by time and format. Ranked by
    ts_rank_cd, not FTS5's bm25: the same conversations match, in a close but not always the same
    order (ties: in the order they were imported)."""
    if not words:
        return []  # FTS5 refuses an empty MATCH; nothing matches nothing here
    where, params = ["c.words @@ q"], list[object]()
    for clause, value in (("c.started_at >= %s", start), ("c.started_at < %s", end), ("c.format = %s", fmt)):
        if value is not None:
            where.append(clause)
            params.append(value)
    query = any_term((folded(word), False) for word in words)
    rows = conn.execute(
        "SELECT c.id AS conversation_id, c.title, c.started_at AS time, c.snippet, c.format AS source"
        " FROM conversations c, to_tsquery('simple', %s) AS q"
        f" WHERE {' AND '.join(where)} ORDER BY ts_rank_cd(%s::real[], c.words, q) DESC, c.rowid LIMIT %s",
        [query, *params, _RANK_WEIGHTS, limit],
    ).fetchall()
    return [dict(row) for row in rows]
