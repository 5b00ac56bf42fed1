"""Benchmark the writer pass: milliseconds per candidate at a given store size.

    python tests/bench/bench_propose.py [--sizes 1000,10000] [--candidates 40]

A script, not a test. For each size: a fresh encrypted store in a temp folder, bulk records
from bench_retrieval's generator (200 embedded with the real model, the rest with synthesised
vectors), then `memory_propose` passes of one candidate each, as a local assistant in the
default review mode, with the model warm: half restate a stored record with a changed number
(SUPERSEDE), half are new (ADD). Prints p50/p95 wall-clock milliseconds per candidate, with
embeddings on and off.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_retrieval import bulk_write, synthesise_vectors  # sets the benchmark's environment

from memvault.core.retrieval.embeddings import shared_embedder
from memvault.core.retrieval.vectors import backfill
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT
from memvault.core.vocabulary.requests import ProposeRequest


def _candidates(vault: Vault, count: int, rng: random.Random) -> list[str]:
    with vault.ctx.reading() as conn:
        stored = [
            row[0] for row in conn.raw.execute("SELECT statement FROM memories ORDER BY random() LIMIT ?", (count,))
        ]
    changed = [s.replace("(note ", "(note 9") for s in stored[: count // 2]]
    new = [f"The {rng.choice(['canoe', 'violin', 'roof'])} club meets in hall {n} on Thursdays" for n in range(count)]
    return changed + new[: count - len(changed)]


def run(size: int, count: int) -> dict[str, float]:
    home = Path(tempfile.mkdtemp(prefix="memvault-bench-propose-"))
    try:
        vault = Vault.open(home, create=True)
        bulk_write(vault, size)
        backfill(vault.ctx, shared_embedder(), limit=200)
        synthesise_vectors(vault)
        rng = random.Random(3)
        figures: dict[str, float] = {}
        for mode in ("local", "off"):
            os.environ["MEMVAULT_EMBEDDINGS"] = mode
            vault.propose(LOCAL_ASSISTANT, ProposeRequest.of(candidates=[{"statement": "warm-up: the kettle is blue"}]))
            times = []
            for statement in _candidates(vault, count, rng):
                started = time.perf_counter()
                vault.propose(LOCAL_ASSISTANT, ProposeRequest.of(candidates=[{"statement": statement}]))
                times.append((time.perf_counter() - started) * 1000)
            times.sort()
            figures[f"{mode}_p50_ms"] = round(statistics.median(times), 1)
            figures[f"{mode}_p95_ms"] = round(times[int(0.95 * (len(times) - 1))], 1)
        vault.close()
        return figures
    finally:
        os.environ.pop("MEMVAULT_EMBEDDINGS", None)
        shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--candidates", type=int, default=40)
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        print(size, run(size, args.candidates), flush=True)


if __name__ == "__main__":
    main()
