"""The two Wisconsin calendars the computation of time reads, computed from the state pack's
`time` section (never a list of dates):

- legal holidays (s. 995.20): the days it names, the partisan primary and the general election
  of the years they are held, and the Monday after a legal holiday that falls on a Sunday;
- court holidays (s. 801.15(1)(a)): the legal holidays, the state offices' holidays of
  s. 230.35(4)(a) and the whole of Good Friday. A court day is a weekday that is none of them.

`elections(year)`: the statutory election days of a year (s. 5.02), held or not.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import cache
from typing import Literal

from dateutil.easter import easter

from .schema import Provision, Strict

ONE_DAY = timedelta(days=1)


class DayOfYear(Strict):
    """A fixed day (`month`, `day`) or the `nth` `weekday` (0 = Monday) of `month` (-1: the last),
    `plus_days` after it ("the Tuesday after the first Monday in November": Monday, nth 1, plus 1);
    `years: even`: held only in even-numbered years."""

    name: str
    month: int
    day: int | None = None
    weekday: int | None = None
    nth: int | None = None
    plus_days: int = 0
    years: Literal["every", "even"] = "every"

    def of(self, year: int) -> date | None:
        if self.years == "even" and year % 2:
            return None
        if self.day is not None:
            found = date(year, self.month, self.day)
        elif self.nth > 0:
            first = date(year, self.month, 1)
            found = first + timedelta(days=(self.weekday - first.weekday()) % 7 + 7 * (self.nth - 1))
        else:
            last = date(year + self.month // 12, self.month % 12 + 1, 1) - ONE_DAY
            found = last - timedelta(days=(last.weekday() - self.weekday) % 7)
        return found + timedelta(days=self.plus_days)


class Elections(Provision):
    """The statutory days of the regular elections, by name (`spring_primary`, `partisan_primary`, ...)."""

    days: list[DayOfYear]


class LegalHolidays(Provision):
    """s. 995.20: `days` it names; `elections` the election days it makes legal holidays (names in
    `time.elections`); `sunday_moves_to_monday`: a legal holiday on a Sunday makes the Monday one."""

    days: list[DayOfYear]
    elections: list[str] = []
    sunday_moves_to_monday: bool = False


class CourtHolidays(Provision):
    """s. 801.15(1)(a): the legal holidays plus `state_office_holidays` (s. 230.35(4)(a)), the day
    following those named in `monday_after_sunday` when they fall on a Sunday, and Good Friday."""

    state_office_holidays: list[DayOfYear]
    monday_after_sunday: list[str] = []
    good_friday: bool = False


def _time():
    from .packs import load_pack  # the state pack; loaded once, and never while loading this module

    return load_pack("wi").time


@cache
def elections(year: int) -> dict[str, date | None]:
    """The year's election days by name; None where that election is not held that year."""
    time = _time()
    rule = time.elections if time is not None else None
    return {} if rule is None else {d.name: d.of(year) for d in rule.days}


@cache
def legal_holidays(year: int) -> dict[date, str]:
    """{day: name} of the year's legal holidays (s. 995.20)."""
    time = _time()
    rule = time.legal_holidays if time is not None else None
    if rule is None:
        return {}
    days: dict[date, str] = {}
    for d in rule.days:
        days[d.of(year)] = d.name
    held = elections(year)
    for name in rule.elections:
        if held.get(name) is not None:
            days[held[name]] = name.replace("_", " ").capitalize() + " day"
    if rule.sunday_moves_to_monday:
        for day, name in list(days.items()):
            if day.weekday() == 6:
                days[day + ONE_DAY] = f"{name} (on Sunday: the Monday is the legal holiday)"
    return dict(sorted(days.items()))


@cache
def court_holidays(year: int) -> dict[date, str]:
    """{day: name}: the holidays of s. 801.15(1)(a) (legal holidays, state offices' holidays, Good Friday)."""
    time = _time()
    rule = time.court_holidays if time is not None else None
    days = dict(legal_holidays(year))
    if rule is None:
        return days
    for d in rule.state_office_holidays:
        day = d.of(year)
        days.setdefault(day, d.name)
        if d.name in rule.monday_after_sunday and day.weekday() == 6:
            days.setdefault(day + ONE_DAY, f"the day following {d.name}, which falls on a Sunday")
    if rule.good_friday:
        days.setdefault(easter(year) - 2 * ONE_DAY, "Good Friday")
    return dict(sorted(days.items()))


def legal_holiday_name(day: date) -> str | None:
    return legal_holidays(day.year).get(day)


def is_legal_holiday(day: date) -> bool:
    return day in legal_holidays(day.year)


def is_secular_day(day: date) -> bool:
    """Not a Sunday and not a legal holiday (s. 990.001(4)(b)'s "next secular day")."""
    return day.weekday() != 6 and day not in legal_holidays(day.year)


def is_court_day(day: date) -> bool:
    """Not a Saturday, Sunday or holiday of s. 801.15(1)(a)."""
    return day.weekday() < 5 and day not in court_holidays(day.year)
