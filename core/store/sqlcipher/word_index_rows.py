"""The word index's rows below SQL: its segments, merged a bounded step at a time, and what it holds.

Every write that touches the index adds a small segment; FTS5's automerge keeps their number at
about three per size level (18 at 10k records, 25 at 100k, written one by one or in bulk). A
search looks each of its terms up in every segment and merges what they hold, so one segment
answers the same query for less. Merging changes how the index is stored, not what it holds:
the same records match, with the same bm25.
"""

from __future__ import annotations

from collections.abc import Sequence

from memvault.core.store.sqlcipher.connection import Connection


def segment_count(conn: Connection) -> int:
    """How many segments the word index has (each has rows in the index's page directory)."""
    return int(conn.execute("SELECT count(DISTINCT segid) FROM memory_fts_idx").fetchone()[0])


def merge_step(conn: Connection, pages: int, *, first: bool) -> bool:
    """Merge segments until about `pages` pages are written; whether there was work to do.

    The first step of a pass puts every segment on one level and starts merging them all (FTS5's
    'merge' with a negative budget: even two segments are merged); the next ones carry on with
    that merge. FTS5 changes at least two rows when it merged anything (its documented test).
    """
    before = conn.total_changes
    conn.execute("INSERT INTO memory_fts (memory_fts, rank) VALUES ('merge', ?)", (-pages if first else pages,))
    return conn.total_changes - before >= 2


# -- what the index holds, for the in-memory postings (core/retrieval/word_postings.py) ----------

WORD_COLUMNS = ("statement", "tags", "entities")  # the word index's columns, in order
WORD_TOKENIZER = "unicode61 remove_diacritics 2"  # as migrations/0001_initial.sql made the index
_COLUMN_NUMBER = "CASE col " + " ".join(f"WHEN '{c}' THEN {i}" for i, c in enumerate(WORD_COLUMNS)) + " END"
_SCRATCH_COLUMNS = ", ".join(WORD_COLUMNS)


def averages(conn: Connection) -> tuple[int, int]:
    """(rows, tokens) as FTS5's bm25 counts them: its averages record. A delete from a contentless
    table lowers neither, so they are read, never counted."""
    row = conn.execute("SELECT block FROM memory_fts_data WHERE id = 1").fetchone()
    values = _varints(bytes(row[0])) if row is not None else []
    return (values[0], sum(values[1:])) if values else (0, 0)


def _varints(blob: bytes) -> list[int]:
    """SQLite's variable-length integers, one after the other (big-endian 7 bits a byte; a ninth
    byte holds 8)."""
    values, i = [], 0
    while i < len(blob):
        value = 0
        for n in range(9):
            byte = blob[i]
            i += 1
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        values.append(value)
    return values


def vocabulary(conn: Connection, kind: str, schema: str = "main", table: str = "memory_fts") -> str:
    """The name of a per-connection fts5vocab view of a word index (`kind`: row or instance), made
    when first asked for. It lives in temp: no schema change."""
    name = f"temp.{table}_{'vocab' if kind == 'row' else kind}"
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING fts5vocab({schema}, {table}, {kind})")
    return name


def postings(conn: Connection) -> tuple[list[tuple[str, int]], bytes]:
    """The store's word index, as `_postings` reads one."""
    return _postings(conn, "main", "memory_fts")


def _postings(conn: Connection, schema: str, table: str) -> tuple[list[tuple[str, int]], bytes]:
    """Every occurrence of every term in a word index: (each term with its number of occurrences, by
    term), and the occurrences in that order (by term, rowid, column, offset), 5 bytes each: the
    rowid (4, big-endian), the column's number in WORD_COLUMNS (1).

    Two scans, no sort: a row a term, and the occurrences as one hex string (a Python row an
    occurrence costs ~2 µs, 3.5 s at 100k records; sorting them in SQL ~1 s)."""
    cursor = conn.cursor()
    cursor.row_factory = None
    words = vocabulary(conn, "row", schema, table)
    terms: list[tuple[str, int]] = cursor.execute(f"SELECT term, cnt FROM {words}").fetchall()
    (hexed,) = cursor.execute(
        f"SELECT group_concat(printf('%08x%02x', doc, {_COLUMN_NUMBER}), '')"
        f" FROM {vocabulary(conn, 'instance', schema, table)}"
    ).fetchone()
    return terms, bytes.fromhex(hexed or "")


def indexed_sizes(conn: Connection, after: int) -> list[tuple[int, int]]:
    """(rowid, tokens) of the records the word index holds above rowid `after`."""
    rows = conn.execute("SELECT id, sz FROM memory_fts_docsize WHERE id > ? ORDER BY id", (after,)).fetchall()
    return [(int(r[0]), sum(_varints(bytes(r[1])))) for r in rows]


def last_indexed(conn: Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(id), 0) FROM memory_fts_docsize").fetchone()[0])


def tokenized(conn: Connection, texts: Sequence[tuple[int, str, str, str]]) -> tuple[list[tuple[str, int]], bytes]:
    """`postings` of texts (rowid, statement, tags, entity names) as the word index would hold them:
    they are indexed in a scratch table of this connection's (temp, in memory, no content kept)
    with the same tokenizer, read back, and removed."""
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.word_scratch USING fts5({_SCRATCH_COLUMNS}, content = '',"
        f" tokenize = '{WORD_TOKENIZER}')"
    )
    conn.executemany(f"INSERT INTO temp.word_scratch (rowid, {_SCRATCH_COLUMNS}) VALUES (?, ?, ?, ?)", list(texts))
    try:
        return _postings(conn, "temp", "word_scratch")
    finally:
        conn.execute("INSERT INTO temp.word_scratch (word_scratch) VALUES ('delete-all')")
