"""Every metric comes from what was handed over: broken answers lower the figures, leaks are counted."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault.core.bench.conditions import MemvaultCondition, NativeMemory, NoMemory
from memvault.core.bench.dataset import DataSet, Question
from memvault.core.bench.handover import ContextLine, Handover
from memvault.core.bench.metrics import leaks, score
from memvault.core.bench.runner import Arm, conclude, measure
from memvault.core.bench.stores import BenchStore, loaded_store
from memvault.core.bench.summary import Summary
from memvault.core.retrieval.packet import estimate_tokens
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, Caller, Surface
from memvault.mcp_bridge.bench_client import ToolClient
from memvault.mcp_bridge.server import build_server


def lines_for(data: DataSet, *keys: str, note: str = "") -> Handover:
    lines = [ContextLine(k, f"[{k}] {data.record(k).statement}{note}") for k in keys]
    return Handover(lines, tokens=sum(estimate_tokens(line.text) for line in lines))


def question(data: DataSet, kind: str) -> Question:
    return next(q for q in data.questions if kind in q.kinds and q.relevant)


def test_a_complete_answer_scores_and_a_wrong_one_does_not(small: DataSet) -> None:
    asked = question(small, "constraint")
    good = score(small, asked, lines_for(small, *asked.relevant))
    distractors = [r.key for r in small.records if r.distractor][:3]
    bad = score(small, asked, lines_for(small, *distractors))
    assert good.recall == 1.0 and good.constraint_ok and good.quality > 0.5
    assert bad.recall == 0.0 and bad.constraint_ok is False and bad.distractors == 3 and bad.quality < good.quality


def test_a_stale_record_misleads_unless_its_line_warns(small: DataSet) -> None:
    asked = next(q for q in small.questions if q.stale)
    plain = score(small, asked, lines_for(small, *asked.relevant, *asked.stale))
    warned = score(small, asked, lines_for(small, *asked.relevant))
    labelled = lines_for(small, *asked.stale, note=" (superseded on 2026-03-15)")
    both = score(small, asked, Handover(lines_for(small, *asked.relevant).lines + labelled.lines))
    assert plain.stale_served and not warned.stale_served and not both.stale_served
    assert plain.quality == pytest.approx(warned.quality / 2)


def test_an_unknown_question_is_best_left_unanswered(small: DataSet) -> None:
    asked = next(q for q in small.questions if q.unknown)
    assert score(small, asked, Handover()).quality == 1.0
    assert score(small, asked, lines_for(small, small.records[0].key)).quality == 0.0


def test_restatements_count_as_repetitions(small: DataSet) -> None:
    restated = next(r for r in small.records if r.restates)
    asked = question(small, "repetition")
    assert score(small, asked, lines_for(small, restated.key, restated.restates or "")).repeated == 1


def test_an_injected_leak_is_detected_by_key_and_by_its_private_phrase(small: DataSet) -> None:
    private = next(r for r in small.records if r.local_only)
    shared = next(r for r in small.records if not r.local_only and not r.distractor)
    assert leaks(small, lines_for(small, shared.key)) == []
    assert leaks(small, lines_for(small, shared.key, private.key)) == [private.key]
    assert private.canary
    quoted = Handover([ContextLine(None, f"someone said: {private.canary.upper()}")])
    assert leaks(small, quoted) == [private.key]


class Shuffled:
    """A broken retriever: each question gets memvault's packet for another question."""

    name = "broken memvault"

    def __init__(self, honest: MemvaultCondition, questions: list[Question]) -> None:
        self.honest = honest
        self.others = dict(
            zip([q.id for q in questions], random.Random(5).sample(questions, len(questions)), strict=True)
        )

    def answer(self, asked: Question) -> Handover:
        return self.honest.answer(self.others[asked.id])


@pytest.fixture
def store(small: DataSet, tmp_path: Path) -> Iterator[BenchStore]:
    with loaded_store(small, tmp_path) as loaded:
        yield loaded


class Leaky:
    """A remote caller's answers with one local-only record slipped in."""

    name = "leaky"

    def __init__(self, honest: MemvaultCondition, private: ContextLine) -> None:
        self.honest = honest
        self.private = private

    def answer(self, asked: Question) -> Handover:
        given = self.honest.answer(asked)
        return Handover([*given.lines, self.private], given.tokens, given.latency_ms, given.calls)


def test_a_leak_injected_into_the_remote_pass_is_counted(small: DataSet, store: BenchStore) -> None:
    private = next(r for r in small.records if r.local_only)
    remote = Caller(principal="bench-remote", surface=Surface.REMOTE)
    with store.open() as vault, ToolClient(build_server(vault, remote)) as client:
        honest = MemvaultCondition(client.search, store.keys_by_id(), estimate_tokens)
        arms = [
            Arm(NoMemory()),
            Arm(NoMemory(), remote=honest),
            Arm(NoMemory(), remote=Leaky(honest, ContextLine(private.key, f"[x] {private.statement}"))),
        ]
        measured = conclude(arms, measure(small, arms, seed=7))
    clean, leaky = measured.summaries[1], measured.summaries[2]
    assert clean.privacy_leaks == 0 and clean.remote_records_per_question and clean.remote_errors == 0
    assert leaky.privacy_leaks == len(small.questions)
    assert measured.summaries[0].privacy_leaks is None  # no remote pass: no claim either way


def run_arms(small: DataSet, store: BenchStore) -> dict[str, Summary]:
    with store.open() as vault, ToolClient(build_server(vault, LOCAL_ASSISTANT)) as client:
        honest = MemvaultCondition(client.search, store.keys_by_id(), estimate_tokens)
        arms = [
            Arm(NoMemory()),
            Arm(NativeMemory(small, 400, estimate_tokens)),
            Arm(honest),
            Arm(Shuffled(honest, list(small.questions))),
        ]
        measured = conclude(arms, measure(small, arms, seed=7))
    return {s.condition: s for s in measured.summaries}


def test_a_broken_retriever_lowers_every_quality_figure(small: DataSet, store: BenchStore) -> None:
    by = run_arms(small, store)
    honest, broken, none = by["memvault"], by["broken memvault"], by["no memory"]
    for figure in (
        "quality",
        "relevant_recall",
        "labelled_precision",
        "answer_recall",
        "constraint_compliance",
        "temporal_conflict",
        "cross_domain_quality",
        "unfinished_quality",
    ):
        assert getattr(broken, figure) < getattr(honest, figure), figure
    assert broken.quality_gain < honest.quality_gain and none.quality_gain == 0.0
    assert honest.gain_per_1k_tokens is not None and broken.gain_per_1k_tokens is not None
    assert broken.gain_per_1k_tokens < honest.gain_per_1k_tokens
    assert honest.calls_per_question == 1.0 and honest.latency_ms_mean > 0 and honest.tokens_per_question > 0
    assert none.tokens_per_question == 0 and none.relevant_recall == 0.0
    # The stand-in injects the same list whatever the question: its labelled precision is poor.
    assert by["native memory"].labelled_precision is not None
    assert by["native memory"].labelled_precision < honest.labelled_precision  # type: ignore[operator]
