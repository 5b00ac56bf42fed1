"""Every figure is computed from what a condition handed over (its `Handover`), question by question.

A line of context "serves" a stale record (an outdated or wrong one) when it states it without a
label that warns the reader (superseded, historical, conflicts with, uncertain, disputed, valid
until): such a line would mislead an assistant about what is true now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memvault.core.bench.dataset import DataSet, Question
from memvault.core.bench.handover import ContextLine, Handover

WARNINGS = ("superseded", "historical", "conflicts with", "uncertain", "disputed", "valid until")


@dataclass(frozen=True)
class QuestionScore:
    question: str
    kinds: frozenset[str]
    recall: float | None  # share of the relevant records handed over (None: nothing is relevant)
    found: int  # relevant records handed over
    handed: int  # distinct records handed over
    answer_found: bool | None  # the expected answer's label appears in the context
    stale_served: bool
    constraint_ok: bool | None
    distractors: int
    repeated: int  # lines repeating a statement already in the same context
    lines: int
    tokens: int
    latency_ms: float
    calls: int

    @property
    def complete(self) -> bool:
        return self.recall == 1.0

    @property
    def quality(self) -> float:
        """0..1: the relevant records and the answer present, halved when a stale record misleads;
        for a question memory cannot answer, 1 when nothing was handed over."""
        if self.recall is None:
            return 1.0 if self.lines == 0 else 0.0
        base = 0.5 * self.recall + 0.5 * float(bool(self.answer_found))
        return base * (0.5 if self.stale_served else 1.0)


def score(data: DataSet, question: Question, handover: Handover) -> QuestionScore:
    handed = set(handover.keys)
    relevant = set(question.relevant)
    found = len(relevant & handed)
    constraints = {k for k in relevant if data.record(k).fields.get("type") == "CONSTRAINT"}
    return QuestionScore(
        question=question.id,
        kinds=question.kinds,
        recall=found / len(relevant) if relevant else None,
        found=found,
        handed=len(handed),
        answer_found=_contains(handover.text, question.answer) if question.answer else None,
        stale_served=any(line.key in question.stale and not _warned(line) for line in handover.lines),
        constraint_ok=constraints <= handed if constraints else None,
        distractors=sum(1 for key in handover.keys if data.record(key).distractor),
        repeated=_repeated(data, handover),
        lines=len(handover.lines),
        tokens=handover.tokens,
        latency_ms=handover.latency_ms,
        calls=handover.calls,
    )


def leaks(data: DataSet, handover: Handover) -> list[str]:
    """Local-only records that reached a remote caller: cited by key, or their canary phrase in the text."""
    text = handover.text.casefold()
    leaked = {key for key in handover.keys if data.record(key).local_only}
    leaked |= {r.key for r in data.records if r.local_only and r.canary and r.canary.casefold() in text}
    return sorted(leaked)


def _contains(text: str, label: str) -> bool:
    return label.casefold() in text.casefold()


def _warned(line: ContextLine) -> bool:
    text = line.text.casefold()
    return any(word in text for word in WARNINGS)


def _repeated(data: DataSet, handover: Handover) -> int:
    groups = [data.record(key).group for key in handover.keys]
    return len(groups) - len(set(groups))


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def share(flags: Sequence[bool | None]) -> float | None:
    known = [float(f) for f in flags if f is not None]
    return mean(known)


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]
