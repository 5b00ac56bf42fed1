"""Integrity, purge and the store's copies, on PostgreSQL.

A PostgreSQL store has one copy memvault writes to: its database (`schema` is always "main"). Its
backups are SQLCipher files that `core/maintenance/` writes and rewrites with the file engine (a
backup is opened as a store of its own there, never attached to this connection), so what a SQLCipher
store does to an attached backup (`attached`, `export_into`) is refused
with the reason. A restore empties every logical table (`clear_for_restore`) in the transaction that
copies the backup's rows in. What a purge
can reach: the rows and their index entries, then a VACUUM of the touched tables; not the server's
WAL archives, replicas or a provider's backups (docs say so). PostgreSQL has no secure delete: a
freed tuple's bytes stay in its page until VACUUM reuses the space.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memvault.core.store.postgres.connection import Connection, DatabaseError
from memvault.core.store.transfer_tables import REVOCATIONS, TABLES
from memvault.core.vocabulary.errors import StoreUnavailable

REQUIRED_TABLES = frozenset(
    {"memories", "events", "proposals", "tombstones", "backups", "settings", "schema_version", "memory_trigrams"}
)
# The tables a purge deletes from, vacuumed after it.
PURGED_TABLES = (
    "memories",
    "memory_trigrams",
    "memory_vectors",
    "memory_entities",
    "memory_usage",
    "links",
    "proposals",
    "retrieval_log",
    "entities",
    "projects",
    "sources",
    "conversations",
)
_BY_MEMORY_ID = (
    "memory_vectors",
    "memory_entities",
    "memory_usage",
    "feedback",
    "decisions",
    "unresolved_items",
    "project_states",
)
NO_COPIES = "a PostgreSQL store's backups are not files memvault attaches: they open as stores of their own"


def _main(schema: str) -> None:
    if schema != "main":
        raise ValueError(NO_COPIES)


def _count(conn: Connection, sql: str, params: Sequence[object] | dict[str, object] = ()) -> int:
    return int(conn.execute(sql, params).rowcount or 0)


@contextmanager
def attached(conn: Connection, path: Path) -> Iterator[str | None]:
    """Refused: there is no file copy to attach."""
    raise StoreUnavailable(NO_COPIES)
    yield None  # a generator, as the protocol's context manager


def is_store(conn: Connection, schema: str = "main") -> bool:
    return table_names(conn, schema) >= REQUIRED_TABLES


def export_into(conn: Connection, target: Path) -> None:
    raise StoreUnavailable(f"{NO_COPIES}: no copy of it was written to {target.name}")


def integrity(conn: Connection, schema: str = "main") -> list[str]:
    """Problems found: none that memvault can check. The server guards its pages itself (data
    checksums, when the cluster was made with them); memvault's own checks are the schema's."""
    _main(schema)
    return []


def table_names(conn: Connection, schema: str = "main") -> set[str]:
    _main(schema)
    rows = conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        " AND table_type = 'BASE TABLE'"
    ).fetchall()
    return {str(row["table_name"]) for row in rows}


def schema_version(conn: Connection, schema: str = "main") -> int | None:
    """The store's schema version without creating anything; None when it has no version table."""
    if "schema_version" not in table_names(conn, schema):
        return None
    row = conn.execute("SELECT coalesce(max(version), 0) AS version FROM schema_version").fetchone()
    return int(row["version"]) if row else 0


def table_rows(conn: Connection, table: str, schema: str = "main") -> list[tuple[Any, ...]]:
    if table not in table_names(conn, schema):
        raise ValueError(f"no table {table}")
    quoted = '"' + table.replace('"', '""') + '"'
    rows = conn.execute(f"SELECT * FROM {quoted}").fetchall()
    return sorted((tuple(row.values()) for row in rows), key=repr)


def batch_exists(conn: Connection, batch_id: str) -> bool:
    return conn.execute("SELECT 1 FROM import_batches WHERE id = %s", (batch_id,)).fetchone() is not None


def batch_members(conn: Connection, batch_id: str, schema: str = "main") -> list[str]:
    _main(schema)
    rows = conn.execute("SELECT id FROM memories WHERE import_batch_id = %s ORDER BY id", (batch_id,)).fetchall()
    return [str(row["id"]) for row in rows]


def chain_neighbours(conn: Connection, memory_id: str, schema: str = "main") -> list[str]:
    """The records directly before and after `memory_id` in its supersession chain."""
    _main(schema)
    row = conn.execute("SELECT supersedes_id, superseded_by_id FROM memories WHERE id = %s", (memory_id,)).fetchone()
    found = [str(value) for value in (row or {}).values() if value]
    found += [
        str(r["id"])
        for r in conn.execute(
            "SELECT id FROM memories WHERE supersedes_id = %(id)s OR superseded_by_id = %(id)s", {"id": memory_id}
        )
    ]
    return found


def purge_requests(conn: Connection, status: str | None = "pending") -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT id, status, target_id, payload, principal, surface, reason, created_at, decided_at FROM proposals"
        " WHERE kind = 'purge' AND (%(status)s::text IS NULL OR status = %(status)s) ORDER BY created_at, id",
        {"status": status},
    ).fetchall()
    return [{**row, "payload": json.loads(row["payload"])} for row in rows]


