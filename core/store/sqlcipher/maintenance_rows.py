"""SQL for backups, restore checks and purge.

Backups are made with SQLCipher's `sqlcipher_export` into a database attached
without a KEY clause, which SQLCipher opens with the main database's key: the
copy is encrypted from its first page, and the key never leaves the connection.

The purge statements take a schema name ("main" for the store, an attached
backup's alias otherwise); the alias is always one of ours, never input.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memvault.core.store.sqlcipher.connection import Connection, DatabaseError, OperationalError, is_encrypted_file
from memvault.core.store.transfer_tables import REVOCATIONS
from memvault.core.vocabulary.errors import StoreUnavailable

ALIAS = "bk"
_SCHEMA = re.compile(r"^(main|bk)$")
# Tables every memvault store has since schema 1: a file without them is not ours.
REQUIRED_TABLES = frozenset(
    {"memories", "events", "proposals", "tombstones", "backups", "settings", "schema_version", "memory_fts"}
)


def is_busy(exc: BaseException) -> bool:
    """Whether a database error means "another connection holds a lock" (try later), not "damaged"."""
    return isinstance(exc, OperationalError) and any(word in str(exc).lower() for word in ("locked", "busy"))


def _schema(name: str) -> str:
    if not _SCHEMA.match(name):
        raise ValueError(f"not a schema of ours: {name}")
    return name


# -- attaching and exporting -------------------------------------------------------------------
def attach(conn: Connection, path: Path, alias: str = ALIAS) -> None:
    """Attach `path` with the main database's key (no KEY clause: SQLCipher reuses it)."""
    conn.execute(f"ATTACH DATABASE ? AS {_schema(alias)}", (str(path),))


def detach(conn: Connection, alias: str = ALIAS) -> None:
    conn.execute(f"DETACH DATABASE {_schema(alias)}")


@contextmanager
def attached(conn: Connection, path: Path) -> Iterator[str | None]:
    """Attach the copy of the store at `path` for the block; yields the schema the other functions
    here reach it by, or None when it does not open with the key (a damaged or foreign file)."""
    try:
        attach(conn, path, ALIAS)
    except DatabaseError as exc:  # SQLCipher reads the schema on ATTACH: a damaged or foreign file fails here
        if is_busy(exc):  # busy or locked: not a verdict on the file
            raise
        yield None
        return
    try:
        yield ALIAS if attached_readable(conn, ALIAS) else None
    finally:
        detach(conn, ALIAS)


def export_into(conn: Connection, target: Path) -> None:
    """Copy the whole store into the empty file `target`, encrypted with the same key.

    The export runs inside one read transaction, so it is a consistent snapshot
    even while other processes write (WAL readers never block writers). A copy that came out
    unencrypted, whatever happened, raises `StoreUnavailable` (the caller deletes it).
    """
    attach(conn, target)
    try:
        conn.execute("BEGIN")
        try:
            conn.execute(f"SELECT sqlcipher_export('{ALIAS}')").fetchall()
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    finally:
        detach(conn)
    if not is_encrypted_file(target):
        raise StoreUnavailable("the backup came out unencrypted; it was deleted")


def attached_readable(conn: Connection, alias: str = ALIAS) -> bool:
    try:
        conn.execute(f"SELECT count(*) FROM {_schema(alias)}.sqlite_master").fetchone()
    except DatabaseError:
        return False
    return True


# -- checks ------------------------------------------------------------------------------------
def integrity(conn: Connection, schema: str = "main") -> list[str]:
    """Problems PRAGMA integrity_check finds (empty when the file is sound)."""
    rows = conn.execute(f"PRAGMA {_schema(schema)}.integrity_check").fetchall()
    found = [str(row[0]) for row in rows]
    return [] if found == ["ok"] else found


def is_store(conn: Connection, schema: str = "main") -> bool:
    """Whether the copy holds the tables every memvault store has (a file without them is not ours)."""
    return table_names(conn, schema) >= REQUIRED_TABLES


def table_names(conn: Connection, schema: str = "main") -> set[str]:
    rows = conn.execute(f"SELECT name FROM {_schema(schema)}.sqlite_master WHERE type = 'table'").fetchall()
    return {str(row[0]) for row in rows}


