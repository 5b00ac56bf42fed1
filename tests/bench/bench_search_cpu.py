"""`Vault.search` in one process, on a kept store: CPU per search, and the rankings it gave.

    nice -n 10 .venv/bin/python tests/bench/bench_search_cpu.py STORE [--queries 80] [--seed 7]
        [--questions FILE] [--rankings FILE] [--compare FILE] [--profile N] [--remote]

A script, not a test. STORE is a store folder kept by bench_mcp_search.py (`--keep DIR`: DIR/store-10000);
it is copied to a temp folder first, so every run starts from the same records and the same usage
counts (searches count usage, which moves later rankings). Warm (one search loads the model and the
matrix), it runs distinct templated questions (no ranking-cache or request-vector hits), half at depth
auto and half at depth deep, and prints wall and process-CPU per search (p50/p95; CPU medians are what
the code costs on a shared machine) with the load average.

--questions FILE  ask these instead: every "query" or "question" string in a JSON file (the fictional
                 set's tests/retrieval/eval_set.json, LoCoMo's locomo-dev.json), e.g. on the evaluation's stores
--rankings FILE  write every search's ranked ids and scores (4 decimals) to FILE (JSON)
--compare FILE   and compare them with FILE (written by an earlier run, e.g. of main): a speed change
                 must leave them identical. With either, the search deadline is lifted (10 s), so that
                 a loaded machine cannot cut a stage short
--profile N      run under cProfile and print the N costliest functions (cumulative)
--remote         search as a remote caller (access scope: the full-join SQL path), not the owner
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from bench_mcp_search import distinct_queries, load, percentiles

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER, Caller, Surface
from memvault.core.vocabulary.search_request import SearchRequest


def requests(count: int, seed: int, questions: Path | None = None) -> list[SearchRequest]:
    queries = distinct_queries(count, seed) if questions is None else asked_in(questions)[:count]
    return [SearchRequest.of(query=q, limit=10, depth="deep" if i % 2 else "auto") for i, q in enumerate(queries)]


def asked_in(path: Path) -> list[str]:
    found: dict[str, None] = {}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("query", "question") and isinstance(item, str):
                    found[item] = None
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads(path.read_text()))
    return list(found)


def caller_for(remote: bool) -> Caller:
    return Caller("bench-remote", Surface.REMOTE) if remote else OWNER


def run(home: Path, wanted: list[SearchRequest], caller: Caller, profile: int, steady: bool) -> dict[str, Any]:
    """`steady`: no search deadline (on a loaded machine a stage skipped at the deadline changes a ranking)."""
    rankings: dict[str, Any] = {}
    walls, cpus = [], []
    profiler = cProfile.Profile() if profile else None
    with Vault.open(home) as vault:
        if steady:
            vault.set_setting(OWNER, "search_deadline_ms", 1e4)
        vault.search(OWNER, SearchRequest.of(query="warm up the model and the index"))
        for request in wanted:
            wall, cpu = time.perf_counter(), time.process_time()
            if profiler:
                profiler.enable()
            answer: Any = vault.search(caller, request)
            if profiler:
                profiler.disable()
            cpus.append((time.process_time() - cpu) * 1000)
            walls.append((time.perf_counter() - wall) * 1000)
            results = answer.get("results", [])
            rankings[f"{request.depth}|{request.query}"] = [[r["id"], round(r["score"], 4)] for r in results]
    print(f"  search  wall {percentiles(walls)}   cpu {percentiles(cpus)}  ms  (load {load()})")
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(profile)
    return rankings


def compare(mine: dict[str, Any], theirs: dict[str, Any]) -> None:
    differ = [k for k in mine if mine[k] != theirs.get(k)]
    same_ids = [k for k in differ if [i for i, _ in mine[k]] == [i for i, _ in theirs.get(k, [])]]
    print(f"  rankings: {len(mine) - len(differ)}/{len(mine)} identical; {len(same_ids)} differ in scores only")
    for key in differ[:5]:
        print(f"    differs: {key!r}\n      mine   {mine[key][:5]}\n      theirs {theirs.get(key, [])[:5]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--queries", type=int, default=80)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--questions", type=Path)
    parser.add_argument("--rankings", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--profile", type=int, default=0)
    parser.add_argument("--remote", action="store_true")
    options = parser.parse_args()
    os.environ.setdefault("MEMVAULT_PASSPHRASE", "fictional benchmark passphrase")
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    for name in ("MEMVAULT_WRITE_MODE", "MEMVAULT_EMBEDDINGS"):
        os.environ.pop(name, None)
    work = Path(tempfile.mkdtemp(prefix="memvault-bench-cpu-"))
    try:
        home = work / "home"
        shutil.copytree(options.store, home)
        print(f"{options.store.name} (load {load()})")
        wanted = requests(options.queries, options.seed, options.questions)
        steady = bool(options.rankings or options.compare)
        found = run(home, wanted, caller_for(options.remote), options.profile, steady)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if options.rankings:
        options.rankings.write_text(json.dumps(found, indent=0))
    if options.compare:
        compare(found, json.loads(options.compare.read_text()))
    print(f"  median of the run: {statistics.median([len(v) for v in found.values()])} results per search")


if __name__ == "__main__":
    main()
