"""Time in one place: an injectable clock and the ISO 8601 UTC format the contract uses."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Protocol

from memvault.core.vocabulary.errors import InvalidArgument


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock for tests and replays: it moves only when told to."""

    def __init__(self, start: datetime) -> None:
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, **delta: float) -> None:
        self._now += timedelta(**delta)

    def set(self, moment: datetime) -> None:
        self._now = moment.astimezone(UTC)


_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def format_time(moment: datetime) -> str:
    """`2026-03-01T09:30:00.000Z`: always the same width, so text order is time order.

    (A bare `...:00Z` would sort after `...:00.5Z`, '.' being before 'Z'.)
    """
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_time(value: object, field: str) -> datetime:
    """Accept an ISO 8601 time (a zone is required unless it is a bare date) or a date."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise InvalidArgument(f"{field}: a time needs a time zone (use Z for UTC)")
        return value.astimezone(UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    if not isinstance(value, str) or not value.strip() or len(value) > 40:
        raise InvalidArgument(f"{field}: expected an ISO 8601 time such as 2026-03-01T09:30:00Z")
    text = value.strip()
    try:
        if _DATE_ONLY.match(text):
            return datetime.fromisoformat(text).replace(tzinfo=UTC)
        parsed = datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        raise InvalidArgument(f"{field}: expected an ISO 8601 time such as 2026-03-01T09:30:00Z") from None
    if parsed.tzinfo is None:
        raise InvalidArgument(f"{field}: a time needs a time zone (use Z for UTC)")
    return parsed.astimezone(UTC)


def normalize_time(value: object, field: str) -> str:
    return format_time(parse_time(value, field))