def close_purge_request(conn: Connection, request_id: str, now: str, category: str, payload: dict[str, Any]) -> None:
    """Mark a purge request done, keeping only ids and the reason's category (no free text)."""
    conn.execute(
        "UPDATE proposals SET status = 'approved', decided_at = %s, reason = %s, payload = %s WHERE id = %s",
        (now, category, json.dumps(payload), request_id),
    )


def statements_of(conn: Connection, ids: Sequence[str], schema: str = "main") -> dict[str, str]:
    _main(schema)
    rows = conn.execute("SELECT id, statement FROM memories WHERE id = ANY(%s)", (list(ids),)).fetchall()
    return {str(row["id"]): str(row["statement"]) for row in rows}


def purge_records(
    conn: Connection, ids: Sequence[str], now: str, category: str, schema: str = "main"
) -> dict[str, int]:
    """Remove the records `ids` and everything that carries their content, in the caller's transaction.
    Leaves a content-free tombstone per id. Counts of removed rows come back by table."""
    _main(schema)
    counts: dict[str, int] = {}
    for memory_id in ids:
        for table, n in _purge_one(conn, memory_id):
            counts[table] = counts.get(table, 0) + n
        conn.execute(
            "INSERT INTO tombstones (memory_id, purged_at, reason_category) VALUES (%s, %s, %s)"
            " ON CONFLICT (memory_id) DO NOTHING",
            (memory_id, now, category),
        )
    counts["retrieval_log"] = _count(
        conn,
        "DELETE FROM retrieval_log WHERE EXISTS"
        " (SELECT 1 FROM json_array_elements_text(retrieval_log.ids::json) j WHERE j = ANY(%s))",
        (list(ids),),
    )
    counts["entities"] = _count(conn, "DELETE FROM entities WHERE id NOT IN (SELECT entity_id FROM memory_entities)")
    counts["projects"] = _count(
        conn, "DELETE FROM projects WHERE id NOT IN (SELECT project_id FROM memories WHERE project_id IS NOT NULL)"
    )
    return {name: n for name, n in counts.items() if n}


def _purge_one(conn: Connection, memory_id: str) -> list[tuple[str, int]]:
    done = [
        (
            "proposals",
            _count(
                conn,
                "DELETE FROM proposals WHERE kind != 'purge' AND (target_id = %(id)s OR result_id = %(id)s)",
                {"id": memory_id},
            ),
        )
    ]
    row = conn.execute("SELECT rowid, source_id FROM memories WHERE id = %s", (memory_id,)).fetchone()
    if row is None:
        return done
    done.append(
        ("memory_trigrams", _count(conn, "DELETE FROM memory_trigrams WHERE memory_rowid = %s", (row["rowid"],)))
    )
    for table in _BY_MEMORY_ID:
        done.append((table, _count(conn, f"DELETE FROM {table} WHERE memory_id = %s", (memory_id,))))
    done.append(
        ("links", _count(conn, "DELETE FROM links WHERE from_id = %(id)s OR to_id = %(id)s", {"id": memory_id}))
    )
    # neighbours lose their pointer to it: a change of their own rows, so their revisions grow
    for column in ("supersedes_id", "superseded_by_id"):
        conn.execute(f"UPDATE memories SET {column} = NULL, revision = revision + 1 WHERE {column} = %s", (memory_id,))
    done.append(("memories", _count(conn, "DELETE FROM memories WHERE id = %s", (memory_id,))))  # its words with it
    if row["source_id"]:
        conn.execute(
            "DELETE FROM sources WHERE id = %(id)s AND NOT EXISTS (SELECT 1 FROM memories WHERE source_id = %(id)s)"
            " AND NOT EXISTS (SELECT 1 FROM conversations WHERE source_id = %(id)s)",
            {"id": row["source_id"]},
        )
    return done


def purge_texts(conn: Connection, texts: Iterable[str], schema: str = "main") -> int:
    """Remove proposals (other than purge requests) whose payload carries one of `texts`."""
    _main(schema)
    removed = 0
    for text in texts:
        escaped = json.dumps(text)[1:-1]  # as the text appears inside a JSON payload
        removed += _count(conn, "DELETE FROM proposals WHERE kind != 'purge' AND strpos(payload, %s) > 0", (escaped,))
    return removed


def purge_batch_rows(conn: Connection, batch_id: str, schema: str = "main") -> int:
    """Conversations (titles, snippets, their words) an import batch brought in."""
    _main(schema)
    return _count(conn, "DELETE FROM conversations WHERE import_batch_id = %s", (batch_id,))


def optimize_text_indexes(conn: Connection, schema: str = "main") -> None:
    """Move the word index's pending entries into the index proper (deleted ones leave with them)."""
    _main(schema)
    conn.execute("SELECT gin_clean_pending_list('memories_words'::regclass)")


def secure_delete_on(conn: Connection, schema: str = "main") -> None:
    """Nothing to turn on: PostgreSQL has no secure delete (the module's docstring says what a purge reaches)."""
    _main(schema)


