"""Load the evaluation set into a real encrypted store and measure a retriever on it.

Metrics (over the set's queries):
- recall@5, recall@10: share of a query's relevant records among the first 5 / 10 results,
  averaged over queries that have relevant records;
- MRR: mean of 1 / rank of the first relevant result (0 when none is returned);
- irrelevant-hit rate: share of unanswerable and skip queries that returned any result;
- skip accuracy: share of `skip` queries the governor skipped;
- temporal correctness: share of correction / as_of / history queries answered as the clock
  says (corrections: the new record found and the old one absent; as_of: the old one found);
- privacy leaks: results a remote caller got that it may not see (must be zero).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memvault.core.retrieval.query import query_terms
from memvault.core.store.sqlcipher import memories, search
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock, parse_time
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Caller, Surface
from memvault.core.vocabulary.requests import CorrectRequest
from memvault.core.vocabulary.search_request import SearchRequest, parse_search

DATA = Path(__file__).parent / "eval_set.json"
REMOTE = Caller("eval-remote", Surface.REMOTE)
ANSWERABLE_KINDS = frozenset(
    {
        "current",
        "keyword",
        "partial",
        "cjk",
        "correction",
        "as_of",
        "history",
        "history_rank",
        "contradiction",
        "cross",
        "project",
        "distractor",
        "terse",
        "long",
        "voice",
        "language",
        "names",
    }
)
TEMPORAL_KINDS = frozenset({"correction", "as_of", "history"})


def load_set() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def build_store(vault: Vault, clock: FixedClock, data: dict[str, Any]) -> dict[str, str]:
    """Write every memory as the person would (add / correct), oldest first; answers key -> id."""
    now = parse_time(data["now"], "now")
    ids: dict[str, str] = {}
    for item in sorted(data["memories"], key=lambda m: (-m["age"], m["key"])):
        clock.set(now - timedelta(days=item["age"]))
        if "corrects" in item:
            args: dict[str, Any] = {"id": ids[item["corrects"]], "statement": item["statement"]}
            if item.get("valid_from"):
                args["valid_from"] = item["valid_from"]
            result = vault.correct(OWNER, CorrectRequest.of(**args))
        else:
            result = vault.add(
                OWNER,
                Draft.of(
                    statement=item["statement"],
                    domain=item["domain"],
                    type=item["type"],
                    importance=item.get("importance", 0.5),
                    confidence=item.get("confidence", 0.8),
                    access_scope=item.get("scope", "local_only"),
                    entities=item.get("entities", []),
                    **({"valid_from": item["valid_from"]} if item.get("valid_from") else {}),
                ),
            )
        assert result["outcome"] in ("added", "superseded"), (item["key"], result)
        ids[item["key"]] = result["id"]
    clock.set(now)
    with vault.ctx.transaction() as conn:
        stamp = vault.ctx.now()
        for item in data["memories"]:
            for link_type, target in item.get("links", []):
                memories.add_link(conn.raw, ids[item["key"]], ids[target], link_type, stamp)
            if item.get("disputed"):
                memories.update(conn.raw, ids[item["key"]], stamp, status="disputed")
                for _, target in item.get("links", []):
                    memories.update(conn.raw, ids[target], stamp, status="disputed")
    return ids


@dataclass
class Outcome:
    query: dict[str, Any]
    ids: list[str]
    skipped: bool
    scopes: list[str] = field(default_factory=list)


@dataclass
class Report:
    recall5: float
    recall10: float
    mrr: float
    irrelevant_hit_rate: float
    skip_accuracy: float
    temporal: float
    leaks: int
    misses: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in self.__dict__.items() if k != "misses"}


def caller_of(query: dict[str, Any]) -> Caller:
    return REMOTE if query.get("caller") == "remote" else OWNER


def search_args(query: dict[str, Any], limit: int = 10) -> dict[str, Any]:
    args: dict[str, Any] = {"query": query["query"], "limit": limit}
    for name in ("as_of", "include_history", "depth", "types", "domains"):
        if name in query:
            args[name] = query[name]
    return args


def run_vault(vault: Vault, data: dict[str, Any]) -> list[Outcome]:
    outcomes = []
    for query in data["queries"]:
        answer = vault.search(caller_of(query), SearchRequest.of(**search_args(query)))
        outcomes.append(
            Outcome(
                query,
                [r["id"] for r in answer["results"]],
                answer["skipped"],
                [r["access_scope"] for r in answer["results"]],
            )
        )
    return outcomes


def run_bm25(vault: Vault, data: dict[str, Any]) -> list[Outcome]:
    """The baseline: plain FTS5 bm25 over the word index (terms ORed), same access and time filters."""
    outcomes = []
    with vault.ctx.reading() as conn:
        for query in data["queries"]:
            words = query_terms(query["query"])
            request = parse_search(search_args(query))
            ids = search.plain_bm25(conn.raw, caller_of(query), words, request, 10) if words else []
            scopes = [r.access_scope.value for r in memories.fetch_many(conn.raw, OWNER, ids).values()]
            outcomes.append(Outcome(query, ids, False, scopes))
    return outcomes


def _temporal_ok(outcome: Outcome, ids: dict[str, str]) -> bool:
    relevant = [ids[k] for k in outcome.query["relevant"]]
    forbidden = [ids[k] for k in outcome.query.get("forbidden", [])]
    return all(r in outcome.ids for r in relevant) and not any(f in outcome.ids for f in forbidden)


def score(outcomes: list[Outcome], ids: dict[str, str]) -> Report:
    recall5, recall10, rr, misses = [], [], [], []
    empty_total = empty_hits = skip_total = skip_ok = temporal_total = temporal_ok = leaks = 0
    for outcome in outcomes:
        query = outcome.query
        relevant = {ids[k] for k in query["relevant"]}
        forbidden = {ids[k] for k in query.get("forbidden", [])}
        if query.get("caller") == "remote":
            leaks += sum(1 for s in outcome.scopes if s == "local_only") + len(forbidden & set(outcome.ids))
        if relevant:
            recall5.append(len(relevant & set(outcome.ids[:5])) / len(relevant))
            recall10.append(len(relevant & set(outcome.ids[:10])) / len(relevant))
            first = next((i for i, memory_id in enumerate(outcome.ids) if memory_id in relevant), None)
            rr.append(0.0 if first is None else 1.0 / (first + 1))
            if first is None:
                misses.append(query["query"])
        elif query["kind"] in ("unanswerable", "skip"):
            empty_total += 1
            empty_hits += bool(outcome.ids)
        if query["kind"] == "skip":
            skip_total += 1
            skip_ok += outcome.skipped
        if query["kind"] in TEMPORAL_KINDS:
            temporal_total += 1
            temporal_ok += _temporal_ok(outcome, ids)

    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    return Report(
        recall5=mean(recall5),
        recall10=mean(recall10),
        mrr=mean(rr),
        irrelevant_hit_rate=empty_hits / empty_total if empty_total else 0.0,
        skip_accuracy=skip_ok / skip_total if skip_total else 1.0,
        temporal=temporal_ok / temporal_total if temporal_total else 1.0,
        leaks=leaks,
        misses=misses,
    )


def open_eval_vault(home: Path, build: bool, data: dict[str, Any]) -> tuple[Vault, FixedClock, dict[str, str]]:
    clock = FixedClock(datetime(2026, 3, 1, 9, 30, tzinfo=UTC))
    vault = Vault.open(home, create=build, clock=clock, scrypt_n=2**12 if build else None)
    # Quality, not speed: a loaded machine must not cut searches short at the default deadline.
    vault.set_setting(OWNER, "search_deadline_ms", 1e4)
    ids: dict[str, str] = {}
    if build:
        ids = build_store(vault, clock, data)
        (home / "eval_ids.json").write_text(json.dumps(ids))
    else:
        ids = json.loads((home / "eval_ids.json").read_text())
    return vault, clock, ids


Runner = Callable[[Vault, dict[str, Any]], list[Outcome]]
