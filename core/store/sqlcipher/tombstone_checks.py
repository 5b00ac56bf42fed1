"""Whether every tombstone holds everywhere: the store and a backup attached beside it."""

from __future__ import annotations

from memvault.core.store.sqlcipher.connection import Connection
from memvault.core.store.sqlcipher.maintenance_rows import ALIAS


def record_count(conn: Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])


def purged_but_present(conn: Connection) -> int:
    """Records the attached copy holds that the store's tombstones say were purged."""
    row = conn.execute(
        f"SELECT count(*) FROM {ALIAS}.memories WHERE id IN (SELECT memory_id FROM main.tombstones)"
    ).fetchone()
    return int(row[0])


def unknown_tombstones(conn: Connection) -> list[tuple[str, str, str]]:
    """Tombstones the attached copy has and the store lacks (a purge the store forgot)."""
    rows = conn.execute(
        f"SELECT memory_id, purged_at, reason_category FROM {ALIAS}.tombstones"
        " WHERE memory_id NOT IN (SELECT memory_id FROM main.tombstones) ORDER BY purged_at"
    ).fetchall()
    return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]
