"""One condition's figures over all questions, and the two ratios that answer the question."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace

from memvault.core.bench.metrics import QuestionScore, mean, percentile, share

MIN_LATENCY_MS = 0.1  # below this a condition has no retrieval step worth a ratio


@dataclass(frozen=True)
class Summary:
    condition: str
    questions: int
    quality: float
    relevant_recall: float | None
    labelled_precision: float | None
    answer_recall: float | None
    constraint_compliance: float | None
    temporal_conflict: float | None
    unfinished_quality: float | None
    cross_domain_quality: float | None
    irrelevant_hit_rate: float | None
    unknown_hit_rate: float | None
    repeated_lines: int
    privacy_leaks: int | None  # None: no remote pass was run for this condition
    latency_ms_mean: float
    latency_ms_p95: float
    calls_per_question: float
    records_per_question: float
    tokens_per_question: float
    cpu_ms: float
    storage_bytes: int
    remote_records_per_question: float | None = None  # what the remote pass was given (a pass given nothing
    remote_errors: int | None = None  # could not leak: these show it was a real test)
    quality_gain: float = 0.0
    gain_per_1k_tokens: float | None = None
    gain_per_100ms: float | None = None

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def summarise(
    name: str, scores: Sequence[QuestionScore], *, leaks: int | None, cpu_ms: float, storage_bytes: int
) -> Summary:
    answerable = [s for s in scores if s.recall is not None]
    handed = sum(s.handed for s in answerable)
    return Summary(
        condition=name,
        questions=len(scores),
        quality=mean([s.quality for s in scores]) or 0.0,
        relevant_recall=mean([s.recall for s in answerable if s.recall is not None]),
        labelled_precision=sum(s.found for s in answerable) / handed if handed else None,
        answer_recall=share([s.answer_found for s in answerable]),
        constraint_compliance=share([s.constraint_ok for s in scores]),
        temporal_conflict=share([s.complete and not s.stale_served for s in _of(scores, "temporal", "conflict")]),
        unfinished_quality=mean([s.quality for s in _of(scores, "unfinished")]),
        cross_domain_quality=mean([s.quality for s in _of(scores, "cross_domain")]),
        irrelevant_hit_rate=_rate(sum(s.distractors for s in scores), sum(s.lines for s in scores)),
        unknown_hit_rate=share([s.lines > 0 for s in _of(scores, "unknown")]),
        repeated_lines=sum(s.repeated for s in scores),
        privacy_leaks=leaks,
        latency_ms_mean=mean([s.latency_ms for s in scores]) or 0.0,
        latency_ms_p95=percentile([s.latency_ms for s in scores], 0.95),
        calls_per_question=mean([float(s.calls) for s in scores]) or 0.0,
        records_per_question=mean([float(s.handed) for s in scores]) or 0.0,
        tokens_per_question=mean([float(s.tokens) for s in scores]) or 0.0,
        cpu_ms=cpu_ms,
        storage_bytes=storage_bytes,
    )


def with_ratios(summary: Summary, baseline: float) -> Summary:
    """Quality gained over the no-memory baseline, per 1,000 context tokens and per 100 ms of retrieval."""
    gain = summary.quality - baseline
    per_tokens = gain / (summary.tokens_per_question / 1000) if summary.tokens_per_question > 0 else None
    per_time = gain / (summary.latency_ms_mean / 100) if summary.latency_ms_mean >= MIN_LATENCY_MS else None
    return replace(summary, quality_gain=gain, gain_per_1k_tokens=per_tokens, gain_per_100ms=per_time)


def _of(scores: Sequence[QuestionScore], *kinds: str) -> list[QuestionScore]:
    return [s for s in scores if s.kinds & set(kinds)]


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None
