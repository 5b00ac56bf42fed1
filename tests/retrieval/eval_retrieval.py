"""Retrieval quality against plain BM25 and a BM25+MiniLM RRF baseline, in one run (a script, not a test).

    .venv/bin/python tests/retrieval/eval_retrieval.py [--mcp] [--convs conv-26,conv-42]
        [--tune conv-26,conv-30,conv-41] [--no-fictional] [--stores DIR] [--json FILE]

Prints recall@5, recall@10 and NDCG@10, overall and per category, for memvault's search
("ours"), plain FTS5 bm25 and the RRF baseline, on
- the fictional evaluation set (tests/retrieval/eval_set.json), per query kind;
- the LoCoMo dev split when present (MEMVAULT_LOCOMO, else ../shared/data/locomo-dev beside the
  repository; skipped cleanly when absent), per conversation group: the conversations named by
  --tune ("tune") and the others ("report"). Every turn is one memory, every question one
  search with limit 10, depth deep (see that folder's README). Adversarial questions (category 5,
  no answer exists) are left out of recall; for them the table gives the mean number of results
  ours returned ("confident hits": ours answers only what passes its relevance floor and holds
  back hits for a request that seems to name the wrong person, while the baselines always fill
  their ten), how often the turn LoCoMo labels (what the other person said) comes first / in the
  first five, and how many results per question the person the question names said. The last
  line counts, per category, the answers that held hits back (`reason` says so).

With --mcp, memvault's side goes through the real MCP server: `memvault mcp --embedded` spawned
and driven by the official MCP client (memory_add for every turn, memory_search for every
question), as a local assistant in automatic write mode; search latency p50/p95 is printed.
Without it, the same calls go through `Vault` in this process (faster, for iteration).
The baselines read the same store, in this process, after the ingest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("MEMVAULT_PASSPHRASE", "evaluation (public data)")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
os.environ.pop("MEMVAULT_WRITE_MODE", None)
os.environ.pop("MEMVAULT_EMBEDDINGS", None)
sys.path.insert(0, str(Path(__file__).parent))

import baselines as bl
import evalkit as ek
import locomo

from memvault.core.retrieval.query import request_names, speaker_of
from memvault.core.store.sqlcipher import memories
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.search_request import SearchRequest, parse_search

SYSTEMS = ("ours", "bm25", "rrf")
NOT_STORED: Counter[str] = Counter()  # turns memory_add answered duplicate or rejected (--mcp), by outcome
DEFAULT_TUNE = ("conv-26", "conv-30", "conv-41")
LIMIT = 10
# Quality is measured without the search deadline: on a loaded machine it would cut the semantic
# stage of some searches and make the figures depend on the load; latency is reported apart.
NO_DEADLINE_MS = 10_000.0


@dataclass
class Tally:
    """Per category: the measures of each answerable question, and the results of unanswerable ones."""

    scores: dict[str, list[tuple[float, float, float]]] = field(default_factory=lambda: defaultdict(list))
    empty_hits: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    # Unanswerable questions with labelled turns (LoCoMo's adversarial ones name the wrong person:
    # the turn labelled is what the other person said): is that turn first, in the first five?
    misleading: dict[str, list[tuple[bool, bool]]] = field(default_factory=lambda: defaultdict(list))
    # Unanswerable questions: how many results a person the question names said (LoCoMo: "Name: ...").
    said_by_named: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    # Every question (ours only): whether the answer held hits back (`reason` says so).
    held_back: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))

    def add(
        self,
        category: str,
        found: list[str],
        relevant: set[str],
        unanswerable: bool = False,
        named: set[str] | None = None,
        held: bool | None = None,
    ) -> None:
        if held is not None:
            self.held_back[category].append(held)
        if unanswerable:
            self.empty_hits[category].append(len(found))
            self.said_by_named[category].append(len(set(found) & (named or set())))
            if relevant:
                self.misleading[category].append((bool(relevant & set(found[:1])), bool(relevant & set(found[:5]))))
        elif relevant:
            measure = (
                bl.recall_at(found, relevant, 5),
                bl.recall_at(found, relevant, 10),
                bl.ndcg_at(found, relevant, 10),
            )
            self.scores[category].append(measure)

    def overall(self) -> tuple[float, float, float, int]:
        rows = [m for values in self.scores.values() for m in values]
        return _means(rows)


def _means(rows: list[tuple[float, float, float]]) -> tuple[float, float, float, int]:
    if not rows:
        return 0.0, 0.0, 0.0, 0
    n = len(rows)
    return sum(r[0] for r in rows) / n, sum(r[1] for r in rows) / n, sum(r[2] for r in rows) / n, n


# -- the fictional set -----------------------------------------------------------------------------


def fictional(stores: Path | None) -> dict[str, Tally]:
    data = ek.load_set()
    tallies = {name: Tally() for name in SYSTEMS}
    with _store("fictional", stores, lambda home: ek.open_eval_vault(home, True, data)[0].close()) as home:
        vault, _, ids = ek.open_eval_vault(home, False, data)
        try:
            vault.set_setting(OWNER, "search_deadline_ms", NO_DEADLINE_MS)
            dense = bl.DenseBaseline(vault)
            for query in data["queries"]:
                if query["kind"] in ("privacy", "skip"):
                    continue  # access and the governor are checked by tests, not by ranking figures
                caller = ek.caller_of(query)
                relevant = {ids[k] for k in query["relevant"]}
                request = parse_search(ek.search_args(query, LIMIT))
                vault.retriever.clear_caches()
                answer = vault.search(caller, SearchRequest.of(**ek.search_args(query, LIMIT)))
                unanswerable = query["kind"] == "unanswerable"
                tallies["ours"].add(query["kind"], [r["id"] for r in answer["results"]], relevant, unanswerable)
                tallies["bm25"].add(query["kind"], bl.bm25_ids(vault, request, LIMIT, caller), relevant, unanswerable)
                tallies["rrf"].add(
                    query["kind"], bl.rrf_ids(vault, dense, request, LIMIT, caller), relevant, unanswerable
                )
        finally:
            vault.close()
    return tallies


# -- LoCoMo ------------------------------------------------------------------------------------


@contextmanager
def _store(name: str, stores: Path | None, build: Callable[[Path], None]) -> Iterator[Path]:
    """A fresh copy of a built store (built once and kept in `stores` when given)."""
    with tempfile.TemporaryDirectory(prefix="memvault-eval-") as tmp:
        home = Path(tmp) / "store"
        kept = stores / name if stores else None
        if kept and kept.exists():
            shutil.copytree(kept, home)
        else:
            build(home)
            if kept:
                shutil.copytree(home, kept)
        yield home


def _ingest_in_process(home: Path, conversation: locomo.Conversation) -> None:
    """The same adds, their embeddings computed in batches afterwards (iteration only: --mcp measures the real path)."""
    vault = Vault.open(home, create=True, clock=SystemClock(), scrypt_n=2**12)
    try:
        vault.set_setting(OWNER, "embeddings", "off")
        for turn in conversation.turns:
            vault.add(OWNER, Draft.of(**locomo.add_args(turn)))
        vault.set_setting(OWNER, "embeddings", "local")
        vault.reindex(OWNER)
    finally:
        vault.close()


def _references(vault: Vault) -> dict[str, str]:
    """Record id -> dia_id."""
    with vault.ctx.reading() as conn:
        return {r.id: r.source_reference or "" for r in memories.select(conn.raw, OWNER)}


def _search_args(question: locomo.Question) -> dict[str, Any]:
    return {"query": question.text, "limit": LIMIT, "depth": "deep"}


Answered = tuple[list[str], bool]  # one question's dia_ids, and whether its answer held hits back


def _mcp_run(home: Path, conversation: locomo.Conversation, ingest: bool) -> tuple[list[Answered], list[float], float]:
    """Through `memvault mcp --embedded` and the official client: (answers per question, latencies, ms per add)."""
    return asyncio.run(_mcp_session(home, conversation, ingest))


async def _mcp_session(
    home: Path, conversation: locomo.Conversation, ingest: bool
) -> tuple[list[Answered], list[float], float]:
    from mcp import ClientSession, StdioServerParameters  # noqa: PLC0415 - only --mcp pays for the SDK
    from mcp.client.stdio import stdio_client  # noqa: PLC0415

    command = Path(sys.executable).with_name("memvault")
    env = {**os.environ, "MEMVAULT_HOME": str(home)}
    params = StdioServerParameters(command=str(command), args=["mcp", "--embedded"], env=env)
    add_ms = 0.0
    with open(os.devnull, "w") as err:
        async with stdio_client(params, errlog=err) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            if ingest:
                started = time.perf_counter()
                for turn in conversation.turns:
                    answer = _payload(await session.call_tool("memory_add", locomo.add_args(turn)))
                    outcome = answer.get("outcome")
                    if outcome not in ("added", "duplicate", "rejected"):
                        raise SystemExit(f"memory_add did not commit: {outcome}")
                    if outcome != "added":  # the product's own judgement: the turn is not stored
                        NOT_STORED[f"{outcome}: {answer.get('reason') or 'same as an earlier turn'}"] += 1
                add_ms = (time.perf_counter() - started) * 1000 / len(conversation.turns)
            found: list[Answered] = []
            latencies = []
            for question in conversation.questions:
                started = time.perf_counter()
                answer = _payload(await session.call_tool("memory_search", _search_args(question)))
                latencies.append((time.perf_counter() - started) * 1000)
                refs = [r.get("source_reference") or "" for r in answer.get("results", [])]
                found.append((refs, _held_back(answer)))
    return found, latencies, add_ms


def _held_back(answer: dict[str, Any]) -> bool:
    return "held back" in str(answer.get("reason") or "")


def _payload(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(result.content[0].text)
    return data


def _without_deadline(home: Path) -> None:
    vault = Vault.open(home, clock=SystemClock())
    try:
        vault.set_setting(OWNER, "search_deadline_ms", NO_DEADLINE_MS)
    finally:
        vault.close()


def _prepare_for_assistant(home: Path) -> None:
    """The person lets the local assistant's confident writes commit (automatic mode, any domain)."""
    vault = Vault.open(home, create=True, clock=SystemClock(), scrypt_n=2**12)
    try:
        vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
        vault.set_setting(OWNER, "search_deadline_ms", NO_DEADLINE_MS)
        vault.add(OWNER, Draft.of(statement="The conversation log is kept here", domain="general"))
    finally:
        vault.close()


