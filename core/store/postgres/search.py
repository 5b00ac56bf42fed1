"""Finding candidate memories under the time and access rules: words (the tsvector, ranked by
ts_rank_cd with the word index's column weights), fragments (memvault's trigram table), substrings
(LIKE), and the graph, feedback and statistics a search reads. Scores are "lower is better", as the
SQLCipher engine's bm25: a rank is given negated."""

from __future__ import annotations

import json
from collections.abc import Sequence

from memvault.core.store.postgres.connection import Connection
from memvault.core.store.postgres.memories import FROM_MEMORIES, MEMORY_COLUMNS, row_to_memory
from memvault.core.store.postgres.visibility import visible_clause
from memvault.core.store.postgres.words import any_term, folded, trigrams, tsquery_term
from memvault.core.store.rows import WORD_WEIGHTS, BestMatches, TermCount, WordTerm
from memvault.core.store.shared_sql import like_anywhere, search_conditions
from memvault.core.vocabulary.model import Caller, Memory
from memvault.core.vocabulary.search_request import SearchRequest

# ts_rank_cd's weights are given for D, C, B, A: entity names are C, tags B, the statement A.
RANK_WEIGHTS = "{0, %s, %s, %s}" % (WORD_WEIGHTS[2], WORD_WEIGHTS[1], WORD_WEIGHTS[0])  # noqa: UP031
FREQUENCY_CAP = 1000
# The index's best matches looked at for a local caller (`lexical_candidates`), as the SQLCipher engine's:
# first a quarter more than asked for (most matches pass the filters), then four times as many.
FIRST_LOOK = 1.25
OVERFETCH = 4
# Records read by id or rowid are few: each one's usage row is looked up by its key (LIMIT keeps the
# planner from turning the lookup into a join, which it may answer by hashing the whole usage table).
FROM_FEW = (
    "memories m LEFT JOIN LATERAL (SELECT retrieval_count, last_retrieved_at FROM memory_usage"
    " WHERE memory_id = m.id LIMIT 1) u ON TRUE"
)


def _conditions(caller: Caller, request: SearchRequest) -> tuple[list[str], list[object]]:
    return search_conditions(caller, request, "%s")


def _query(terms: Sequence[WordTerm]) -> str:
    return any_term(terms)


def _records(conn: Connection, sql: str, params: Sequence[object]) -> list[tuple[Memory, float]]:
    return [(row_to_memory(row), float(row["score"])) for row in conn.execute(sql, params).fetchall()]


def lexical_candidates(
    conn: Connection,
    caller: Caller,
    terms: Sequence[WordTerm],
    request: SearchRequest,
    limit: int,
    best: BestMatches | None = None,
) -> list[tuple[Memory, float]]:
    """Records matching any of the word-index terms, best first (lower is better). `best`: the
    index's ranking from elsewhere (rowid, score), used as given for the records that pass.

    With `best`, a local caller's records are read as the SQLCipher engine reads them: the best few
    more than `limit` are looked at first (most pass the filters), four times as many only when too
    few passed; of those, only as many rows as still wanted are read (`_best_kept`). Otherwise, or
    when even the larger look leaves too few, the tsvector ranks every match."""
    where, params = _conditions(caller, request)
    if best is not None and caller.is_local:
        kept: list[tuple[Memory, float]] = []
        looked = 0
        for size in (int(limit * FIRST_LOOK), limit * OVERFETCH):
            top = best(size)
            kept += _best_kept(conn, top[looked:], where, params, limit - len(kept))
            looked = len(top)
            if len(kept) >= limit or len(top) < size:
                return kept
    return _records(
        conn,
        f"SELECT {MEMORY_COLUMNS}, -ts_rank_cd(%s::real[], m.words, q) AS score"
        f" FROM {FROM_MEMORIES}, to_tsquery('simple', %s) AS q"
        f" WHERE m.words @@ q AND {' AND '.join(where)} ORDER BY score, m.rowid LIMIT %s",
        [RANK_WEIGHTS, _query(terms), *params, limit],
    )


