"""What a search reads about the store once, at the start of its snapshot: the numbers its caches are
keyed on and which of the optional tables hold any row.

- the store's identity (file path and inode: a restore replaces the file), so caches shared by the
  stores of one process never mix them up (connections cannot be weakly referenced, and `id(conn)`
  is reused once a connection is gone);
- schema 2's write counter (`store_version`, moved by triggers on searchable state);
- the change feed's cursor (the newest event id: every committed state change writes one);
- the newest stored vector's rowid (embeddings are written after their record's commit, without an event);
- which of links, entities and feedback hold a row: many stores have none, and a lookup of a search's
  ~150 candidates in an empty table still costs 0.1-0.4 ms (binding and sorting the ids).

One statement: a search used to ask for these piecemeal (eight statements in its snapshot).
"""

from __future__ import annotations

import os

from memvault.core.store.rows import OPTIONAL_TABLES, StoreStamps
from memvault.core.store.sqlcipher.connection import Connection


def read(conn: Connection) -> StoreStamps:
    filled = ", ".join(f"EXISTS (SELECT 1 FROM {table})" for table in OPTIONAL_TABLES)
    row = conn.execute(
        "SELECT (SELECT file FROM pragma_database_list WHERE name = 'main'),"
        " coalesce((SELECT n FROM store_version WHERE id = 1), 0), (SELECT coalesce(max(id), 0) FROM events),"
        f" (SELECT coalesce(max(rowid), 0) FROM memory_vectors), {filled}"
    ).fetchone()
    tables = frozenset(table for table, any_row in zip(OPTIONAL_TABLES, row[4:], strict=True) if any_row)
    return StoreStamps(_identity(str(row[0] or "")), int(row[1]), int(row[2]), int(row[3]), tables)


def _identity(path: str) -> str:
    if not path:
        return "memory"
    try:
        return f"{path}#{os.stat(path).st_ino}"
    except OSError:
        return path
