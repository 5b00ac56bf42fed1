"""Whether every tombstone holds: the store's record count (a restore reads it)."""

from __future__ import annotations

from memvault.core.store.sqlcipher.connection import Connection


def record_count(conn: Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
