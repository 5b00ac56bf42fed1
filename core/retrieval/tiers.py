"""Hot, warm and cold: how active a record is, from use, confirmation and importance.

activation = 0.5 ** (idle_days / half_life), where
  idle_days = days since the latest of: last retrieved, last confirmed, learned;
  half_life = tier_half_life_days * (1 + 2 * importance)   (important records fade slower).
Explicit, high-importance durable records (preferences, constraints, goals, workflows with
importance >= 0.8) never fall below DURABLE_FLOOR: they resist decay.

The tier: superseded and historical records are cold (only depth=deep, which every search
about the past uses, reaches them); a live record is hot or warm by its activation and never
cold: a current fact does not disappear because nobody asked for it recently. Decay changes
priority (activation is a ranking prior), never existence. Confirmations move
`last_confirmed_at`, which raises activation; they never touch confidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from memvault.core.vocabulary.model import Explicitness, Memory, MemoryType, Status

DURABLE_TYPES = frozenset({MemoryType.PREFERENCE, MemoryType.CONSTRAINT, MemoryType.GOAL, MemoryType.WORKFLOW})
DURABLE_IMPORTANCE = 0.8
DURABLE_FLOOR = 0.65
HOT, WARM, COLD = "hot", "warm", "cold"
PAST = frozenset({Status.SUPERSEDED, Status.HISTORICAL})


@dataclass(frozen=True)
class TierRules:
    half_life_days: float = 90.0
    hot: float = 0.6
    cold: float = 0.15


@lru_cache(maxsize=65536)
def moment(text: str) -> datetime:
    """A stored time (ISO 8601, UTC) as a datetime; cached, since ranking reads the same ones often."""
    parsed = datetime.fromisoformat(text)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _latest(record: Memory) -> str | None:
    """The latest time the record was retrieved, confirmed or learned (ISO text compares as time).

    A loop, not `max(filter(...))`: ranking asks for every hit, and this costs a third as much."""
    latest = None
    for when in (record.last_retrieved_at, record.last_confirmed_at, record.learned_at):
        if when and (latest is None or when > latest):
            latest = when
    return latest


def is_durable(record: Memory) -> bool:
    return (
        record.type in DURABLE_TYPES
        and record.explicitness is Explicitness.EXPLICIT
        and record.importance >= DURABLE_IMPORTANCE
    )


def activation(record: Memory, now: datetime, rules: TierRules) -> float:
    latest = _latest(record)
    if latest is None:
        return 1.0
    idle_days = max(0.0, (now - moment(latest)).total_seconds() / 86400)
    half_life = rules.half_life_days * (1 + 2 * record.importance)
    value = float(0.5 ** (idle_days / half_life))
    return max(value, DURABLE_FLOOR) if is_durable(record) else value


def tier_of(value: float, rules: TierRules) -> str:
    """The tier an activation alone would give (cold below `tier_cold`)."""
    if value >= rules.hot:
        return HOT
    if value < rules.cold:
        return COLD
    return WARM


def tier_for(record: Memory, value: float, rules: TierRules) -> str:
    """A record's tier: past material is cold; a live record is at least warm, however idle."""
    if record.status in PAST:
        return COLD
    return HOT if value >= rules.hot else WARM
