"""Human times against a fixed now, time zone and locale: relative close by, the locale's date further away."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from PySide6.QtCore import QLocale

from memvault.desktop.gui import human_time

NOW = datetime(2026, 11, 5, 14, 30, tzinfo=UTC)  # a Thursday afternoon
BRITISH = QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom)
AMERICAN = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
GERMAN = QLocale(QLocale.Language.German, QLocale.Country.Germany)


def said(value: str, *, tz: timezone = UTC, locale: QLocale = BRITISH) -> str:
    return human_time.human(value, NOW, tz=tz, locale=locale)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-11-05T14:29:40.000Z", "just now"),
        ("2026-11-05T14:25:00.000Z", "5 minutes ago"),
        ("2026-11-05T14:29:00Z", "1 minute ago"),
        ("2026-11-05T11:30:00.000Z", "3 hours ago"),
        ("2026-11-05T17:30:00.000Z", "in 3 hours"),
        ("2026-11-04T09:00:00.000Z", "yesterday"),
        ("2026-11-02T10:00:00.000Z", "3 days ago"),
        ("2026-11-08T10:00:00.000Z", "in 3 days"),
        ("2026-11-06T10:00:00.000Z", "tomorrow"),
        ("2026-10-20T10:00:00.000Z", "20/10/2026"),  # older than a week: the locale's date
        ("2027-03-01T10:00:00.000Z", "01/03/2027"),
    ],
)
def test_relative_close_by_and_dates_further_away(value: str, expected: str) -> None:
    assert said(value) == expected


def test_older_dates_follow_the_locale() -> None:
    value = "2026-10-20T10:00:00.000Z"
    assert said(value, locale=AMERICAN) == "10/20/26"
    assert said(value, locale=GERMAN) == "20.10.26"


def test_midnight_utc_is_a_calendar_date_never_shifted_by_the_time_zone() -> None:
    # A valid-from typed as 2026-11-02: three days before the 5th wherever the person lives.
    for tz in (UTC, timezone(timedelta(hours=-8)), timezone(timedelta(hours=9))):
        assert said("2026-11-02T00:00:00.000Z", tz=tz) == "3 days ago"
        assert said("2026-11-05T00:00:00.000Z", tz=tz) in ("today", "yesterday", "tomorrow")
    assert said("2026-11-05T00:00:00.000Z") == "today"
    assert said("2026-01-10T00:00:00.000Z") == "10/01/2026"
    assert human_time.hover("2026-11-02T00:00:00.000Z", locale=BRITISH) == "Monday, 2 November 2026"


def test_the_local_day_decides_yesterday() -> None:
    # 02:00 UTC on the 5th is still the 4th in New York (UTC-5): eleven hours before now there... and yesterday.
    new_york = timezone(timedelta(hours=-5))
    assert said("2026-11-05T02:00:00.000Z", tz=new_york) == "yesterday"
    assert said("2026-11-05T02:00:00.000Z") == "12 hours ago"  # the same day in UTC


def test_the_exact_time_for_hover_names_the_local_time_and_utc() -> None:
    berlin = timezone(timedelta(hours=1), "CET")
    text = human_time.hover("2026-11-02T08:15:30.000Z", tz=berlin, locale=BRITISH)
    assert text.splitlines() == ["Monday, 2 November 2026, 09:15 CET", "(2026-11-02 08:15:30 UTC)"]


def test_empty_and_odd_values() -> None:
    assert said("") == "—"
    assert human_time.human(None, NOW) == "—"
    assert said("not a time") == "not a time"
    assert human_time.hover(None) == ""
    assert human_time.parse("2026-11-02T08:15:30+02:00") == datetime(2026, 11, 2, 6, 15, 30, tzinfo=UTC)
    assert human_time.parse("2025-01-10") == datetime(2025, 1, 10, tzinfo=UTC)


def test_without_a_locale_dates_are_iso_not_cs_digits() -> None:
    assert said("2026-10-20T10:00:00.000Z", locale=QLocale.c()) == "2026-10-20"
