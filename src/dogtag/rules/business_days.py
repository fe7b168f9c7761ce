"""Counting business days: the ordinances' "within 5 business days" (River Hills § 2.14(6)[c]).

Saturdays, Sundays and Wisconsin legal holidays are not counted (`dates.is_business_day`,
s. 801.15(1)(b)); the day of the event is excluded (s. 990.001(4)). The number of days comes
from the pack; this module only counts.
"""

from __future__ import annotations

from datetime import date

from .dates import ONE_DAY, is_business_day


def business_days_after(start: date, count: int) -> date:
    """The `count`th business day after `start` (the day of `start` itself never counts)."""
    day = start
    while count > 0:
        day += ONE_DAY
        if is_business_day(day):
            count -= 1
    return day
