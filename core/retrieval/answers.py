"""The shapes of `memory_search` answers: a full answer, a skipped one, a shadow one; and a
record shown as the store knew it at a moment (`known_at`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import cast

from memvault.core.retrieval.packet import Packet
from memvault.core.retrieval.ranking_cache import Ranking
from memvault.core.vocabulary.model import Memory, MemoryRecord, Status
from memvault.core.vocabulary.results import SearchAnswer, SearchHit, ShadowAnswer
from memvault.core.vocabulary.search_request import SearchRequest


def shadow_answer(retrieved: int, latency_ms: float) -> ShadowAnswer:
    return {"shadow": True, "retrieved": retrieved, "latency_ms": round(latency_ms, 2)}


def skipped_answer(request: SearchRequest, reason: str, latency_ms: float) -> SearchAnswer | ShadowAnswer:
    if request.shadow:
        return shadow_answer(0, latency_ms)
    return {
        "query": request.query,
        "skipped": True,
        "reason": reason,
        "domains": [],
        "results": [],
        "packet": "",
        "budget": {"records": 0, "tokens": 0, "latency_ms": round(latency_ms, 2), "truncated": False},
    }


def search_answer(request: SearchRequest, ranking: Ranking, packet: Packet, latency_ms: float) -> SearchAnswer:
    """The answer of a search that ran: the packet's records with their scores, reasons and tiers."""
    by_id = {h.id: h for h in ranking.hits}
    ids = [r.id for r in packet.records]
    return {
        "query": request.query,
        "skipped": False,
        "reason": _reason(bool(ids), ranking.held_back),
        "domains": [{"name": name, "weight": weight} for name, weight in ranking.domains],
        "results": [
            hit(r.to_dict(), by_id[r.id].score, list(by_id[r.id].why), by_id[r.id].tier) for r in packet.records
        ],
        "packet": packet.text,
        "budget": {
            "records": len(ids),
            "tokens": packet.tokens,
            "latency_ms": round(latency_ms, 2),
            "truncated": packet.truncated or ranking.truncated,
        },
    }


def _reason(found: bool, held_back: int) -> str:
    """Why the answer holds what it holds, when that needs saying: nothing relevant enough, or hits
    held back because the request seems to be about the wrong person (`ranking.hold_back`)."""
    if held_back:
        hits = "hit" if held_back == 1 else "hits"
        return (
            f"{held_back} {hits} held back: the request names a speaker, but its other words match what "
            "someone else said better than anything that person said; their turns, and hits scored far "
            "below the best, are left out"
        )
    return "" if found else "nothing in personal memory is relevant enough"


def as_known_at(record: Memory, moment: str, successors: Mapping[str, Memory]) -> Memory:
    """The record as the store held it at `moment`: a supersession learned later is not shown.

    A correction learned after the moment had not happened yet: the record was current, had no
    successor, and the end the correction gave it (its successor's start) was unknown.
    """
    successor = successors.get(record.superseded_by_id or "")
    if record.status is not Status.SUPERSEDED or successor is None or (successor.learned_at or "") <= moment:
        return record
    ended_by_correction = record.valid_until is not None and record.valid_until == successor.valid_from
    return replace(
        record,
        status=Status.CURRENT,
        superseded_by_id=None,
        valid_until=None if ended_by_correction else record.valid_until,
    )


def hit(record: MemoryRecord, score: float, why: list[str], tier: str) -> SearchHit:
    """A search hit: the record plus its score, the signals that found it, and its tier."""
    return cast(SearchHit, {**record, "score": round(score, 4), "why": why, "tier": tier})
