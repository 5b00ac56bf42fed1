"""SQL for finding candidate memories: lexical matches under the time and access rules."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memvault.core.store.rows import WORD_WEIGHTS, BestMatches, TermCount, WordTerm
from memvault.core.store.shared_sql import like_anywhere, search_conditions
from memvault.core.store.sqlcipher.connection import Connection
from memvault.core.store.sqlcipher.match import any_term, any_word
from memvault.core.store.sqlcipher.memories import (
    FROM_MEMORIES,
    MEMORY_COLUMNS,
    USAGE_JOIN,
    plain_rows,
    records_by_id,
    row_to_memory,
)
from memvault.core.store.sqlcipher.visibility import visible_clause
from memvault.core.store.sqlcipher.word_index_rows import vocabulary
from memvault.core.vocabulary.model import Caller, Memory
from memvault.core.vocabulary.search_request import SearchRequest


def _conditions(caller: Caller, request: SearchRequest) -> tuple[list[str], list[object]]:
    return search_conditions(caller, request, "?")


def _with_score(rows: list[tuple[Any, ...]]) -> list[tuple[Memory, float]]:
    """Records from rows of MEMORY_COLUMNS and a score, the last column."""
    return [(row_to_memory(row), float(row[-1])) for row in rows]


FTS_TABLES = {
    "memory_fts": f"bm25(memory_fts, {', '.join(map(str, WORD_WEIGHTS))})",
    "memory_trigram": "bm25(memory_trigram)",
}
# The index's best matches looked at for a local caller: first a quarter more than asked for (most
# matches pass the filters), then, should the filters leave too few, four times as many.
FIRST_LOOK = 1.25
OVERFETCH = 4


def _ranked_matches(
    conn: Connection,
    table: str,
    caller: Caller,
    match: str,
    request: SearchRequest,
    limit: int,
    best: BestMatches | None = None,
) -> list[tuple[Memory, float]]:
    """Records matching an (already escaped) FTS5 query on `table`, best bm25 first (lower is better).

    The person's own callers (local: they see every record) take a fast path: the index ranks
    its matches alone, and only the best few are joined to their records and filtered. Joining
    every match first costs a record read per match (thousands for a common word in a large
    store). The index keeps only as many of its best as asked for while it ranks (~0.45 ms less
    at 10k for 75 than for 240), so it is asked for a few more than `limit` first and for more
    only when the filters (time, status, domains, types) leave too few; should they leave too
    few of the larger look too, or for callers who do not see everything (whose cost must not
    depend on what they cannot see), the full join. `best`: the index's ranking from elsewhere.
    """
    score = FTS_TABLES[table]
    where, params = _conditions(caller, request)
    if caller.is_local:
        kept: list[tuple[Memory, float]] = []
        looked = 0
        for size in (int(limit * FIRST_LOOK), limit * OVERFETCH):
            top = best(size) if best is not None else _best_matches(conn, table, score, match, size)
            kept += _best_kept(conn, top[looked:], where, params, limit - len(kept))
            looked = len(top)
            if len(kept) >= limit or len(top) < size:
                return kept
    rows = plain_rows(
        conn,
        f"SELECT {MEMORY_COLUMNS}, {score} AS bm25 FROM {table}"
        f" JOIN memories m ON m.rowid = {table}.rowid {USAGE_JOIN}"
        f" WHERE {table} MATCH ? AND {' AND '.join(where)} ORDER BY bm25 LIMIT ?",
        [match, *params, limit],
    )
    return _with_score(rows)


def _best_matches(conn: Connection, table: str, score: str, match: str, size: int) -> list[tuple[int, float]]:
    """The index's `size` best matches (rowid, bm25). Ties in bm25 are common (templated or short
    texts) and go by rowid: then a smaller look is the start of a larger one."""
    rows = conn.execute(
        f"SELECT rowid, {score} AS s FROM {table} WHERE {table} MATCH ? ORDER BY s, rowid LIMIT ?", (match, size)
    ).fetchall()
    return [(int(r[0]), float(r[1])) for r in rows]


def _best_kept(
    conn: Connection, ranked: list[tuple[int, float]], where: list[str], params: list[object], limit: int
) -> list[tuple[Memory, float]]:
    """The first `limit` of the ranked rowids that pass the filters, as records, in the order of `ranked`.

    Read best first, `limit` rows at first (most matches pass: that is usually all), then twice
    the rows still missing. By rowid: left to itself the planner scans the status index."""
    kept: list[tuple[Memory, float]] = []
    start, size = 0, limit
    while len(kept) < limit and start < len(ranked):
        chunk = ranked[start : start + size]
        start += len(chunk)
        rows = plain_rows(
            conn,
            f"SELECT {MEMORY_COLUMNS}, m.rowid FROM memories m NOT INDEXED {USAGE_JOIN}"
            f" WHERE m.rowid IN ({','.join('?' * len(chunk))}) AND {' AND '.join(where)}",
            [*(rowid for rowid, _ in chunk), *params],
        )
        passed = {row[-1]: row for row in rows}  # by rowid, the last column
        found = [(passed[rowid], score) for rowid, score in chunk if rowid in passed]
        kept += [(row_to_memory(row), score) for row, score in found[: limit - len(kept)]]
        size = max(2 * (limit - len(kept)), limit // 4)
    return kept


def lexical_candidates(
    conn: Connection,
    caller: Caller,
    terms: Sequence[WordTerm],
    request: SearchRequest,
    limit: int,
    best: BestMatches | None = None,
) -> list[tuple[Memory, float]]:
    """Records matching any of the word-index terms, with bm25 (lower is better).

    Column weights: `WORD_WEIGHTS`. `best`: the index's ranking of these terms, from elsewhere.
    """
    return _ranked_matches(conn, "memory_fts", caller, any_term(terms), request, limit, best)


def plain_bm25(conn: Connection, caller: Caller, words: Sequence[str], request: SearchRequest, limit: int) -> list[str]:
    """The baseline: ids by plain FTS5 bm25 over the word index, no column weights, same filters."""
    where, params = _conditions(caller, request)
    rows = conn.execute(
        f"SELECT m.id FROM memory_fts JOIN memories m ON m.rowid = memory_fts.rowid"
        f" WHERE memory_fts MATCH ? AND {' AND '.join(where)} ORDER BY bm25(memory_fts) LIMIT ?",
        [any_word(words), *params, limit],
    ).fetchall()
    return [str(row[0]) for row in rows]


def trigram_candidates(
    conn: Connection, caller: Caller, fragments: Sequence[str], request: SearchRequest, limit: int
) -> list[tuple[Memory, float]]:
    """Records holding any of the fragments in the trigram index: partial words, CJK text."""
    return _ranked_matches(conn, "memory_trigram", caller, any_word(fragments), request, limit)


def substring_candidates(
    conn: Connection, caller: Caller, fragments: Sequence[str], request: SearchRequest, limit: int
) -> list[Memory]:
    """Records whose statement contains one of the fragments: two-character CJK words."""
    if not fragments:
        return []
    patterns = [like_anywhere(fragment) for fragment in fragments]
    where, params = _conditions(caller, request)
    any_of = " OR ".join("m.statement LIKE ? ESCAPE '\\'" for _ in patterns)
    rows = plain_rows(
        conn,
        f"SELECT {MEMORY_COLUMNS} FROM {FROM_MEMORIES} WHERE ({any_of}) AND {' AND '.join(where)} LIMIT ?",
        [*patterns, *params, limit],
    )
    return [row_to_memory(row) for row in rows]


def filtered(conn: Connection, caller: Caller, ids: Sequence[str], request: SearchRequest) -> dict[str, Memory]:
    """The records among `ids` that this search may return (access, time, status, filters)."""
    found: dict[str, Memory] = {}
    where, params = _conditions(caller, request)
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        # By primary key: left to itself the planner scans the status index, which grows with the store.
        found |= records_by_id(
            conn,
            f"SELECT {MEMORY_COLUMNS} FROM memories m INDEXED BY sqlite_autoindex_memories_1 {USAGE_JOIN}"
            f" WHERE m.id IN ({','.join('?' * len(chunk))}) AND {' AND '.join(where)}",
            [*chunk, *params],
        )
    return found


def by_ids(conn: Connection, caller: Caller, ids: Sequence[str]) -> dict[str, Memory]:
    """The visible records among `ids` (any status), looked up by primary key."""
    clause, params = visible_clause(caller)
    found: dict[str, Memory] = {}
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        found |= records_by_id(
            conn,
            f"SELECT {MEMORY_COLUMNS} FROM memories m INDEXED BY sqlite_autoindex_memories_1 {USAGE_JOIN}"
            f" WHERE m.id IN ({','.join('?' * len(chunk))}) AND {clause}",
            [*chunk, *params],
        )
    return found


def linked(conn: Connection, ids: Sequence[str], filled: frozenset[str]) -> list[tuple[str, str, str, float]]:
    """Typed links touching `ids`, both directions: (seed, neighbour, type, weight). `filled`: the
    optional tables holding rows (`store_stamps`): with no links, nothing is looked up.

    Neighbours are ids only; callers pass them through `filtered` before using them.
    """
    if not ids or "links" not in filled:
        return []
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        f"SELECT from_id, to_id, type, weight FROM links WHERE from_id IN ({marks})"
        f" UNION ALL SELECT to_id, from_id, type, weight FROM links WHERE to_id IN ({marks})",
        [*ids, *ids],
    ).fetchall()
    return [(str(r[0]), str(r[1]), str(r[2]), float(r[3])) for r in rows]


def in_graph(conn: Connection, ids: Sequence[str], filled: frozenset[str]) -> bool:
    """Whether any of `ids` has a typed link (either way) or an entity: the graph stage starts from no other."""
    if not ids or not filled & {"links", "memory_entities"}:
        return False
    marks = ",".join("?" * len(ids))
    row = conn.execute(
        f"SELECT EXISTS (SELECT 1 FROM links WHERE from_id IN ({marks}))"
        f" OR EXISTS (SELECT 1 FROM links WHERE to_id IN ({marks}))"
        f" OR EXISTS (SELECT 1 FROM memory_entities WHERE memory_id IN ({marks}))",
        [*ids, *ids, *ids],
    ).fetchone()
    return bool(row[0])


def shared_entities(conn: Connection, ids: Sequence[str], per_entity: int = 20) -> list[tuple[str, str, int]]:
    """Records sharing entities with `ids`: (seed, neighbour, how many entities shared).

    Entities attached to very many records (over `per_entity`) say little and are skipped.
    """
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        f"SELECT a.memory_id, b.memory_id, count(*) FROM memory_entities a"
        f" JOIN memory_entities b ON b.entity_id = a.entity_id AND b.memory_id != a.memory_id"
        f" WHERE a.memory_id IN ({marks})"
        f" AND (SELECT count(*) FROM memory_entities c WHERE c.entity_id = a.entity_id) <= ?"
        f" GROUP BY a.memory_id, b.memory_id",
        [*ids, per_entity],
    ).fetchall()
    return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]


def feedback_balance(conn: Connection, ids: Sequence[str], filled: frozenset[str]) -> dict[str, tuple[int, int]]:
    """(useful, not useful) counts of feedback on each record that has any."""
    if not ids or "feedback" not in filled:
        return {}
    rows = conn.execute(
        f"SELECT memory_id, sum(useful), sum(1 - useful) FROM feedback"
        f" WHERE memory_id IN ({','.join('?' * len(ids))}) GROUP BY memory_id",
        list(ids),
    ).fetchall()
    return {str(r[0]): (int(r[1]), int(r[2])) for r in rows}


def document_frequencies(conn: Connection, terms: Sequence[WordTerm]) -> dict[str, TermCount]:
    """How many indexed records contain each term (one vocabulary lookup a term)."""
    vocab = vocabulary(conn, "row")
    result: dict[str, TermCount] = {}
    for term, prefix in terms:
        if prefix:
            docs, words, first = conn.execute(
                f"SELECT coalesce(sum(doc), 0), count(*), min(term) FROM {vocab} WHERE term >= ? AND term < ?",
                (term, term + "\U0010ffff"),
            ).fetchone()
            result[term] = TermCount(int(docs), str(first) if words == 1 else None)
        else:
            row = conn.execute(f"SELECT coalesce(sum(doc), 0) FROM {vocab} WHERE term = ?", (term,)).fetchone()
            result[term] = TermCount(int(row[0]))
    return result


FREQUENCY_CAP = 1000


def visible_count(conn: Connection, caller: Caller) -> int:
    clause, params = visible_clause(caller)
    return int(conn.execute(f"SELECT count(*) FROM memories m WHERE {clause}", params).fetchone()[0])


def visible_frequencies(conn: Connection, caller: Caller, terms: Sequence[WordTerm]) -> dict[str, TermCount]:
    """Document frequencies over what `caller` may see (any status).

    For callers who do not see everything: statistics over the whole store would let the
    scores of visible records reveal words in records the caller cannot see.
    """
    clause, params = visible_clause(caller)
    result: dict[str, TermCount] = {}
    for term, prefix in terms:
        # Counted up to a cap: past it a term is common for any store size, and idf barely moves.
        row = conn.execute(
            f"SELECT count(*) FROM (SELECT 1 FROM memory_fts JOIN memories m ON m.rowid = memory_fts.rowid"
            f" WHERE memory_fts MATCH ? AND {clause} LIMIT ?)",
            [any_term([(term, prefix)]), *params, FREQUENCY_CAP],
        ).fetchone()
        result[term] = TermCount(int(row[0]))
    return result


def indexed_count(conn: Connection) -> int:
    """About how many records the index holds (the highest rowid: O(1), close enough for idf)."""
    return int(conn.execute("SELECT coalesce(max(rowid), 0) FROM memories").fetchone()[0])


def text_gone_since(conn: Connection, cursor: int) -> bool:
    """Whether, after the change feed's `cursor` (an event id), a record was purged or the store was
    restored from a backup: text a process keeps from before may be gone or belong to another record."""
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM events WHERE id > ? AND action IN ('purged', 'restored_from_backup'))",
        (cursor,),
    )
    return bool(row.fetchone()[0])


def log_retrieval(
    conn: Connection,
    caller: Caller,
    ids: Sequence[str],
    scores: Sequence[float],
    latency_ms: float,
    now: str,
    *,
    shadow: bool = False,
) -> None:
    conn.execute(
        "INSERT INTO retrieval_log (time, principal, ids, scores, latency_ms, shadow) VALUES (?, ?, ?, ?, ?, ?)",
        (
            now,
            caller.principal,
            json.dumps(list(ids)),
            json.dumps([round(s, 4) for s in scores]),
            round(latency_ms, 3),
            int(shadow),
        ),
    )
