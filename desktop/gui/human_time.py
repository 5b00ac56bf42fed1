"""Times as people read them: "3 days ago", "in 2 hours", the locale's date for older ones; the exact time on hover.

The store speaks ISO 8601 UTC (`2026-11-02T00:00:00.000Z`). A value at exactly midnight UTC is taken
for a calendar date (a valid-from typed as `2025-01-10`): it is shown as that date, never shifted a day
by the local time zone. `now`, the time zone and the locale are parameters, so tests fix them.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo

from PySide6.QtCore import QDate, QLocale, QTime

NONE = "—"
WEEK_DAYS = 7  # up to this many days away a time is said relative to today; further, as a date


def parse(value: object) -> datetime | None:
    """An aware UTC datetime from an ISO 8601 string ("Z", an offset, or a bare date); None if it is not one."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip().replace("Z", "+00:00").replace("z", "+00:00")
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        return None
    return (found if found.tzinfo else found.replace(tzinfo=UTC)).astimezone(UTC)


def is_calendar_date(when: datetime) -> bool:
    """Midnight UTC to the millisecond: a date someone gave without a time."""
    return when.astimezone(UTC).time() == time(0, 0)


def _count(number: int, unit: str) -> str:
    return f"{number} {unit}{'' if number == 1 else 's'}"


def _days_apart(day: date, today: date) -> str | None:
    """ "today", "yesterday", "3 days ago", "tomorrow", "in 3 days"; None when a week or more away."""
    apart = (day - today).days
    if abs(apart) >= WEEK_DAYS:
        return None
    if apart == 0:
        return "today"
    if apart == -1:
        return "yesterday"
    if apart == 1:
        return "tomorrow"
    return f"{_count(-apart, 'day')} ago" if apart < 0 else f"in {_count(apart, 'day')}"


def _within_a_day(seconds: float) -> str | None:
    """Under a day away: "just now", "5 minutes ago", "in 3 hours"; None from a day on."""
    size = abs(seconds)
    if size < 45:
        return "just now"
    if size < 45 * 60:
        amount = _count(max(1, round(size / 60)), "minute")
    elif size < 22 * 3600:
        amount = _count(max(1, round(size / 3600)), "hour")
    else:
        return None
    return f"{amount} ago" if seconds < 0 else f"in {amount}"


def _locale(locale: QLocale | None) -> QLocale:
    return locale if locale is not None else QLocale()


def _qdate(day: date) -> QDate:
    return QDate(day.year, day.month, day.day)


def short_date(day: date, locale: QLocale | None = None) -> str:
    """The locale's short date; without a locale (C, e.g. LANG unset) ISO's, not C's "7 11 2026"."""
    shown = _locale(locale)
    if shown.language() == QLocale.Language.C:
        return day.isoformat()
    return shown.toString(_qdate(day), QLocale.FormatType.ShortFormat)


def is_near(when: datetime, now: datetime) -> bool:
    """Said relative to now (within a week) rather than as a date."""
    return abs(when - now) < timedelta(days=WEEK_DAYS)


def relative(when: datetime, now: datetime, *, tz: tzinfo | None = None, locale: QLocale | None = None) -> str:
    """`when` said against `now`: minutes and hours close by, days within a week, else the locale's short date."""
    if is_calendar_date(when):
        day, today = when.astimezone(UTC).date(), now.astimezone(tz).date()
        return _days_apart(day, today) or short_date(day, locale)
    local, local_now = when.astimezone(tz), now.astimezone(tz)
    close = _within_a_day((when - now).total_seconds())
    if close is not None and (local.date() == local_now.date() or abs(when - now) < timedelta(hours=6)):
        return close
    return _days_apart(local.date(), local_now.date()) or short_date(local.date(), locale)


def exact(when: datetime, *, tz: tzinfo | None = None, locale: QLocale | None = None) -> str:
    """The whole moment: the locale's long date, and for a time of day the local time, its zone and UTC."""
    shown = _locale(locale)
    if is_calendar_date(when):
        return shown.toString(_qdate(when.astimezone(UTC).date()), QLocale.FormatType.LongFormat)
    local = when.astimezone(tz)
    clock = shown.toString(QTime(local.hour, local.minute, local.second), QLocale.FormatType.ShortFormat)
    day = shown.toString(_qdate(local.date()), QLocale.FormatType.LongFormat)
    utc = when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"{day}, {clock} {local.tzname() or ''}".rstrip() + f"\n({utc})"


def now_utc() -> datetime:
    return datetime.now(UTC)


def human(
    value: object, now: datetime | None = None, *, tz: tzinfo | None = None, locale: QLocale | None = None
) -> str:
    """A stored time as a person reads it ("—" when there is none; the text itself when it is not a time)."""
    when = parse(value)
    if when is None:
        return NONE if value in (None, "") else str(value)
    return relative(when, now or now_utc(), tz=tz, locale=locale)


def hover(value: object, *, tz: tzinfo | None = None, locale: QLocale | None = None) -> str:
    """The exact time for a tooltip ("" when there is none)."""
    when = parse(value)
    return "" if when is None else exact(when, tz=tz, locale=locale)