def schema_version(conn: Connection, schema: str = "main") -> int | None:
    """The store's schema version without creating anything; None when it has no version table."""
    if "schema_version" not in table_names(conn, schema):
        return None
    row = conn.execute(f"SELECT max(version) FROM {_schema(schema)}.schema_version").fetchone()
    return int(row[0] or 0)


def table_rows(conn: Connection, table: str, schema: str = "main") -> list[tuple[Any, ...]]:
    if table not in table_names(conn, schema):
        raise ValueError(f"no table {table}")
    quoted = '"' + table.replace('"', '""') + '"'
    rows = conn.execute(f"SELECT * FROM {_schema(schema)}.{quoted}").fetchall()
    return sorted((tuple(row) for row in rows), key=repr)


# -- purge requests ----------------------------------------------------------------------------
def batch_exists(conn: Connection, batch_id: str) -> bool:
    return conn.execute("SELECT 1 FROM import_batches WHERE id = ?", (batch_id,)).fetchone() is not None


def batch_members(conn: Connection, batch_id: str, schema: str = "main") -> list[str]:
    rows = conn.execute(
        f"SELECT id FROM {_schema(schema)}.memories WHERE import_batch_id = ? ORDER BY id", (batch_id,)
    ).fetchall()
    return [str(row[0]) for row in rows]


def chain_neighbours(conn: Connection, memory_id: str, schema: str = "main") -> list[str]:
    """The records directly before and after `memory_id` in its supersession chain."""
    row = conn.execute(
        f"SELECT supersedes_id, superseded_by_id FROM {_schema(schema)}.memories WHERE id = ?", (memory_id,)
    ).fetchone()
    found = [str(value) for value in (row or ()) if value]
    found += [
        str(r[0])
        for r in conn.execute(
            f"SELECT id FROM {_schema(schema)}.memories WHERE supersedes_id = ? OR superseded_by_id = ?",
            (memory_id, memory_id),
        )
    ]
    return found


def purge_requests(conn: Connection, status: str | None = "pending") -> list[dict[str, Any]]:
    sql = "SELECT id, status, target_id, payload, principal, surface, reason, created_at, decided_at FROM proposals"
    sql += " WHERE kind = 'purge'"
    params: list[object] = []
    if status:
        sql += " AND status = ?"
        params.append(status)
    rows = conn.execute(sql + " ORDER BY created_at, id", params).fetchall()
    return [{**dict(row), "payload": json.loads(row["payload"])} for row in rows]


def close_purge_request(conn: Connection, request_id: str, now: str, category: str, payload: dict[str, Any]) -> None:
    """Mark a purge request done, keeping only ids and the reason's category (no free text)."""
    conn.execute(
        "UPDATE proposals SET status = 'approved', decided_at = ?, reason = ?, payload = ? WHERE id = ?",
        (now, category, json.dumps(payload), request_id),
    )


# -- purging one schema ------------------------------------------------------------------------
def statements_of(conn: Connection, ids: Sequence[str], schema: str = "main") -> dict[str, str]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        f"SELECT id, statement FROM {_schema(schema)}.memories WHERE id IN ({marks})", list(ids)
    ).fetchall()
    return {str(row[0]): str(row[1]) for row in rows}


def _delete_count(conn: Connection, sql: str, params: Sequence[object]) -> int:
    return int(conn.execute(sql, params).rowcount or 0)


def purge_records(
    conn: Connection, ids: Sequence[str], now: str, category: str, schema: str = "main"
) -> dict[str, int]:
    """Remove the records `ids` and everything that carries their content, in the caller's transaction.

    Leaves a content-free tombstone per id. Counts of removed rows come back by table.
    """
    s = _schema(schema)
    counts: dict[str, int] = {}
    for memory_id in ids:
        for table, n in _purge_one(conn, s, memory_id):
            counts[table] = counts.get(table, 0) + n
        conn.execute(
            f"INSERT OR IGNORE INTO {s}.tombstones (memory_id, purged_at, reason_category) VALUES (?, ?, ?)",
            (memory_id, now, category),
        )
    for chunk in _chunks(ids):
        marks = ",".join("?" * len(chunk))
        counts["retrieval_log"] = counts.get("retrieval_log", 0) + _delete_count(
            conn,
            f"DELETE FROM {s}.retrieval_log WHERE EXISTS"
            f" (SELECT 1 FROM json_each(retrieval_log.ids) j WHERE j.value IN ({marks}))",
            chunk,
        )
    counts["entities"] = _delete_count(
        conn, f"DELETE FROM {s}.entities WHERE id NOT IN (SELECT entity_id FROM {s}.memory_entities)", ()
    )
    counts["projects"] = _delete_count(
        conn,
        f"DELETE FROM {s}.projects WHERE id NOT IN (SELECT project_id FROM {s}.memories WHERE project_id IS NOT NULL)",
        (),
    )
    return {name: n for name, n in counts.items() if n}