def _best_kept(
    conn: Connection, ranked: Sequence[tuple[int, float]], where: list[str], params: list[object], limit: int
) -> list[tuple[Memory, float]]:
    """The first `limit` of the ranked rowids that pass the filters, as records, in the order of
    `ranked`: `limit` rows read at first (usually all it takes), then twice the rows still missing."""
    kept: list[tuple[Memory, float]] = []
    start, size = 0, limit
    while len(kept) < limit and start < len(ranked):
        chunk = ranked[start : start + size]
        start += len(chunk)
        rows = conn.execute(
            f"SELECT {MEMORY_COLUMNS}, m.rowid FROM {FROM_FEW} WHERE m.rowid = ANY(%s::bigint[])"
            f" AND {' AND '.join(where)}",
            [[rowid for rowid, _ in chunk], *params],
        ).fetchall()
        passed = {row["rowid"]: row for row in rows}
        found = [(passed[rowid], score) for rowid, score in chunk if rowid in passed]
        kept += [(row_to_memory(row), score) for row, score in found[: limit - len(kept)]]
        size = max(2 * (limit - len(kept)), limit // 4)
    return kept


def trigram_candidates(
    conn: Connection, caller: Caller, fragments: Sequence[str], request: SearchRequest, limit: int
) -> list[tuple[Memory, float]]:
    """Records holding any of the fragments (every trigram of one): partial words, CJK text. Score:
    minus the number of fragments held. The fragments held are counted in one pass over the wanted
    trigrams' index entries (grouped by record and fragment), not record by record."""
    wanted = [sorted(trigrams(fragment)) for fragment in fragments if len(folded(fragment)) >= 3]
    if not wanted:
        return []
    where, params = _conditions(caller, request)
    numbers = [n for n, grams in enumerate(wanted) for _ in grams]
    grams = [gram for each in wanted for gram in each]
    sizes = [len(each) for each in wanted for _ in each]
    return _records(
        conn,
        f"SELECT {MEMORY_COLUMNS}, m.rowid, -h.held AS score FROM {FROM_MEMORIES} JOIN ("
        " SELECT memory_rowid, count(*) AS held FROM ("
        " SELECT t.memory_rowid FROM unnest(%s::int[], %s::text[], %s::int[]) AS w(fragment, trigram, size)"
        " JOIN memory_trigrams t ON t.trigram = w.trigram"
        " GROUP BY t.memory_rowid, w.fragment HAVING count(*) = min(w.size)) whole GROUP BY memory_rowid"
        f") h ON h.memory_rowid = m.rowid WHERE {' AND '.join(where)} ORDER BY score, m.rowid LIMIT %s",
        [numbers, grams, sizes, *params, limit],
    )


def substring_candidates(
    conn: Connection, caller: Caller, fragments: Sequence[str], request: SearchRequest, limit: int
) -> list[Memory]:
    """Records whose statement contains one of the fragments: two-character CJK words."""
    if not fragments:
        return []
    where, params = _conditions(caller, request)
    any_of = " OR ".join("m.statement LIKE %s ESCAPE '\\'" for _ in fragments)
    rows = conn.execute(
        f"SELECT {MEMORY_COLUMNS} FROM {FROM_MEMORIES} WHERE ({any_of}) AND {' AND '.join(where)} LIMIT %s",
        [*(like_anywhere(fragment) for fragment in fragments), *params, limit],
    ).fetchall()
    return [row_to_memory(row) for row in rows]


def filtered(conn: Connection, caller: Caller, ids: Sequence[str], request: SearchRequest) -> dict[str, Memory]:
    """The records among `ids` that this search may return (access, time, status, filters)."""
    if not ids:
        return {}
    where, params = _conditions(caller, request)
    rows = conn.execute(
        f"SELECT {MEMORY_COLUMNS} FROM {FROM_FEW} WHERE m.id = ANY(%s) AND {' AND '.join(where)}",
        [list(ids), *params],
    ).fetchall()
    return {row["id"]: row_to_memory(row) for row in rows}


def by_ids(conn: Connection, caller: Caller, ids: Sequence[str]) -> dict[str, Memory]:
    """The visible records among `ids` (any status), looked up by primary key."""
    if not ids:
        return {}
    clause, params = visible_clause(caller)
    rows = conn.execute(
        f"SELECT {MEMORY_COLUMNS} FROM {FROM_FEW} WHERE m.id = ANY(%s) AND {clause}", [list(ids), *params]
    ).fetchall()
    return {row["id"]: row_to_memory(row) for row in rows}


def linked(conn: Connection, ids: Sequence[str], filled: frozenset[str]) -> list[tuple[str, str, str, float]]:
    """Typed links touching `ids`, both directions: (seed, neighbour, type, weight)."""
    if not ids or "links" not in filled:
        return []
    rows = conn.execute(
        "SELECT from_id AS seed, to_id AS other, type, weight FROM links WHERE from_id = ANY(%(ids)s)"
        " UNION ALL SELECT to_id, from_id, type, weight FROM links WHERE to_id = ANY(%(ids)s)",
        {"ids": list(ids)},
    ).fetchall()
    return [(str(r["seed"]), str(r["other"]), str(r["type"]), float(r["weight"])) for r in rows]


def in_graph(conn: Connection, ids: Sequence[str], filled: frozenset[str]) -> bool:
    """Whether any of `ids` has a typed link (either way) or an entity."""
    if not ids or not filled & {"links", "memory_entities"}:
        return False
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM links WHERE from_id = ANY(%(ids)s) OR to_id = ANY(%(ids)s))"
        " OR EXISTS (SELECT 1 FROM memory_entities WHERE memory_id = ANY(%(ids)s)) AS found",
        {"ids": list(ids)},
    ).fetchone()
    return bool(row and row["found"])