def run_conversation(
    conversation: locomo.Conversation, use_mcp: bool, stores: Path | None, out: dict[str, Tally], timing: dict[str, Any]
) -> None:
    name = f"{conversation.sample_id}-{'mcp' if use_mcp else 'vault'}"
    ingested = False

    def build(home: Path) -> None:
        nonlocal ingested
        if use_mcp:
            _prepare_for_assistant(home)
            found, latencies, add_ms = _mcp_run(home, conversation, True)
            timing.setdefault("add_ms", []).append(add_ms)
            timing.setdefault("search_ms", []).extend(latencies)
            timing.setdefault("found", {})[conversation.sample_id] = found
            ingested = True
        else:
            _ingest_in_process(home, conversation)

    with _store(name, stores, build) as home:
        _without_deadline(home)
        if use_mcp and not ingested:
            found, latencies, _ = _mcp_run(home, conversation, False)
            timing.setdefault("search_ms", []).extend(latencies)
        elif use_mcp:
            found = timing["found"][conversation.sample_id]
        vault = Vault.open(home, clock=SystemClock())
        try:
            refs = _references(vault)
            dense = bl.DenseBaseline(vault)
            speakers = {t.dia_id: speaker_of(t.statement) for t in conversation.turns}
            for index, question in enumerate(conversation.questions):
                category = locomo.CATEGORIES.get(question.category, str(question.category))
                adversarial = question.category == locomo.ADVERSARIAL
                relevant = set(question.evidence)
                request = parse_search(_search_args(question))
                names = request_names(question.text)
                named = {dia_id for dia_id, speaker in speakers.items() if speaker in names}
                if use_mcp:
                    ours, held = found[index]
                else:
                    vault.retriever.clear_caches()
                    started = time.perf_counter()
                    answer = vault.search(OWNER, SearchRequest.of(**_search_args(question)))
                    timing.setdefault("search_ms", []).append((time.perf_counter() - started) * 1000)
                    ours = [refs.get(r["id"], "") for r in answer["results"]]
                    held = _held_back(dict(answer))
                out["ours"].add(category, ours, relevant, adversarial, named, held)
                bm25 = [refs[i] for i in bl.bm25_ids(vault, request, LIMIT)]
                out["bm25"].add(category, bm25, relevant, adversarial, named)
                out["rrf"].add(
                    category, [refs[i] for i in bl.rrf_ids(vault, dense, request, LIMIT)], relevant, adversarial, named
                )
        finally:
            vault.close()