_BY_MEMORY_ID = (
    "memory_vectors",
    "memory_entities",
    "memory_usage",
    "feedback",
    "decisions",
    "unresolved_items",
    "project_states",
)


def _purge_one(conn: Connection, s: str, memory_id: str) -> list[tuple[str, int]]:
    done = [
        (
            "proposals",
            _delete_count(
                conn,
                f"DELETE FROM {s}.proposals WHERE kind != 'purge' AND (target_id = ? OR result_id = ?)",
                [memory_id] * 2,
            ),
        )
    ]
    row = conn.execute(f"SELECT rowid, source_id FROM {s}.memories WHERE id = ?", (memory_id,)).fetchone()
    if row is None:
        return done
    rowid, source_id = int(row[0]), row[1]
    done.append(("memory_fts", _delete_count(conn, f"DELETE FROM {s}.memory_fts WHERE rowid = ?", (rowid,))))
    done.append(("memory_trigram", _delete_count(conn, f"DELETE FROM {s}.memory_trigram WHERE rowid = ?", (rowid,))))
    for table in _BY_MEMORY_ID:
        done.append((table, _delete_count(conn, f"DELETE FROM {s}.{table} WHERE memory_id = ?", (memory_id,))))
    done.append(
        ("links", _delete_count(conn, f"DELETE FROM {s}.links WHERE from_id = ? OR to_id = ?", [memory_id] * 2))
    )
    # neighbours lose their pointer to it: a change of their own rows, so their revisions grow
    for column in ("supersedes_id", "superseded_by_id"):
        conn.execute(
            f"UPDATE {s}.memories SET {column} = NULL, revision = revision + 1 WHERE {column} = ?", (memory_id,)
        )
    done.append(("memories", _delete_count(conn, f"DELETE FROM {s}.memories WHERE id = ?", (memory_id,))))
    if source_id:
        _drop_orphan_source(conn, s, str(source_id))
    return done


def _chunks(ids: Sequence[str], size: int = 500) -> list[list[str]]:
    return [list(ids[i : i + size]) for i in range(0, len(ids), size)]


def _drop_orphan_source(conn: Connection, s: str, source_id: str) -> None:
    conn.execute(
        f"DELETE FROM {s}.sources WHERE id = ? AND NOT EXISTS (SELECT 1 FROM {s}.memories WHERE source_id = ?)"
        f" AND NOT EXISTS (SELECT 1 FROM {s}.conversations WHERE source_id = ?)",
        (source_id, source_id, source_id),
    )


def purge_texts(conn: Connection, texts: Iterable[str], schema: str = "main") -> int:
    """Remove proposals (other than purge requests) whose payload carries one of `texts`."""
    s = _schema(schema)
    removed = 0
    for text in texts:
        escaped = json.dumps(text)[1:-1]  # as the text appears inside a JSON payload
        removed += _delete_count(
            conn, f"DELETE FROM {s}.proposals WHERE kind != 'purge' AND instr(payload, ?) > 0", (escaped,)
        )
    return removed


def purge_batch_rows(conn: Connection, batch_id: str, schema: str = "main") -> int:
    """Conversations (titles, snippets) an import batch brought in."""
    s = _schema(schema)
    return _delete_count(conn, f"DELETE FROM {s}.conversations WHERE import_batch_id = ?", (batch_id,))


def optimize_text_indexes(conn: Connection, schema: str = "main") -> None:
    """Merge the FTS segments so deleted entries leave the index's blobs, not only its lookups."""
    s = _schema(schema)
    conn.execute(f"INSERT INTO {s}.memory_fts (memory_fts) VALUES ('optimize')")
    conn.execute(f"INSERT INTO {s}.memory_trigram (memory_trigram) VALUES ('optimize')")


