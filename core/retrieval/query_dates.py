"""Dates named in a request ("on 8 May, 2023", "in July 2022", "during 2021"): the span of time
they cover, and the request without them.

A record whose event happened inside the span is lifted in the ranking (`ranking.DATE_LIFT`);
the date's words leave the word query, where they only match other records' numbers and months.
English month names, with the day before or after the month; the first date named counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH = r"(?P<month>" + "|".join(MONTHS) + r"|" + "|".join(m[:3] for m in MONTHS) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_FORMS = (
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_YEAR}-(?P<m>[01]\d)-(?P<day>[0-3]\d)\b"),
    re.compile(rf"\b(?:in|during|of|since)\s+{_YEAR}\b", re.IGNORECASE),
)
DAY_BEFORE, DAYS_AFTER = 1, 2  # a day named: the event may be told a day late, or dated a day early


@dataclass(frozen=True)
class DateSpan:
    """[start, end) in UTC, and where the words naming it sit in the request."""

    start: datetime
    end: datetime
    found_at: tuple[int, int]

    def holds(self, moment: datetime) -> bool:
        return self.start <= moment < self.end


def _month_number(name: str) -> int:
    return next(i for i, m in enumerate(MONTHS, 1) if m.startswith(name.casefold()[:3]))


def _span(match: re.Match[str]) -> tuple[datetime, datetime] | None:
    groups = match.groupdict()
    year = int(groups["year"])
    month = int(groups["m"]) if groups.get("m") else _month_number(groups["month"]) if groups.get("month") else None
    try:
        if month is None:
            return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)
        if groups.get("day") is None:
            start = datetime(year, month, 1, tzinfo=UTC)
            return start, datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
        day = datetime(year, month, int(groups["day"]), tzinfo=UTC)
    except ValueError:  # "31 February": not a date
        return None
    return day - timedelta(days=DAY_BEFORE), day + timedelta(days=DAYS_AFTER)


def date_span(text: str) -> DateSpan | None:
    """The span of the first date the request names (the most precise form wins at one place)."""
    best: DateSpan | None = None
    for form in _FORMS:
        match = form.search(text)
        if match is None:
            continue
        span = _span(match)
        if span and (best is None or match.start() < best.found_at[0]):
            best = DateSpan(span[0], span[1], match.span())
    return best


def without_date(text: str, span: DateSpan | None) -> str:
    """The request with the words naming its date left out (they are matched by time, not as words)."""
    if span is None:
        return text
    start, end = span.found_at
    return f"{text[:start]} {text[end:]}"
