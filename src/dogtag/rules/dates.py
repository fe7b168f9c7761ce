"""Calendar arithmetic the ordinances need; no legal figure lives here (periods come from packs).

- `plus(start, period)`: a date a period after another. Months and years that land past the end
  of a shorter month land on its last day (birth 2024-09-30 + 5 months -> 2025-02-28).
- `last_day_within(start, period, extend)`: "within N days after" an event, s. 990.001(4):
  exclude the day of the event, include the last day; when `extend` (the pack's
  `time.last_day_extension`) a last day on a Sunday or legal holiday moves to the next secular
  day.
- `is_legal_holiday(d)`: the s. 995.20 days pinned in wi.yaml (`time.legal_holidays`, with why the
  `holidays` package's Wisconsin calendar is not used as is); `is_business_day(d)`: not a
  Saturday, Sunday or legal holiday (s. 801.15(1)(b), as the ordinances' "business days" are read).
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from functools import cache

from .schema import Period

ONE_DAY = timedelta(days=1)


def plus_months(start: date, months: int) -> date:
    total = start.month - 1 + months
    year, month = start.year + total // 12, total % 12 + 1
    day = start.day if start.day <= 28 else min(start.day, calendar.monthrange(year, month)[1])
    return date(year, month, day)


def plus(start: date, period: Period) -> date:
    if period.days is not None:
        return start + timedelta(days=period.days)
    if period.months is not None:
        return plus_months(start, period.months)
    return plus_months(start, 12 * period.years)


@cache
def legal_holidays(year: int) -> dict[date, str]:
    """The year's legal holidays (s. 995.20) as the state pack pins them: {day: name}."""
    from .packs import load_pack  # the state pack; loaded once, and never while loading dates

    time = load_pack("wi").time
    rule = time.legal_holidays if time is not None else None
    return {} if rule is None else {h.of(year): h.name for h in rule.days}


def is_legal_holiday(day: date) -> bool:
    return day in legal_holidays(day.year)


def is_business_day(day: date) -> bool:
    return day.weekday() < 5 and not is_legal_holiday(day)


def next_secular_day(day: date) -> date:
    while day.weekday() == 6 or is_legal_holiday(day):
        day += ONE_DAY
    return day


def last_day_within(start: date, period: Period, extend: bool) -> date:
    last = plus(start, period)
    return next_secular_day(last) if extend else last
