"""The one computation of time (s. 990.001(4)) on its own: days, named days, hours, court days."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from dogtag.rules import time
from dogtag.rules.schema import Period


@pytest.mark.parametrize(
    "start, period, last",
    [
        (date(2026, 6, 1), 30, date(2026, 7, 1)),  # first day excluded, last included
        (date(2026, 10, 27), 7, date(2026, 11, 4)),  # November 3, 2026: general election day
        (date(2026, 12, 17), 7, date(2026, 12, 24)),  # December 24 is no legal holiday
        (date(2026, 12, 18), 7, date(2026, 12, 26)),  # Christmas, then Saturday is a secular day
        (date(2022, 12, 26), 6, date(2023, 1, 3)),  # Sunday January 1, 2023, and Monday the 2nd its legal holiday
        (date(2026, 6, 9), 10, date(2026, 6, 20)),  # Juneteenth
        (date(2025, 9, 30), Period(months=5), date(2026, 2, 28)),  # end of a shorter month; a Saturday
        (date(2024, 2, 29), Period(years=1), date(2025, 2, 28)),
        (date(2025, 8, 31), Period(months=6), date(2026, 2, 28)),  # a Saturday is a secular day: no move
    ],
)
def test_a_last_day(start, period, last):
    counted = time.last_day(start, period)
    assert counted.day == last
    assert counted.moved == (counted.counted != last)
    if counted.moved:
        assert "s. 990.001(4)(b)" in [c.section for c in counted.citations]


def test_a_day_not_moved_keeps_its_day_and_says_why_only_when_it_matters():
    kept = time.last_day(date(2026, 2, 1), Period(months=1), not_moved="a period of observation")
    assert kept.day == date(2026, 3, 1) and not kept.citations  # Sunday March 1, 2026
    assert "is not moved: a period of observation" in kept.notes[0]
    weekday = time.last_day(date(2026, 2, 2), Period(months=1), not_moved="a period of observation")
    assert weekday.day == date(2026, 3, 2) and weekday.notes == ()


@pytest.mark.parametrize(
    "day, due",
    [
        (date(2027, 1, 1), date(2027, 1, 2)),  # a Friday holiday: Saturday is the next secular day
        (date(2028, 1, 1), date(2028, 1, 3)),  # a Saturday holiday, then Sunday
        (date(2024, 3, 31), date(2024, 4, 1)),  # 'prior to April 1' in 2024 ends on a Sunday
        (date(2026, 3, 31), date(2026, 3, 31)),
    ],
)
def test_a_named_day(day, due):
    assert time.named_day(day).day == due


@pytest.mark.parametrize(
    "start, hours, due",
    [
        (datetime(2026, 5, 2, 10), 24, datetime(2026, 5, 4, 10)),  # Saturday -> Monday, Sunday left out
        (datetime(2026, 5, 3, 10), 24, datetime(2026, 5, 5, 0)),  # begun on a Sunday: counts from Monday 0:00
        (datetime(2026, 7, 3, 18), 24, datetime(2026, 7, 6, 18)),  # Friday; Saturday July 4 and Sunday left out
        (datetime(2026, 11, 2, 12), 24, datetime(2026, 11, 4, 12)),  # election day left out
        (datetime(2026, 5, 5, 9), 48, datetime(2026, 5, 7, 9)),  # weekdays: clock hours
    ],
)
def test_hours_leave_out_the_whole_of_sundays_and_legal_holidays(start, hours, due):
    counted = time.hours_after(start, hours)
    assert counted.day == due
    assert bool(counted.citations) == (due != counted.counted)


@pytest.mark.parametrize(
    "start, n, due",
    [
        (date(2026, 12, 21), 5, date(2026, 12, 30)),  # December 24 and 25 skipped
        (date(2026, 3, 30), 5, date(2026, 4, 7)),  # Good Friday skipped
        (date(2026, 12, 28), 3, date(2027, 1, 4)),  # December 31 and January 1 skipped
        (date(2026, 5, 4), 5, date(2026, 5, 11)),  # an ordinary week
    ],
)
def test_business_days_are_court_days(start, n, due):
    assert time.business_days_after(start, n).day == due
