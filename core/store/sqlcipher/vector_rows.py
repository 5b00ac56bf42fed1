"""SQL for stored embeddings (memory_vectors) and the store's write counter (store_version).

Vectors are float32 blobs (little-endian, L2-normalised) in the encrypted store; this module
moves bytes only, the numpy side lives in core/retrieval/vectors.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memvault.core.store.sqlcipher.connection import Connection


def store_version(conn: Connection) -> int:
    """A number that every write to searchable state moves (triggers of schema 2)."""
    row = conn.execute("SELECT n FROM store_version WHERE id = 1").fetchone()
    return int(row[0]) if row else 0


def put(conn: Connection, model: str, rows: Iterable[tuple[str, bytes]]) -> int:
    """Store (or replace) the vectors of these memories; answers how many were written."""
    data = [(memory_id, model, blob, memory_id) for memory_id, blob in rows]
    # A record purged while its vector was being computed is skipped, not an error.
    conn.executemany(
        "INSERT OR REPLACE INTO memory_vectors (memory_id, model, vector)"
        " SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM memories WHERE id = ?)",
        data,
    )
    return len(data)


def row_of(conn: Connection, memory_id: str) -> int:
    """The row holding a record's vector (the caller just stored it)."""
    return int(conn.execute("SELECT rowid FROM memory_vectors WHERE memory_id = ?", (memory_id,)).fetchone()[0])


def since(conn: Connection, model: str, after_rowid: int, limit: int = 50_000) -> list[tuple[int, str, bytes]]:
    """Vectors of `model` stored after a rowid, oldest first (for incremental index refresh)."""
    rows = conn.execute(
        "SELECT rowid, memory_id, vector FROM memory_vectors WHERE rowid > ? AND model = ? ORDER BY rowid LIMIT ?",
        (after_rowid, model, limit),
    ).fetchall()
    return [(int(r[0]), str(r[1]), bytes(r[2])) for r in rows]


def vectors_of(conn: Connection, model: str, ids: Sequence[str]) -> dict[str, bytes]:
    """The stored vectors of `model` for these memories (those that have one); ids come from visible records."""
    if not ids:
        return {}
    rows = conn.execute(
        f"SELECT memory_id, vector FROM memory_vectors WHERE model = ? AND memory_id IN ({','.join('?' * len(ids))})",
        [model, *ids],
    ).fetchall()
    return {str(r[0]): bytes(r[1]) for r in rows}


def max_memory_rowid(conn: Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(rowid), 0) FROM memories").fetchone()[0])


def removals(conn: Connection) -> int:
    """How many vectors were ever deleted (a purge; a replaced vector is not counted: it keeps its record)."""
    row = conn.execute("SELECT n FROM vector_removals WHERE id = 1").fetchone()
    return int(row[0]) if row else 0


def max_rowid(conn: Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(rowid), 0) FROM memory_vectors").fetchone()[0])


def missing(conn: Connection, model: str, after_rowid: int = 0, limit: int = 256) -> list[tuple[int, str, str]]:
    """Records (rowid, id, statement) with no vector of `model`, archived ones included.

    Archived records are embedded too so that a restore needs no model; they are never
    searched (the search filters run in SQL).
    """
    rows = conn.execute(
        "SELECT m.rowid, m.id, m.statement FROM memories m"
        " WHERE m.rowid > ? AND NOT EXISTS"
        " (SELECT 1 FROM memory_vectors v WHERE v.memory_id = m.id AND v.model = ?)"
        " ORDER BY m.rowid LIMIT ?",
        (after_rowid, model, limit),
    ).fetchall()
    return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]


def count_missing(conn: Connection, model: str) -> int:
    row = conn.execute(
        "SELECT count(*) FROM memories m WHERE NOT EXISTS"
        " (SELECT 1 FROM memory_vectors v WHERE v.memory_id = m.id AND v.model = ?)",
        (model,),
    ).fetchone()
    return int(row[0])
