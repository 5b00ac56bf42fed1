"""The `Retriever` seam, and the first retriever: FTS5 relevance blended with importance and confidence.

The full retrieval brain (`governor.HybridRetriever`) sits behind the same seam and is
what `Vault` uses; this one stays as the plain-lexical reference (and for tests that want
a retriever with no model at all).
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any, Protocol

from memvault.core.context import Context
from memvault.core.model import Caller, Memory
from memvault.core.retrieval.packet import compile_packet
from memvault.core.retrieval.query import fts_query
from memvault.core.retrieval.request import SearchRequest
from memvault.core.store import memories
from memvault.core.store.search import lexical_candidates, log_retrieval

CANDIDATE_FACTOR = 4


class Retriever(Protocol):
    def search(self, ctx: Context, caller: Caller, request: SearchRequest) -> dict[str, Any]: ...

    def after_write(self, ctx: Context) -> int:
        """Called after every committed write (embed what is new); answers how many were embedded."""
        ...

    def reindex(self, ctx: Context) -> dict[str, Any]:
        """Embed every record that has no vector yet (written while embeddings were off)."""
        ...


def _rank(candidates: list[tuple[Memory, float]]) -> list[tuple[Memory, float]]:
    if not candidates:
        return []
    best = min(score for _, score in candidates)  # bm25: more negative is better
    ranked = [
        (record, 0.7 * (score / best if best else 0.0) + 0.15 * record.importance + 0.15 * record.confidence)
        for record, score in candidates
    ]
    ranked.sort(key=lambda pair: pair[1], reverse=True)
    return ranked


class LexicalRetriever:
    def after_write(self, ctx: Context) -> int:
        return 0

    def reindex(self, ctx: Context) -> dict[str, Any]:
        return {"embedded": 0, "missing": 0, "embeddings": "off"}

    def search(self, ctx: Context, caller: Caller, request: SearchRequest) -> dict[str, Any]:
        started = time.perf_counter()
        match = fts_query(request.query)
        if match is None:
            return _skipped(request, "nothing in the request to look up in personal memory", started)
        with ctx.reading() as conn:
            candidates = lexical_candidates(conn, caller, match, request, request.limit * CANDIDATE_FACTOR)
        ranked = _rank(candidates)
        scores = {record.id: score for record, score in ranked}
        max_tokens = request.max_tokens or int(ctx.setting("packet_max_tokens"))
        packet = compile_packet([r for r, _ in ranked], request.limit, max_tokens)
        latency_ms = (time.perf_counter() - started) * 1000
        with ctx.transaction() as conn:
            now = ctx.now()
            ids = [r.id for r in packet.records]
            log_retrieval(conn, caller, ids, [scores[i] for i in ids], latency_ms, now, shadow=request.shadow)
            if not request.shadow:
                memories.record_usage(conn, ids, now)
        if request.shadow:
            return {"shadow": True, "retrieved": len(ids), "latency_ms": round(latency_ms, 2)}
        domains = Counter(r.domain for r in packet.records)
        total = sum(domains.values()) or 1
        return {
            "query": request.query,
            "skipped": False,
            "reason": "",
            "domains": [{"name": name, "weight": round(n / total, 3)} for name, n in domains.most_common()],
            "results": [
                {**r.to_dict(), "score": round(scores[r.id], 4), "why": ["lexical"], "tier": "warm"}
                for r in packet.records
            ],
            "packet": packet.text,
            "budget": {
                "records": len(packet.records),
                "tokens": packet.tokens,
                "latency_ms": round(latency_ms, 2),
                "truncated": packet.truncated,
            },
        }


def _skipped(request: SearchRequest, reason: str, started: float) -> dict[str, Any]:
    latency_ms = round((time.perf_counter() - started) * 1000, 2)
    if request.shadow:
        return {"shadow": True, "retrieved": 0, "latency_ms": latency_ms}
    return {
        "query": request.query,
        "skipped": True,
        "reason": reason,
        "domains": [],
        "results": [],
        "packet": "",
        "budget": {"records": 0, "tokens": 0, "latency_ms": latency_ms, "truncated": False},
    }
