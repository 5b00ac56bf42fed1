"""The baselines memvault's search is measured against, computed on the same store in the same run.

- bm25: plain SQLite FTS5 bm25 over the word index (the request's words ORed), same filters;
- rrf: that bm25 list and a MiniLM dense list (exact cosine over the stored vectors) fused by
  reciprocal rank (k = 60), the usual "hybrid" a peer would build in an afternoon.
And the measures: recall@k and NDCG@k (binary relevance).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from memvault.core.retrieval.embeddings import shared_embedder
from memvault.core.retrieval.query import query_terms
from memvault.core.retrieval.vectors import VectorIndex
from memvault.core.store.sqlcipher import search as search_sql
from memvault.core.store.sqlcipher import vector_rows as vector_sql
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER, Caller
from memvault.core.vocabulary.search_request import SearchRequest

RRF_K = 60
RRF_DEPTH = 100


def bm25_ids(vault: Vault, request: SearchRequest, limit: int, caller: Caller = OWNER) -> list[str]:
    words = query_terms(request.query)
    if not words:
        return []
    with vault.ctx.reading() as conn:
        return search_sql.plain_bm25(conn.raw, caller, words, request, limit)


class DenseBaseline:
    """Exact MiniLM cosine over every stored vector of the store (filters applied afterwards)."""

    def __init__(self, vault: Vault) -> None:
        embedder = shared_embedder()
        self._vault = vault
        self._embedder = embedder
        self._index = VectorIndex(embedder.model_id, embedder.dimensions)
        with vault.ctx.reading() as conn:
            self._index.refresh(conn, vector_sql.store_version(conn.raw))

    def ids(self, request: SearchRequest, limit: int, caller: Caller = OWNER) -> list[str]:
        hits = self._index.search(self._embedder.embed_one(request.query), max(limit * 4, 200))
        with self._vault.ctx.reading() as conn:
            allowed = search_sql.filtered(conn.raw, caller, [i for i, _ in hits], request)
        return [i for i, _ in hits if i in allowed][:limit]


def rrf(lists: Sequence[Sequence[str]], limit: int, k: int = RRF_K) -> list[str]:
    scores: dict[str, float] = {}
    for ranked in lists:
        for rank, memory_id in enumerate(ranked):
            scores[memory_id] = scores.get(memory_id, 0.0) + 1.0 / (k + rank + 1)
    return sorted(scores, key=lambda i: (-scores[i], i))[:limit]


def rrf_ids(
    vault: Vault, dense: DenseBaseline, request: SearchRequest, limit: int, caller: Caller = OWNER
) -> list[str]:
    return rrf(
        [bm25_ids(vault, request, RRF_DEPTH, caller), dense.ids(request, RRF_DEPTH, caller)],
        limit,
    )


def recall_at(found: Sequence[str], relevant: set[str], k: int) -> float:
    return len(relevant & set(found[:k])) / len(relevant) if relevant else 0.0


def ndcg_at(found: Sequence[str], relevant: set[str], k: int) -> float:
    if not relevant:
        return 0.0
    gain = sum(1.0 / math.log2(i + 2) for i, memory_id in enumerate(found[:k]) if memory_id in relevant)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return gain / ideal
