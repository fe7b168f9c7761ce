"""One computation of time for every period the engine gives (s. 990.001(4)); the state pack's
`time` section holds its words, the calendars (`calendars`) and their citations.

- `last_day(start, period)`: days, months or years after an event. The day of the event is
  excluded and the last day included (s. 990.001(4)(a)); months and years land on the same day
  of the month, or the last day of a shorter month (`dates.plus`). A last day on a Sunday or
  legal holiday moves to the next secular day (s. 990.001(4)(b)).
- `named_day(day)`: a last day the law names ("prior to April 1": March 31; "by January 1"),
  moved the same way.
- `hours_after(start, hours)`: the whole of every Sunday and legal holiday, midnight to midnight,
  is left out of the count (s. 990.001(4)(a)).
- `business_days_after(start, n)`: the `n`th court day after `start` (s. 801.15(1)(a) holidays,
  Saturdays and Sundays not counted), or with `holidays="legal"` only s. 995.20's legal holidays.

A provision whose last day deliberately does not move says so with `not_moved: <reason>`; the
answer then notes the reason when the day it gives is a Sunday or legal holiday. Each moved day
cites s. 990.001(4) with its words (and s. 995.20 when a holiday moved it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from .calendars import (
    ONE_DAY,
    CourtHolidays,
    Elections,
    LegalHolidays,
    court_holidays,
    is_court_day,
    is_secular_day,
    legal_holiday_name,
)
from .dates import plus
from .decision import Citation
from .schema import Period, Provision, Strict, section

AWAITING_RULING = "Dogtag's reading, awaiting the municipality's ruling"


class LastDayExtension(Provision):
    extend: bool


@section("time")
class TimeSection(Strict):
    """`computation`: first day excluded, last included; `hours`: Sundays and legal holidays left out
    of hours (both s. 990.001(4)(a)); `last_day_extension`: s. 990.001(4)(b)."""

    computation: Provision | None = None
    hours: Provision | None = None
    last_day_extension: LastDayExtension | None = None
    legal_holidays: LegalHolidays | None = None
    elections: Elections | None = None
    court_holidays: CourtHolidays | None = None


@dataclass(frozen=True, slots=True)
class Counted:
    """`day`: the last day (or moment) after any move; `counted`: the day the count itself ends on."""

    day: Any
    counted: Any
    citations: tuple[Citation, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def moved(self) -> bool:
        return self.day != self.counted


def _time() -> TimeSection | None:
    from .packs import load_pack  # the state pack governs computing time in every municipality

    return load_pack("wi").time


def on_paper(day: date) -> str:
    return f"{day:%A}, {day:%B} {day.day}, {day.year}"


def at_on_paper(at: datetime) -> str:
    hour = at.hour % 12 or 12
    return f"{on_paper(at.date())}, at {hour}:{at:%M} {'a.m.' if at.hour < 12 else 'p.m.'}"


def _what(day: date) -> str:
    name = legal_holiday_name(day)
    if name is not None:
        return f"a legal holiday ({name})"
    return "a Sunday"


def _secular(counted: date, not_moved: str | None) -> Counted:
    if is_secular_day(counted):
        return Counted(counted, counted)
    t = _time()
    ext = t.last_day_extension if t is not None else None
    if not_moved or ext is None or not ext.extend:
        why = not_moved or "this law does not move a last day"
        note = f"the last day, {on_paper(counted)}, is {_what(counted)} and is not moved: {why} ({AWAITING_RULING})"
        return Counted(counted, counted, (), (note,))
    day, holiday = counted, False
    while not is_secular_day(day):
        holiday = holiday or legal_holiday_name(day) is not None
        day += ONE_DAY
    cites = [ext.cite.citation]
    if holiday and t.legal_holidays is not None:
        cites += t.legal_holidays.citations()
    note = (
        f"the last day counted, {on_paper(counted)}, is {_what(counted)}: the act may be done on the "
        f"next secular day, {on_paper(day)} (s. 990.001(4)(b))"
    )
    return Counted(day, counted, tuple(cites), (note,))


def last_day(start: date, period: Period | int, *, not_moved: str | None = None) -> Counted:
    """The last day of `period` (a `Period`, or a number of days) after `start`."""
    counted = plus(start, Period(days=period) if isinstance(period, int) else period)
    return _secular(counted, not_moved)


def named_day(day: date, *, not_moved: str | None = None) -> Counted:
    return _secular(day, not_moved)


def hours_after(start: datetime, hours: int, *, not_moved: str | None = None) -> Counted:
    """`hours` after `start` with the whole of Sundays and legal holidays left out (unless `not_moved`)."""
    clock = start + timedelta(hours=hours)
    if not_moved:
        return Counted(clock, clock)
    at, left, skipped = start, timedelta(hours=hours), []
    while left > timedelta(0):
        midnight = datetime.combine(at.date() + ONE_DAY, time.min, tzinfo=at.tzinfo)
        if not is_secular_day(at.date()):
            skipped.append(at.date())
            at = midnight
            continue
        step = min(left, midnight - at)
        at, left = at + step, left - step
    if not skipped:
        return Counted(at, clock)
    t = _time()
    cites = [t.hours.cite.citation] if t is not None and t.hours is not None else []
    if any(legal_holiday_name(d) for d in skipped) and t is not None and t.legal_holidays is not None:
        cites += t.legal_holidays.citations()
    days = "; ".join(f"{on_paper(d)}, {_what(d)}" for d in skipped)
    note = f"{hours} hours counted without the whole of {days} (s. 990.001(4)(a)): due {at_on_paper(at)}"
    return Counted(at, clock, tuple(cites), (note,))


def business_days_after(start: date, count: int, holidays: str = "court") -> Counted:
    """The `count`th business day after `start` (the day of `start` itself never counts): a weekday
    that is not a holiday of s. 801.15(1)(a) (`holidays="court"`), or, on the other reading of an
    ordinance's "business days", not a legal holiday of s. 995.20 (`holidays="legal"`)."""
    day, skipped = start, []
    while count > 0:
        day += ONE_DAY
        if (is_court_day if holidays == "court" else _weekday_not_legal_holiday)(day):
            count -= 1
        elif day.weekday() < 5:
            skipped.append(day)
    if not skipped:
        return Counted(day, day)
    t = _time()
    if holidays == "court":
        cites = [t.court_holidays.cite.citation] if t is not None and t.court_holidays is not None else []
        names = ", ".join(f"{on_paper(d)} ({court_holidays(d.year)[d]})" for d in skipped)
        which = "holidays of s. 801.15(1)(a)"
    else:
        cites = list(t.legal_holidays.citations()) if t is not None and t.legal_holidays is not None else []
        names = ", ".join(f"{on_paper(d)} ({legal_holiday_name(d)})" for d in skipped)
        which = "legal holidays of s. 995.20"
    note = f"not counted as business days: {names} ({which}; that 'business days' skips them is {AWAITING_RULING})"
    return Counted(day, day, tuple(cites), (note,))


def _weekday_not_legal_holiday(day: date) -> bool:
    return day.weekday() < 5 and legal_holiday_name(day) is None