def secure_delete_on(conn: Connection, schema: str = "main") -> None:
    conn.execute(f"PRAGMA {_schema(schema)}.secure_delete = ON")


def checkpoint_truncate(conn: Connection) -> bool:
    """Copy the WAL into the store and truncate it to zero bytes; False if a reader kept it busy."""
    busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return not busy


def vacuum(conn: Connection, schema: str = "main") -> None:
    conn.execute(f"VACUUM {_schema(schema)}")


def tombstone_ids(conn: Connection) -> list[tuple[str, str, str]]:
    rows = conn.execute("SELECT memory_id, purged_at, reason_category FROM tombstones ORDER BY purged_at").fetchall()
    return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]


def existing_ids(conn: Connection, ids: Sequence[str], schema: str = "main") -> list[str]:
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = conn.execute(f"SELECT id FROM {_schema(schema)}.memories WHERE id IN ({marks})", list(ids)).fetchall()
    return [str(row[0]) for row in rows]


def journal_mode(conn: Connection, mode: str) -> str:
    if mode not in ("wal", "delete"):
        raise ValueError(mode)
    return str(conn.execute(f"PRAGMA journal_mode = {mode}").fetchone()[0])


def recipients(conn: Connection, ids: Sequence[str]) -> dict[str, int]:
    """Which principals search results listing these records went to, and how often."""
    found: dict[str, int] = {}
    for chunk in _chunks(ids):
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(
            "SELECT principal, count(*) FROM retrieval_log WHERE EXISTS"
            f" (SELECT 1 FROM json_each(retrieval_log.ids) j WHERE j.value IN ({marks})) GROUP BY principal",
            chunk,
        ):
            found[str(row[0])] = found.get(str(row[0]), 0) + int(row[1])
    return found


def principal_surfaces(conn: Connection) -> dict[str, str]:
    return {str(r[0]): str(r[1]) for r in conn.execute("SELECT name, surface FROM principals")}


def add_tombstones(conn: Connection, rows: Iterable[tuple[str, str, str]], schema: str = "main") -> None:
    conn.executemany(
        f"INSERT OR IGNORE INTO {_schema(schema)}.tombstones (memory_id, purged_at, reason_category) VALUES (?, ?, ?)",
        list(rows),
    )


def tombstoned_present(conn: Connection, schema: str = "main") -> list[tuple[str, str]]:
    """Records a copy still holds although its own tombstones say they were purged: (id, category)."""
    s = _schema(schema)
    rows = conn.execute(
        f"SELECT m.id, t.reason_category FROM {s}.memories m JOIN {s}.tombstones t ON t.memory_id = m.id ORDER BY m.id"
    ).fetchall()
    return [(str(r[0]), str(r[1])) for r in rows]


def clear_for_restore(conn: Connection) -> None:
    """Refused: a store file is restored by renaming a verified copy over it (`core/maintenance/restore.py`)."""
    raise StoreUnavailable("a store file is restored by replacing the file, not by emptying its tables")


def continue_events_after(conn: Connection, cursor: int) -> None:
    """Refused, as `clear_for_restore`: a restored store file keeps the backup's event ids."""
    raise StoreUnavailable("a store file is restored by replacing the file, not by emptying its tables")


def revocations(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every row a revocation (or a spent token) marks, by table: (key, *marks), as `REVOCATIONS` names them."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    for table, key, marks in REVOCATIONS:
        rows = conn.execute(
            f"SELECT {key}, {', '.join(marks)} FROM main.{table} WHERE {' OR '.join(f'{m} IS NOT NULL' for m in marks)}"
        ).fetchall()
        found[table] = [tuple(row) for row in rows]
    return found


def revoke_again(conn: Connection, revoked: dict[str, list[tuple[Any, ...]]]) -> None:
    """Set every mark `revocations` read again where the row is there and the mark is not (never unset one)."""
    for table, key, marks in REVOCATIONS:
        rows = [(*row[1:], row[0]) for row in revoked.get(table, [])]
        if rows:
            sets = ", ".join(f"{m} = COALESCE({m}, ?)" for m in marks)
            conn.executemany(f"UPDATE main.{table} SET {sets} WHERE {key} = ?", rows)