# -- the table ---------------------------------------------------------------------------------


def print_table(title: str, tallies: dict[str, Tally]) -> dict[str, Any]:
    print(f"\n## {title}")
    print(f"{'category':<14}{'n':>5}  " + "  ".join(f"{s + ' R@5/R@10/NDCG':>24}" for s in SYSTEMS))
    categories = sorted({c for t in tallies.values() for c in t.scores})
    report: dict[str, Any] = {}
    for category in [*categories, "ALL"]:
        cells, n = [], 0
        for system in SYSTEMS:
            tally = tallies[system]
            r5, r10, ndcg, n = tally.overall() if category == "ALL" else _means(tally.scores.get(category, []))
            cells.append(f"{r5:.3f} / {r10:.3f} / {ndcg:.3f}")
            report.setdefault(category, {})[system] = {
                "r5": round(r5, 4),
                "r10": round(r10, 4),
                "ndcg10": round(ndcg, 4),
            }
        print(f"{category:<14}{n:>5}  " + "  ".join(f"{c:>24}" for c in cells))
    for category in sorted({c for t in tallies.values() for c in t.empty_hits}):
        hits = tallies["ours"].empty_hits[category]
        mean = sum(hits) / len(hits) if hits else 0.0
        print(f"{category:<14}{len(hits):>5}  ours: {mean:.2f} results per question (baselines: always up to 10)")
        report.setdefault(f"{category}_results", {})["ours"] = round(mean, 3)
        if tallies["ours"].misleading.get(category):
            cells = []
            for system in SYSTEMS:
                rows = tallies[system].misleading[category]
                first, top5 = (sum(r[i] for r in rows) / len(rows) for i in (0, 1))
                cells.append(f"{system} {first:.3f} / {top5:.3f}")
                report[f"{category}_results"][f"{system}_labelled_first_top5"] = [round(first, 4), round(top5, 4)]
            print(f"{'':<19}the labelled turn (said by someone else) first / in the first 5: " + ", ".join(cells))
        if any(tallies["ours"].said_by_named.get(category, [])):
            cells = []
            for system in SYSTEMS:
                counts = tallies[system].said_by_named[category]
                cells.append(f"{system} {sum(counts) / len(counts):.2f}")
                report[f"{category}_results"][f"{system}_said_by_named"] = round(sum(counts) / len(counts), 3)
            print(f"{'':<19}results said by a person the question names, per question: " + ", ".join(cells))
    held = tallies["ours"].held_back
    if any(any(v) for v in held.values()):
        cells = [f"{c} {sum(v)}/{len(v)}" for c, v in sorted(held.items())]
        print("answers that held hits back (the question seems to name the wrong person): " + ", ".join(cells))
        report["held_back"] = {c: sum(v) for c, v in held.items()}
    return report


