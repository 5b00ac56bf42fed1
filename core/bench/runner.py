"""Run the conditions over the questions: seeded order, counterbalanced, each condition's costs measured.

Questions are shuffled with the seed and cut into blocks; within each block the conditions take
turns in an order rotated block by block (a Latin square), so no condition always goes first
(warm caches, a busy machine) or last. A condition with a remote pass is then asked every
question again as a remote caller, and whatever local-only content reaches it is a leak.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from memvault.core.bench.conditions import Condition
from memvault.core.bench.dataset import DataSet, Question
from memvault.core.bench.handover import Handover
from memvault.core.bench.metrics import QuestionScore, leaks, score
from memvault.core.bench.summary import Summary, summarise, with_ratios

BLOCK = 5


@dataclass
class Arm:
    """One condition as it is measured: its local pass, its optional remote pass, its footprint."""

    condition: Condition
    remote: Condition | None = None
    storage_bytes: int = 0
    outside_cpu_ms: Callable[[], float] = lambda: 0.0  # CPU spent in another process (a stdio server)
    scores: list[QuestionScore] = field(default_factory=list)
    handovers: dict[str, Handover] = field(default_factory=dict)  # question id -> what was handed over
    leaked: dict[str, list[str]] = field(default_factory=dict)  # question id -> leaked keys
    remote_handed: list[int] = field(default_factory=list)  # records the remote caller got, per question
    remote_errors: int = 0
    cpu_ms: float = 0.0


@dataclass(frozen=True)
class Run:
    order: list[list[str]]  # per block: the conditions in the order they ran
    questions: list[str]  # question ids in the order asked
    seconds: float


@dataclass(frozen=True)
class Measured:
    summaries: list[Summary]
    scores: dict[str, list[QuestionScore]]
    leaked: dict[str, dict[str, list[str]]]
    run: Run


def measure(data: DataSet, arms: Sequence[Arm], seed: int) -> Run:
    """Ask every question of every arm (the first arm is the no-memory baseline)."""
    started = time.perf_counter()
    questions = data.shuffled(seed)
    order: list[list[str]] = []
    for index in range(0, len(questions), BLOCK):
        turn = index // BLOCK % len(arms)
        rotated = [*arms[turn:], *arms[:turn]]
        order.append([arm.condition.name for arm in rotated])
        for arm in rotated:
            _local_pass(data, arm, questions[index : index + BLOCK])
    for arm in arms:
        if arm.remote is not None:
            _remote_pass(data, arm, arm.remote, questions)
    return Run(order, [q.id for q in questions], time.perf_counter() - started)


def conclude(arms: Sequence[Arm], run: Run) -> Measured:
    """The figures, once every server has stopped (a stdio server's CPU is known when it has exited)."""
    summaries = [_summary(arm) for arm in arms]
    baseline = summaries[0].quality
    return Measured(
        summaries=[with_ratios(s, baseline) for s in summaries],
        scores={arm.condition.name: arm.scores for arm in arms},
        leaked={arm.condition.name: arm.leaked for arm in arms},
        run=run,
    )


def _local_pass(data: DataSet, arm: Arm, questions: Sequence[Question]) -> None:
    for question in questions:
        cpu = time.process_time()
        handover = arm.condition.answer(question)
        arm.cpu_ms += (time.process_time() - cpu) * 1000
        arm.handovers[question.id] = handover
        arm.scores.append(score(data, question, handover))


def _remote_pass(data: DataSet, arm: Arm, remote: Condition, questions: Sequence[Question]) -> None:
    for question in questions:
        handover = remote.answer(question)
        arm.remote_handed.append(len(set(handover.keys)))
        arm.remote_errors += handover.error is not None
        found = leaks(data, handover)
        if found:
            arm.leaked[question.id] = found


def _summary(arm: Arm) -> Summary:
    summary = summarise(
        arm.condition.name,
        arm.scores,
        leaks=sum(len(keys) for keys in arm.leaked.values()) if arm.remote is not None else None,
        cpu_ms=arm.cpu_ms + arm.outside_cpu_ms(),
        storage_bytes=arm.storage_bytes,
    )
    if arm.remote is None:
        return summary
    handed = sum(arm.remote_handed) / len(arm.remote_handed) if arm.remote_handed else 0.0
    return replace(summary, remote_records_per_question=handed, remote_errors=arm.remote_errors)
