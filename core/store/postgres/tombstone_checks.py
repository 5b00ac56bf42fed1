"""Whether every tombstone holds: in a PostgreSQL store, the store itself (it has no attached copy)."""

from __future__ import annotations

from memvault.core.store.postgres.connection import Connection
from memvault.core.store.postgres.maintenance_rows import NO_COPIES
from memvault.core.vocabulary.errors import StoreUnavailable


def record_count(conn: Connection) -> int:
    row = conn.execute("SELECT count(*) AS n FROM memories").fetchone()
    return int(row["n"]) if row else 0


def purged_but_present(conn: Connection) -> int:
    raise StoreUnavailable(NO_COPIES)


def unknown_tombstones(conn: Connection) -> list[tuple[str, str, str]]:
    raise StoreUnavailable(NO_COPIES)
