"""Whether every tombstone holds: in a PostgreSQL store, the store itself (it has no attached copy)."""

from __future__ import annotations

from memvault.core.store.postgres.connection import Connection


def record_count(conn: Connection) -> int:
    row = conn.execute("SELECT count(*) AS n FROM memories").fetchone()
    return int(row["n"]) if row else 0
