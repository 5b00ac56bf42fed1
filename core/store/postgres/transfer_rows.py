"""The store's logical tables as rows (`TransferRows`): the SQLCipher engine's `transfer_rows.py` for
PostgreSQL.

Ids and row numbers are written as given (`OVERRIDING SYSTEM VALUE`), then each identity continues
after the largest. A conversation's words become its tsvector again (title A, body B) and are read
back from it, body lexemes in the order of their positions. PostgreSQL checks a reference at once, so
a superseded record is written without its newer version's id, which `finish` puts back once every
record is in.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from memvault.core.store.postgres import memories
from memvault.core.store.postgres.connection import Connection
from memvault.core.store.postgres.conversation_rows import CONVERSATION_WORDS
from memvault.core.store.postgres.words import folded
from memvault.core.store.transfer_tables import WORDS
from memvault.core.store.transfer_tables import table as logical

# The identity columns, which continue after the largest id written.
_IDENTITIES = (
    ("memories", "rowid"),
    ("conversations", "rowid"),
    ("memory_vectors", "rowid"),
    ("project_states", "id"),
    ("events", "id"),
    ("feedback", "id"),
    ("retrieval_log", "id"),
)
_BODY_WORDS = (
    "(SELECT coalesce(string_agg(u.lexeme, ' ' ORDER BY p.pos), '') FROM unnest(words) u,"
    " unnest(u.positions, u.weights) AS p(pos, weight) WHERE p.weight = 'B') AS words"
)
_LATER = "transfer_superseded_by"  # a temporary table: (id, superseded_by_id), dropped at the commit


def count(conn: Connection, table: str) -> int:
    row = conn.execute(f"SELECT count(*) AS n FROM {logical(table).name}").fetchone()
    return int(row["n"]) if row else 0


def batches(conn: Connection, table: str, size: int) -> Iterator[list[tuple[Any, ...]]]:
    spec = logical(table)
    selected = ", ".join(_BODY_WORDS if column == WORDS else column for column in spec.columns)
    with conn.cursor(name=f"transfer_{spec.name}") as cursor:  # server-side: one batch in memory at a time
        cursor.execute(f"SELECT {selected} FROM {spec.name} ORDER BY {', '.join(spec.order)}")
        while rows := cursor.fetchmany(size):
            yield [tuple(row[column] for column in spec.columns) for row in rows]


def put(conn: Connection, table: str, rows: Sequence[tuple[Any, ...]]) -> None:
    spec = logical(table)
    values = [dict(zip(spec.columns, row, strict=True)) for row in rows]
    columns = [column for column in spec.columns if column != WORDS]
    marks = [f"%({column})s" for column in columns]
    if WORDS in spec.columns:
        columns.append(WORDS)
        marks.append(CONVERSATION_WORDS)
        for row in values:
            row.update(title_words=folded(row["title"] or ""), body=folded(row[WORDS] or ""))
    if spec.name == "memories":
        conn.execute(f"CREATE TEMPORARY TABLE IF NOT EXISTS {_LATER} (id TEXT, newer TEXT) ON COMMIT DROP")
        with conn.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {_LATER} (id, newer) VALUES (%s, %s)",
                [(row["id"], row["superseded_by_id"]) for row in values if row["superseded_by_id"]],
            )
        values = [{**row, "superseded_by_id": None} for row in values]
    with conn.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {spec.name} ({', '.join(columns)}) OVERRIDING SYSTEM VALUE VALUES ({', '.join(marks)})",
            values,
        )


def finish(conn: Connection) -> None:
    """The newer versions' ids, the records' words and trigrams, and each identity past its largest id."""
    row = conn.execute(f"SELECT to_regclass('pg_temp.{_LATER}') IS NOT NULL AS made").fetchone()
    if row and row["made"]:
        conn.execute(f"UPDATE memories m SET superseded_by_id = l.newer FROM {_LATER} l WHERE m.id = l.id")
        conn.execute(f"DROP TABLE {_LATER}")
    for record in conn.execute("SELECT id FROM memories ORDER BY rowid").fetchall():
        memories.index_text(conn, record["id"])
    for name, column in _IDENTITIES:
        conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{name}', '{column}'), coalesce(max({column}), 0) + 1, false)"
            f" FROM {name}"
        )
