"""Hot, warm and cold: how active a record is, from use, confirmation and importance.

activation = 0.5 ** (idle_days / half_life), where
  idle_days = days since the latest of: last retrieved, last confirmed, learned;
  half_life = tier_half_life_days * (1 + 2 * importance)   (important records fade slower).
Explicit, high-importance durable records (preferences, constraints, goals, workflows with
importance >= 0.8) never fall below DURABLE_FLOOR: they resist decay.

Decay changes priority, never existence: a cold record is still stored, still reachable by
`memory_get`, `memory_list` and by searches with depth=deep. Confirmations move
`last_confirmed_at`, which raises activation; they never touch confidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from memvault.core.model import Explicitness, Memory, MemoryType

DURABLE_TYPES = frozenset({MemoryType.PREFERENCE, MemoryType.CONSTRAINT, MemoryType.GOAL, MemoryType.WORKFLOW})
DURABLE_IMPORTANCE = 0.8
DURABLE_FLOOR = 0.65
HOT, WARM, COLD = "hot", "warm", "cold"


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
    times = [t for t in (record.last_retrieved_at, record.last_confirmed_at, record.learned_at) if t]
    return max(times) if times else None


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
    if value >= rules.hot:
        return HOT
    if value < rules.cold:
        return COLD
    return WARM
