"""What a search reads about the store once, at the start of its snapshot (`StoreStamps`), in one
statement. The identity names the database and its memories table (a store made anew, or restored
over this one, gets another table), so caches shared by a process's stores never mix them up."""

from __future__ import annotations

from memvault.core.store.postgres.connection import Connection
from memvault.core.store.rows import OPTIONAL_TABLES, StoreStamps


def read(conn: Connection) -> StoreStamps:
    filled = ", ".join(f"EXISTS (SELECT 1 FROM {table}) AS {table}" for table in OPTIONAL_TABLES)
    row = conn.execute(
        "SELECT current_database() || '@' || coalesce(host(inet_server_addr()), 'socket') || ':'"
        " || coalesce(inet_server_port(), 0) || '#' || 'memories'::regclass::oid AS identity,"
        " (SELECT n FROM store_version WHERE id = 1) AS writes, (SELECT coalesce(max(id), 0) FROM events) AS cursor,"
        f" (SELECT coalesce(max(rowid), 0) FROM memory_vectors) AS vectors, {filled}"
    ).fetchone()
    assert row is not None
    tables = frozenset(table for table in OPTIONAL_TABLES if row[table])
    return StoreStamps(str(row["identity"]), int(row["writes"]), int(row["cursor"]), int(row["vectors"]), tables)