def shared_entities(conn: Connection, ids: Sequence[str], per_entity: int = 20) -> list[tuple[str, str, int]]:
    """Records sharing entities with `ids`: (seed, neighbour, how many entities shared); entities of
    over `per_entity` records say little and are skipped."""
    if not ids:
        return []
    rows = conn.execute(
        "SELECT a.memory_id AS seed, b.memory_id AS other, count(*) AS shared FROM memory_entities a"
        " JOIN memory_entities b ON b.entity_id = a.entity_id AND b.memory_id != a.memory_id"
        " WHERE a.memory_id = ANY(%s)"
        " AND (SELECT count(*) FROM memory_entities c WHERE c.entity_id = a.entity_id) <= %s"
        " GROUP BY a.memory_id, b.memory_id",
        (list(ids), per_entity),
    ).fetchall()
    return [(str(r["seed"]), str(r["other"]), int(r["shared"])) for r in rows]


def feedback_balance(conn: Connection, ids: Sequence[str], filled: frozenset[str]) -> dict[str, tuple[int, int]]:
    """(useful, not useful) counts of feedback on each record that has any."""
    if not ids or "feedback" not in filled:
        return {}
    rows = conn.execute(
        "SELECT memory_id, sum(useful) AS yes, sum(1 - useful) AS no FROM feedback"
        " WHERE memory_id = ANY(%s) GROUP BY memory_id",
        (list(ids),),
    ).fetchall()
    return {str(r["memory_id"]): (int(r["yes"]), int(r["no"])) for r in rows}


def document_frequencies(conn: Connection, terms: Sequence[WordTerm]) -> dict[str, TermCount]:
    """How many indexed records contain each term (a prefix term: any word starting with it)."""
    if not terms:
        return {}
    rows = conn.execute(  # one round trip for every term
        "SELECT q.term, (SELECT count(*) FROM memories WHERE words @@ to_tsquery('simple', q.query)) AS n"
        " FROM unnest(%s::text[], %s::text[]) AS q(term, query)",
        ([term for term, _ in terms], [tsquery_term(term, prefix) for term, prefix in terms]),
    ).fetchall()
    return {row["term"]: TermCount(int(row["n"])) for row in rows}


def visible_count(conn: Connection, caller: Caller) -> int:
    clause, params = visible_clause(caller)
    row = conn.execute(f"SELECT count(*) AS n FROM memories m WHERE {clause}", params).fetchone()
    return int(row["n"]) if row else 0


def visible_frequencies(conn: Connection, caller: Caller, terms: Sequence[WordTerm]) -> dict[str, TermCount]:
    """Document frequencies over what `caller` may see (any status), counted up to a cap: statistics
    over the whole store would let scores reveal words in records the caller cannot see."""
    clause, params = visible_clause(caller)
    result: dict[str, TermCount] = {}
    for term, prefix in terms:
        row = conn.execute(
            f"SELECT count(*) AS n FROM (SELECT 1 FROM memories m WHERE m.words @@ to_tsquery('simple', %s)"
            f" AND {clause} LIMIT %s) capped",
            [tsquery_term(term, prefix), *params, FREQUENCY_CAP],
        ).fetchone()
        result[term] = TermCount(int(row["n"]) if row else 0)
    return result


def indexed_count(conn: Connection) -> int:
    """About how many records the index holds (the highest rowid, close enough for idf)."""
    row = conn.execute("SELECT coalesce(max(rowid), 0) AS n FROM memories").fetchone()
    return int(row["n"]) if row else 0


def text_gone_since(conn: Connection, cursor: int) -> bool:
    """Whether, after the change feed's `cursor` (an event id), a record was purged or the store was
    restored from a backup: text a process keeps from before may be gone or belong to another record."""
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM events WHERE id > %s AND action IN ('purged', 'restored_from_backup')) AS found",
        (cursor,),
    ).fetchone()
    return bool(row and row["found"])


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
        "INSERT INTO retrieval_log (time, principal, ids, scores, latency_ms, shadow) VALUES (%s, %s, %s, %s, %s, %s)",
        (
            now,
            caller.principal,
            json.dumps(list(ids)),
            json.dumps([round(s, 4) for s in scores]),
            round(latency_ms, 3),
            int(shadow),
        ),
    )
