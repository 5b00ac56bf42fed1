"""SQL for finding candidate memories: lexical matches under the time and access rules."""

from __future__ import annotations

import json
from collections.abc import Sequence

from memvault.core.model import Caller, Memory
from memvault.core.retrieval.request import SearchRequest
from memvault.core.store.connection import Connection
from memvault.core.store.memories import MEMORY_COLUMNS, USAGE_JOIN, row_to_memory
from memvault.core.store.visibility import visible_clause

LIVE = "m.status IN ('current', 'partial', 'disputed')"
WITH_HISTORY = "m.status IN ('current', 'partial', 'disputed', 'superseded', 'historical')"


def time_conditions(request: SearchRequest) -> tuple[list[str], list[object]]:
    """Which states and times a search may return. Archived records never.

    as_of (valid time): records true in the world at that moment, whatever their status now.
    known_at (knowledge time): records the store held as current at that moment.
    """
    where: list[str] = []
    params: list[object] = []
    if request.as_of:
        where += [
            WITH_HISTORY,
            "(m.valid_from IS NULL OR m.valid_from <= ?)",
            "(m.valid_until IS NULL OR m.valid_until > ?)",
        ]
        params += [request.as_of, request.as_of]
    if request.known_at:
        where += [WITH_HISTORY, "m.learned_at <= ?", "(m.superseded_at IS NULL OR m.superseded_at > ?)"]
        params += [request.known_at, request.known_at]
    if not where:
        where.append(WITH_HISTORY if request.include_history else LIVE)
    return where, params


def filter_conditions(request: SearchRequest) -> tuple[list[str], list[object]]:
    where: list[str] = []
    params: list[object] = []
    if request.domains:
        where.append(f"m.domain IN ({','.join('?' * len(request.domains))})")
        params += list(request.domains)
    if request.types:
        where.append(f"m.type IN ({','.join('?' * len(request.types))})")
        params += [t.value for t in request.types]
    return where, params


def lexical_candidates(
    conn: Connection, caller: Caller, match: str, request: SearchRequest, limit: int
) -> list[tuple[Memory, float]]:
    """Records matching an (already escaped) FTS5 query, with their bm25 (lower is better)."""
    clause, visible_params = visible_clause(caller)
    time_where, time_params = time_conditions(request)
    filter_where, filter_params = filter_conditions(request)
    where = " AND ".join(["memory_fts MATCH ?", clause, *time_where, *filter_where])
    rows = conn.execute(
        f"SELECT {MEMORY_COLUMNS}, bm25(memory_fts) AS bm25 FROM memory_fts"
        f" JOIN memories m ON m.rowid = memory_fts.rowid {USAGE_JOIN}"
        f" WHERE {where} ORDER BY bm25 LIMIT ?",
        [match, *visible_params, *time_params, *filter_params, limit],
    ).fetchall()
    result = []
    for row in rows:
        data = dict(row)
        score = float(data.pop("bm25"))
        result.append((row_to_memory(data), score))
    return result


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