def checkpoint_truncate(conn: Connection) -> bool:
    """A checkpoint, when this role may ask for one (PostgreSQL recycles its WAL itself; archives and
    replicas keep what they received)."""
    try:
        conn.execute("CHECKPOINT")
    except DatabaseError:
        return False
    return True


def vacuum(conn: Connection, schema: str = "main") -> None:
    """VACUUM the tables a purge touches (outside any transaction, as PostgreSQL requires)."""
    _main(schema)
    conn.execute(f"VACUUM {', '.join(PURGED_TABLES)}")


def tombstone_ids(conn: Connection) -> list[tuple[str, str, str]]:
    rows = conn.execute("SELECT memory_id, purged_at, reason_category FROM tombstones ORDER BY purged_at").fetchall()
    return [(str(r["memory_id"]), str(r["purged_at"]), str(r["reason_category"])) for r in rows]


def existing_ids(conn: Connection, ids: Sequence[str], schema: str = "main") -> list[str]:
    _main(schema)
    rows = conn.execute("SELECT id FROM memories WHERE id = ANY(%s)", (list(ids),)).fetchall()
    return [str(row["id"]) for row in rows]


def journal_mode(conn: Connection, mode: str) -> str:
    """A SQLite file's journal: a PostgreSQL store has none."""
    raise StoreUnavailable(f"{NO_COPIES}: it has no journal mode to set to {mode}")


def recipients(conn: Connection, ids: Sequence[str]) -> dict[str, int]:
    """Which principals search results listing these records went to, and how often."""
    rows = conn.execute(
        "SELECT principal, count(*) AS n FROM retrieval_log WHERE EXISTS"
        " (SELECT 1 FROM json_array_elements_text(retrieval_log.ids::json) j WHERE j = ANY(%s)) GROUP BY principal",
        (list(ids),),
    ).fetchall()
    return {str(row["principal"]): int(row["n"]) for row in rows}


def principal_surfaces(conn: Connection) -> dict[str, str]:
    return {str(r["name"]): str(r["surface"]) for r in conn.execute("SELECT name, surface FROM principals")}


def add_tombstones(conn: Connection, rows: Iterable[tuple[str, str, str]], schema: str = "main") -> None:
    _main(schema)
    with conn.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO tombstones (memory_id, purged_at, reason_category) VALUES (%s, %s, %s)"
            " ON CONFLICT (memory_id) DO NOTHING",
            list(rows),
        )


def tombstoned_present(conn: Connection, schema: str = "main") -> list[tuple[str, str]]:
    """Records the store still holds although its own tombstones say they were purged: (id, category)."""
    _main(schema)
    rows = conn.execute(
        "SELECT m.id, t.reason_category FROM memories m JOIN tombstones t ON t.memory_id = m.id ORDER BY m.id"
    ).fetchall()
    return [(str(r["id"]), str(r["reason_category"])) for r in rows]


def clear_for_restore(conn: Connection) -> None:
    """Empty every logical table and the trigram rows derived from them, in the caller's transaction
    (which holds the write lock): the rows of a backup are copied in next. TRUNCATE, because the event
    log refuses a DELETE (append-only) and fires no row trigger; so the write counter and the vector
    removals are moved here by hand, and every process's caches keyed on them load again. `backups`
    (each machine's files), the schema version and those counters stay."""
    tables = ", ".join([*(spec.name for spec in TABLES), "memory_trigrams"])
    conn.execute(f"TRUNCATE {tables} RESTART IDENTITY")
    conn.execute("UPDATE store_version SET n = n + 1 WHERE id = 1")
    conn.execute("UPDATE vector_removals SET n = n + 1 WHERE id = 1")


def continue_events_after(conn: Connection, cursor: int) -> None:
    """The next event id is past `cursor` (and past every event held): after a restore, the change feed
    goes on beyond every cursor a machine may hold, so no cache keyed on an older one is taken as fresh."""
    conn.execute(
        "SELECT setval(pg_get_serial_sequence('events', 'id'),"
        " greatest(%s, (SELECT coalesce(max(id), 0) FROM events)), true)",
        (max(int(cursor), 1),),
    )


def revocations(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every row a revocation (or a spent token) marks, by table: (key, *marks), as `REVOCATIONS` names them."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    for table, key, marks in REVOCATIONS:
        rows = conn.execute(
            f"SELECT {key}, {', '.join(marks)} FROM {table} WHERE {' OR '.join(f'{m} IS NOT NULL' for m in marks)}"
        ).fetchall()
        found[table] = [tuple(row[c] for c in (key, *marks)) for row in rows]
    return found


def revoke_again(conn: Connection, revoked: dict[str, list[tuple[Any, ...]]]) -> None:
    """Set every mark `revocations` read again where the row is there and the mark is not (never unset one)."""
    for table, key, marks in REVOCATIONS:
        rows = [(*row[1:], row[0]) for row in revoked.get(table, [])]
        if rows:
            sets = ", ".join(f"{m} = COALESCE({m}, %s)" for m in marks)
            with conn.cursor() as cursor:
                cursor.executemany(f"UPDATE {table} SET {sets} WHERE {key} = %s", rows)
