"""The word index below SQL on PostgreSQL: what `memories.words` holds, read as the SQLCipher engine
reads its FTS5 index for the in-memory postings (core/retrieval/word_postings.py).

The tokens are PostgreSQL's parser's ('simple' configuration, on text folded as `words.folded`), not
FTS5's unicode61: mostly the same words, but e.g. a hyphenated word is held whole and as its parts,
and a decimal number or an e-mail address as one token. Every answer here counts those same tokens,
so the postings, the sizes and the averages agree with each other.
"""

from __future__ import annotations

from collections.abc import Sequence

from memvault.core.store.postgres.connection import Connection
from memvault.core.store.postgres.words import WORDS_OF, folded

WORD_COLUMNS = ("statement", "tags", "entities")  # the word index's columns, in order: weights A, B, C
_COLUMN_NUMBER = "CASE o.weight WHEN 'A' THEN 0 WHEN 'B' THEN 1 WHEN 'C' THEN 2 END"
# The tokens of a tsvector: one a position (a lexeme's positions carry one weight each).
_TOKENS = "(SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest({}) AS w)"
_INDEXED = "SELECT rowid, words FROM memories WHERE words IS NOT NULL"
# `WORDS_OF` on the columns of `_TEXTS`, so that texts are tokenized exactly as `memories.index_text` does.
_TEXTS_WORDS = WORDS_OF % ("t.statement", "t.tags", "t.names")
_TEXTS = (
    f"SELECT t.rowid, {_TEXTS_WORDS} AS words"
    " FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[]) AS t(rowid, statement, tags, names)"
)


def segment_count(conn: Connection) -> int:
    """0: a GIN index has no segments to count or merge (its pending list is flushed by VACUUM, or by
    `maintenance.optimize_text_indexes`), so the word index's upkeep pass has nothing to do."""
    return 0


def merge_step(conn: Connection, pages: int, *, first: bool) -> bool:
    """False, doing nothing: there are no FTS5 segments to merge on PostgreSQL (`segment_count`)."""
    return False


def averages(conn: Connection) -> tuple[int, int]:
    """(records indexed, tokens in them), counted from what the index holds now (the SQLCipher
    engine reads FTS5's running totals instead). Counting reads every record's words: a scan, where
    FTS5 reads one row."""
    row = conn.execute(
        f"SELECT count(*) AS n, coalesce(sum({_TOKENS.format('words')}), 0) AS tokens"
        " FROM memories WHERE words IS NOT NULL"
    ).fetchone()
    return (int(row["n"]), int(row["tokens"])) if row else (0, 0)


def postings(conn: Connection) -> tuple[list[tuple[str, int]], bytes]:
    """Every occurrence of every term in the word index: (each term with its number of occurrences,
    by term in code point order), and the occurrences in that order (by term, rowid, column), 5
    bytes each: the rowid (4, big-endian), the column's number in WORD_COLUMNS (1).

    An occurrence is a position in `memories.words`. A tsvector keeps at most 256 positions of a
    lexeme a record and none past 16383, so a text repeating a word more often, or longer than that,
    holds fewer occurrences than FTS5 would (consistently: sizes and averages count the same)."""
    return _postings(conn, _INDEXED, ())


def indexed_sizes(conn: Connection, after: int) -> list[tuple[int, int]]:
    """(rowid, tokens) of the records the word index holds above rowid `after`."""
    rows = conn.execute(
        f"SELECT rowid, {_TOKENS.format('words')} AS tokens FROM memories"
        " WHERE words IS NOT NULL AND rowid > %s ORDER BY rowid",
        (after,),
    ).fetchall()
    return [(int(r["rowid"]), int(r["tokens"])) for r in rows]


def last_indexed(conn: Connection) -> int:
    row = conn.execute("SELECT coalesce(max(rowid), 0) AS n FROM memories WHERE words IS NOT NULL").fetchone()
    return int(row["n"]) if row else 0


def tokenized(conn: Connection, texts: Sequence[tuple[int, str, str, str]]) -> tuple[list[tuple[str, int]], bytes]:
    """`postings` of texts (rowid, statement, tags, entity names) as the word index would hold them:
    folded and tokenized as `memories.index_text` does, in one query; nothing is written."""
    if not texts:
        return [], b""
    rowids = [rowid for rowid, _, _, _ in texts]
    statements = [folded(statement) for _, statement, _, _ in texts]
    tags = [folded(tags) for _, _, tags, _ in texts]
    names = [folded(names) for _, _, _, names in texts]
    return _postings(conn, _TEXTS, (rowids, statements, tags, names))


def _postings(conn: Connection, indexed: str, params: Sequence[object]) -> tuple[list[tuple[str, int]], bytes]:
    """`postings` of the (rowid, words) rows `indexed` selects: one row a term, its occurrences
    packed in SQL (int8send of rowid * 256 + column: its last 5 bytes)."""
    rows = conn.execute(
        f'WITH indexed AS ({indexed}), occurrences AS (SELECT w.lexeme COLLATE "C" AS term, i.rowid,'
        f" {_COLUMN_NUMBER} AS col FROM indexed i, unnest(i.words) AS w,"
        " unnest(w.positions, w.weights) AS o(position, weight))"
        " SELECT term, count(*) AS n, string_agg(substr(int8send(rowid * 256 + col), 4), ''::bytea ORDER BY rowid, col)"
        " AS packed FROM occurrences GROUP BY term ORDER BY term",
        params,
    ).fetchall()
    return [(str(r["term"]), int(r["n"])) for r in rows], b"".join(bytes(r["packed"]) for r in rows)
