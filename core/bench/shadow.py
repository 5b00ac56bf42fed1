"""Shadow mode on the person's own store: what memvault would have retrieved, without handing anything over.

An assistant that calls memory_search with `shadow: true` gets only counts back; the ranking
runs and its ids, scores and latency are logged locally. This report reads that log for a
period (a day by default) and summarises it: no query or memory text exists to show, and
nothing leaves the machine.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

from memvault.core.bench.metrics import mean, percentile
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import format_time
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import Caller

TOP = 10


def shadow_report(vault: Vault, caller: Caller, hours: float = 24.0) -> dict[str, Any]:
    if not 0 < hours <= 24 * 366:
        raise InvalidArgument("hours: expected more than 0 and at most a year")
    since = format_time(vault.clock.now() - timedelta(hours=hours))
    rows = vault.shadow_log(caller, since)
    latencies = [r.latency_ms for r in rows]
    retrieved = Counter(memory_id for r in rows for memory_id in r.ids)
    scores: dict[str, list[float]] = {}
    for row in rows:
        for memory_id, value in zip(row.ids, row.scores, strict=False):
            scores.setdefault(memory_id, []).append(value)
    return {
        "since": since,
        "queries": len(rows),
        "empty": sum(1 for r in rows if not r.ids),
        "records_per_query": mean([float(len(r.ids)) for r in rows]),
        "distinct_records": len(retrieved),
        "latency_ms": {"mean": mean(latencies), "p50": percentile(latencies, 0.5), "p95": percentile(latencies, 0.95)},
        "by_principal": dict(Counter(r.principal for r in rows)),
        "top_records": [
            {"id": memory_id, "times": times, "mean_score": round(mean(scores[memory_id]) or 0.0, 4)}
            for memory_id, times in retrieved.most_common(TOP)
        ],
        "queries_detail": [
            {"time": r.time, "principal": r.principal, "ids": r.ids, "scores": r.scores, "latency_ms": r.latency_ms}
            for r in rows
        ],
    }
