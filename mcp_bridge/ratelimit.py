"""A per-principal token bucket: a burst, then a steady rate; over it, calls answer `rate_limited`."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from memvault.core.vocabulary.errors import RateLimited


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    """`per_minute` calls a minute on average, at most `burst` at once, for each principal."""

    def __init__(self, per_minute: float = 120.0, burst: int = 30, now: Callable[[], float] = time.monotonic) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError("per_minute must be positive and burst at least 1")
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self._now = now
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def check(self, principal: str) -> None:
        """Take one call from the principal's bucket, or raise RateLimited."""
        with self._lock:
            now = self._now()
            bucket = self._buckets.get(principal)
            if bucket is None:
                bucket = self._buckets[principal] = _Bucket(self.burst, now)
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
            bucket.stamp = now
            if bucket.tokens < 1.0:
                wait = (1.0 - bucket.tokens) / self.rate
                raise RateLimited(f"too many calls: try again in {wait:.1f} s")
            bucket.tokens -= 1.0
