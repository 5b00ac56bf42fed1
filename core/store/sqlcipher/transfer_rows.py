"""The store's logical tables as rows (`TransferRows`), for moving a store to or from another engine.

A record's rowid (what memory_fts and memory_trigram key on) is kept. A conversation's body lives only
in the contentless `conversation_fts`: its words are read back through an fts5vocab table in order
of their offsets, and written into the index again. References are checked at the commit
(`defer_foreign_keys`): a superseded record names its newer version, written after it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from memvault.core.store.sqlcipher import memories
from memvault.core.store.sqlcipher.connection import Connection
from memvault.core.store.transfer_tables import WORDS, Table
from memvault.core.store.transfer_tables import table as logical

_VOCAB = "temp.conversation_words"


def _stored(spec: Table) -> tuple[str, ...]:
    return tuple(column for column in spec.columns if column != WORDS)


def count(conn: Connection, table: str) -> int:
    return int(conn.execute(f"SELECT count(*) FROM {logical(table).name}").fetchone()[0])


def _body_words(conn: Connection) -> dict[int, str]:
    """Each conversation's indexed body words, in order, by rowid."""
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {_VOCAB} USING fts5vocab(main, 'conversation_fts', 'instance')")
    words: dict[int, list[str]] = {}
    for doc, term in conn.execute(f"SELECT doc, term FROM {_VOCAB} WHERE col = 'body' ORDER BY doc, offset"):
        words.setdefault(int(doc), []).append(str(term))
    return {doc: " ".join(terms) for doc, terms in words.items()}


def batches(conn: Connection, table: str, size: int) -> Iterator[list[tuple[Any, ...]]]:
    spec = logical(table)
    words = _body_words(conn) if WORDS in spec.columns else {}
    cursor = conn.cursor()
    cursor.row_factory = None
    cursor.execute(f"SELECT {', '.join(_stored(spec))} FROM {spec.name} ORDER BY {', '.join(spec.order)}")
    while rows := cursor.fetchmany(size):
        if WORDS in spec.columns:  # the rowid comes first
            yield [(*row, words.get(int(row[0]), "")) for row in rows]
        else:
            yield [tuple(row) for row in rows]


def put(conn: Connection, table: str, rows: Sequence[tuple[Any, ...]]) -> None:
    spec = logical(table)
    conn.execute("PRAGMA defer_foreign_keys = ON")  # until this transaction commits
    columns = _stored(spec)
    conn.executemany(
        f"INSERT INTO {spec.name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
        [row[: len(columns)] for row in rows],
    )
    if WORDS in spec.columns:
        at = spec.columns.index
        conn.executemany(
            "INSERT INTO conversation_fts (rowid, title, body) VALUES (?, ?, ?)",
            [(row[at("rowid")], row[at("title")], row[at(WORDS)]) for row in rows],
        )


def finish(conn: Connection) -> None:
    """The records' word and trigram indexes, from their rows (statement, tags, entity names)."""
    for (memory_id,) in conn.execute("SELECT id FROM memories ORDER BY rowid").fetchall():
        memories.index_text(conn, memory_id)
