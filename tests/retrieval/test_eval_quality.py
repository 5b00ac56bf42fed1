"""The quality floor on the evaluation set, and the plain FTS5 bm25 baseline on the same set.

The floors are what the tuned defaults reach (tests/retrieval/tune_weights.py), minus a small
margin; a change to retrieval that drops below them fails here. Figures with the rank fusion of
issue 10, on the 448-record set (hybrid / lexical-only / bm25): recall@10 0.95 / 0.72 / 0.66,
MRR 0.89 / 0.66 / 0.60, irrelevant-hit rate 0.29 / 0.53 / 0.65, temporal 1.0 / 0.64 / 0.64.
"""

from __future__ import annotations

from typing import Any

import evalkit as ek

from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.model import OWNER

EvalVault = tuple[Vault, FixedClock, dict[str, str]]


def test_the_set_is_big_and_varied_enough(eval_data: dict[str, Any]) -> None:
    assert len(eval_data["memories"]) >= 400 and len(eval_data["queries"]) >= 150
    assert len({m["domain"] for m in eval_data["memories"]}) >= 8
    kinds = {q["kind"] for q in eval_data["queries"]}
    assert {"current", "correction", "contradiction", "cross", "project", "distractor", "privacy"} <= kinds
    assert {"unanswerable", "skip"} <= kinds


def test_hybrid_search_holds_the_quality_floor_and_beats_bm25(eval_vault: EvalVault, eval_data: dict[str, Any]) -> None:
    vault, _, ids = eval_vault
    hybrid = ek.score(ek.run_vault(vault, eval_data), ids)
    bm25 = ek.score(ek.run_bm25(vault, eval_data), ids)
    print("hybrid", hybrid.as_dict(), "\nbm25  ", bm25.as_dict())
    assert hybrid.leaks == 0 and bm25.leaks == 0
    assert hybrid.recall5 >= 0.90
    assert hybrid.recall10 >= 0.92
    assert hybrid.mrr >= 0.87
    assert hybrid.temporal == 1.0
    # 7 of 17 unanswerable or skipped requests get a hit, on every CPU (the 7-bit model computes the
    # same integers everywhere). The measure moves a whole request (1/17) at a time, and two of the
    # seven sit just over the relevance floor ("what is my favourite colour" meets a tea preference),
    # so the floor keeps one request of margin rather than pin a cosine's third decimal.
    assert hybrid.irrelevant_hit_rate <= 8 / 17
    assert hybrid.skip_accuracy == 1.0
    # plain bm25 is far from perfect on this set, and well below the hybrid search
    assert bm25.recall10 <= 0.75 and bm25.mrr <= 0.7
    assert hybrid.recall10 >= bm25.recall10 + 0.2
    assert hybrid.mrr >= bm25.mrr + 0.25
    assert hybrid.irrelevant_hit_rate < bm25.irrelevant_hit_rate


def test_lexical_only_mode_works_without_the_model_and_still_beats_bm25(
    eval_vault: EvalVault, eval_data: dict[str, Any]
) -> None:
    vault, _, ids = eval_vault
    vault.set_setting(OWNER, "embeddings", "off")
    assert vault.status(OWNER)["embeddings"] == "off"
    lexical = ek.score(ek.run_vault(vault, eval_data), ids)
    bm25 = ek.score(ek.run_bm25(vault, eval_data), ids)
    print("lexical-only", lexical.as_dict())
    assert lexical.leaks == 0 and lexical.skip_accuracy == 1.0
    assert lexical.temporal >= bm25.temporal  # words alone cannot find "employer" in "I work as ..."
    assert lexical.recall10 >= bm25.recall10 + 0.05 and lexical.mrr >= bm25.mrr + 0.05
    assert lexical.irrelevant_hit_rate < bm25.irrelevant_hit_rate