def percentiles(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[max(0, int(0.95 * len(ordered)) - 1)]
    return f"p50 {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms over {len(ordered)} searches"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mcp", action="store_true", help="memvault's side through the real MCP server")
    parser.add_argument("--convs", default="", help="LoCoMo conversations (default: all in the split)")
    parser.add_argument("--tune", default=",".join(DEFAULT_TUNE), help="conversations tuned on")
    parser.add_argument("--no-fictional", action="store_true")
    parser.add_argument("--no-locomo", action="store_true")
    parser.add_argument("--stores", type=Path, help="keep built stores here and reuse them (iteration)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if args.stores:
        args.stores.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {}
    if not args.no_fictional:
        report["fictional"] = print_table("fictional set (per query kind)", fictional(args.stores))
    folder = None if args.no_locomo else locomo.data_dir()
    if folder is None and not args.no_locomo:
        print("\nLoCoMo dev split not found (MEMVAULT_LOCOMO or ../shared/data/locomo-dev): skipped")
    if folder is not None:
        wanted = {c for c in args.convs.split(",") if c} or None
        tune = {c for c in args.tune.split(",") if c}
        groups: dict[str, dict[str, Tally]] = {}
        timing: dict[str, Any] = {}
        for conversation in locomo.load(folder, wanted):
            group = "tune" if conversation.sample_id in tune else "report"
            tallies = groups.setdefault(group, {name: Tally() for name in SYSTEMS})
            run_conversation(conversation, args.mcp, args.stores, tallies, timing)
            print(f"  {conversation.sample_id} ({group}): done", file=sys.stderr)
        for group, tallies in groups.items():
            names = sorted(tune) if group == "tune" else "the others"
            report[f"locomo_{group}"] = print_table(f"LoCoMo dev, {group} ({names})", tallies)
        how = "MCP (memvault mcp --embedded, official client)" if args.mcp else "in-process Vault"
        print(f"\nours, search latency via {how}: {percentiles(timing.get('search_ms', []))}")
        if timing.get("add_ms"):
            print(f"memory_add via MCP: {statistics.mean(timing['add_ms']):.1f} ms per turn (embeddings on)")
            for why, count in sorted(NOT_STORED.items()):
                print(f"turns not stored by memory_add ({why}): {count}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
