"""Tune the ranking weights on the evaluation set (a script, not a test).

Run: `.venv/bin/python tests/retrieval/tune_weights.py [--rounds 3]`.

Each query's candidates and their signals are captured once with the default weights (the
ranking is pure arithmetic over them), then coordinate descent tries each weight over a grid
and keeps whatever raises the objective
    recall@10 + recall@5 + MRR + 0.5 * temporal correctness - 0.5 * irrelevant-hit rate.
Graph seeds are chosen with the default weights during capture, so the result is then
checked end to end by re-running the real search with the tuned weights.
The tuned values become the defaults in core/runtime/settings.py (RETRIEVAL_SETTINGS).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

os.environ.setdefault("MEMVAULT_PASSPHRASE", "tuning (fictional)")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
sys.path.insert(0, str(Path(__file__).parent))

import evalkit as ek

from memvault.core.retrieval import pipeline
from memvault.core.retrieval.ranking import Signals, Weights, rank
from memvault.core.vocabulary.search_request import SearchRequest

GRID: dict[str, list[float]] = {
    "lexical": [0.2, 0.35, 0.5, 0.65, 0.8, 1.0],
    "semantic": [0.5, 0.65, 0.8, 0.9, 1.0],
    "graph": [0.0, 0.15, 0.3, 0.5, 0.8],
    "domain": [0.0, 0.1, 0.2, 0.4, 0.7],
    "status": [0.0, 0.1, 0.25, 0.5],
    "confidence": [0.0, 0.1, 0.2],
    "importance": [0.0, 0.15, 0.3, 0.5],
    "recency": [0.0, 0.1, 0.2, 0.4],
    "activation": [0.0, 0.1, 0.2],
    "explicit": [0.0, 0.05, 0.1],
    "feedback": [0.15],
    "min_relevance": [0.15, 0.2, 0.25, 0.3, 0.35, 0.4],
    "semantic_floor": [0.1, 0.15, 0.2, 0.25, 0.3],
}

Captured = list[tuple[Any, list[tuple[Any, Signals]]]]


def capture(vault: Any, data: dict[str, Any]) -> dict[int, Captured]:
    """Run every query once; keep what `rank` was given (the candidates and their signals)."""
    seen: dict[int, Captured] = {}
    original = pipeline.rank
    current: list[int] = [-1]

    def recording(items: list[tuple[Any, Signals]], weights: Weights) -> Any:
        seen.setdefault(current[0], []).append((weights, list(items)))
        return original(items, weights)

    pipeline.rank = recording  # type: ignore[assignment]
    try:
        for index, query in enumerate(data["queries"]):
            current[0] = index
            vault.retriever.clear_caches()
            vault.search(ek.caller_of(query), SearchRequest.of(**ek.search_args(query)))
    finally:
        pipeline.rank = original  # type: ignore[assignment]
    return seen


def evaluate(weights: Weights, captured: dict[int, Captured], data: dict[str, Any], ids: dict[str, str]) -> ek.Report:
    outcomes = []
    for index, query in enumerate(data["queries"]):
        runs = captured.get(index)
        if not runs:
            outcomes.append(ek.Outcome(query, [], True))
            continue
        items = runs[-1][1]
        ranked = rank(items, weights)[:10]
        outcomes.append(
            ek.Outcome(query, [r.id for r, _, _ in ranked], False, [r.access_scope.value for r, _, _ in ranked])
        )
    return ek.score(outcomes, ids)


def objective(report: ek.Report) -> float:
    return report.recall10 + report.recall5 + report.mrr + 0.5 * report.temporal - 0.5 * report.irrelevant_hit_rate


def tune(captured: dict[int, Captured], data: dict[str, Any], ids: dict[str, str], rounds: int) -> Weights:
    best = Weights()
    best_value = objective(evaluate(best, captured, data, ids))
    print(f"start {best_value:.4f} {evaluate(best, captured, data, ids).as_dict()}")
    for round_number in range(rounds):
        changed = False
        for name, values in GRID.items():
            for value in values:
                trial = replace(best, **{name: value})
                result = objective(evaluate(trial, captured, data, ids))
                if result > best_value + 1e-9:
                    best, best_value, changed = trial, result, True
        print(f"round {round_number + 1}: {best_value:.4f} {asdict(best)}")
        if not changed:
            break
    return best


def _subset(
    captured: dict[int, Captured], data: dict[str, Any], parity: int
) -> tuple[dict[int, Captured], dict[str, Any]]:
    chosen = [i for i in range(len(data["queries"])) if i % 2 == parity]
    return (
        {n: captured[i] for n, i in enumerate(chosen) if i in captured},
        {**data, "queries": [data["queries"][i] for i in chosen]},
    )


def holdout(captured: dict[int, Captured], data: dict[str, Any], ids: dict[str, str], rounds: int) -> None:
    """How much of the gain is fitting: tune on the even-numbered queries, measure the odd ones."""
    train_captured, train = _subset(captured, data, 0)
    test_captured, test = _subset(captured, data, 1)
    tuned = tune(train_captured, train, ids, rounds)
    print("held-out, defaults:", evaluate(Weights(), test_captured, test, ids).as_dict())
    print("held-out, tuned on the other half:", evaluate(tuned, test_captured, test, ids).as_dict())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--holdout", action="store_true", help="tune on even queries, report odd ones too")
    options = parser.parse_args()
    data = ek.load_set()
    folder = Path(tempfile.mkdtemp(prefix="memvault-tune-"))
    try:
        vault, _, ids = ek.open_eval_vault(folder / "store", True, data)
        captured = capture(vault, data)
        if options.holdout:
            holdout(captured, data, ids, options.rounds)
            return
        tuned = tune(captured, data, ids, options.rounds)
        print("tuned (captured):", evaluate(tuned, captured, data, ids).as_dict())
        for name, value in asdict(tuned).items():
            setting = name if name in ("min_relevance", "semantic_floor") else f"w_{name}"
            vault.set_setting(ek.OWNER, f"rank_{setting}", value)
        vault.retriever.cache.clear()
        print("tuned (end to end):", ek.score(ek.run_vault(vault, data), ids).as_dict())
        vault.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
