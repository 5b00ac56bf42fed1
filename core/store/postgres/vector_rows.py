"""Stored embeddings (memory_vectors) and the store's write counter (store_version): float32 blobs,
L2-normalised, as the SQLCipher engine keeps them; the numpy side lives in core/retrieval/vectors.py."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memvault.core.store.postgres.connection import Connection


def _number(conn: Connection, sql: str, params: Sequence[object] = ()) -> int:
    row = conn.execute(sql, params).fetchone()
    return int(next(iter(row.values()))) if row else 0


def store_version(conn: Connection) -> int:
    """A number that every write to searchable state moves (triggers of schema 1)."""
    return _number(conn, "SELECT n FROM store_version WHERE id = 1")


def put(conn: Connection, model: str, rows: Iterable[tuple[str, bytes]]) -> int:
    """Store (or replace) the vectors of these memories; answers how many were written. A replaced
    vector takes a new rowid, so readers that follow rowids see it again."""
    data = [(memory_id, model, blob, memory_id) for memory_id, blob in rows]
    with conn.cursor() as cursor:
        # A record purged while its vector was being computed is skipped, not an error.
        cursor.executemany(
            "INSERT INTO memory_vectors (memory_id, model, vector)"
            " SELECT %s, %s, %s WHERE EXISTS (SELECT 1 FROM memories WHERE id = %s)"
            " ON CONFLICT (memory_id) DO UPDATE SET model = excluded.model, vector = excluded.vector,"
            " rowid = nextval(pg_get_serial_sequence('memory_vectors', 'rowid'))",
            data,
        )
    return len(data)


def row_of(conn: Connection, memory_id: str) -> int:
    """The row holding a record's vector (the caller just stored it)."""
    return _number(conn, "SELECT rowid FROM memory_vectors WHERE memory_id = %s", (memory_id,))


def since(conn: Connection, model: str, after_rowid: int, limit: int = 50_000) -> list[tuple[int, str, bytes]]:
    """Vectors of `model` stored after a rowid, oldest first (for incremental index refresh)."""
    rows = conn.execute(
        "SELECT rowid, memory_id, vector FROM memory_vectors WHERE rowid > %s AND model = %s ORDER BY rowid LIMIT %s",
        (after_rowid, model, limit),
    ).fetchall()
    return [(int(r["rowid"]), str(r["memory_id"]), bytes(r["vector"])) for r in rows]


def vectors_of(conn: Connection, model: str, ids: Sequence[str]) -> dict[str, bytes]:
    """The stored vectors of `model` for these memories (those that have one); ids come from visible records."""
    if not ids:
        return {}
    rows = conn.execute(
        "SELECT memory_id, vector FROM memory_vectors WHERE model = %s AND memory_id = ANY(%s)", (model, list(ids))
    ).fetchall()
    return {str(r["memory_id"]): bytes(r["vector"]) for r in rows}


def max_memory_rowid(conn: Connection) -> int:
    return _number(conn, "SELECT coalesce(max(rowid), 0) FROM memories")


def removals(conn: Connection) -> int:
    """How many vectors were ever deleted (a purge; a replaced vector is not counted: it keeps its record)."""
    return _number(conn, "SELECT n FROM vector_removals WHERE id = 1")


def max_rowid(conn: Connection) -> int:
    return _number(conn, "SELECT coalesce(max(rowid), 0) FROM memory_vectors")


def missing(conn: Connection, model: str, after_rowid: int = 0, limit: int = 256) -> list[tuple[int, str, str]]:
    """Records (rowid, id, statement) with no vector of `model`, archived ones included."""
    rows = conn.execute(
        "SELECT m.rowid, m.id, m.statement FROM memories m"
        " WHERE m.rowid > %s AND NOT EXISTS"
        " (SELECT 1 FROM memory_vectors v WHERE v.memory_id = m.id AND v.model = %s)"
        " ORDER BY m.rowid LIMIT %s",
        (after_rowid, model, limit),
    ).fetchall()
    return [(int(r["rowid"]), str(r["id"]), str(r["statement"])) for r in rows]


def count_missing(conn: Connection, model: str) -> int:
    return _number(
        conn,
        "SELECT count(*) FROM memories m WHERE NOT EXISTS"
        " (SELECT 1 FROM memory_vectors v WHERE v.memory_id = m.id AND v.model = %s)",
        (model,),
    )
