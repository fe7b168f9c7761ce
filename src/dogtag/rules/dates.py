"""Calendar arithmetic; no legal figure lives here (periods come from packs, the computation of
time under s. 990.001(4) is `rules.time`, the calendars `rules.calendars`).

- `plus(start, period)`: a date a period after another. Months and years that land past the end
  of a shorter month land on its last day (birth 2024-09-30 + 5 months -> 2025-02-28).
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta

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
