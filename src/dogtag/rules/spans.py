"""Provisions that are a span of time, shared by the animal-control topics; each counts through
`rules.time` (s. 990.001(4)), moving a last day unless the provision says `not_moved`."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field, model_validator

from . import time
from .dates import plus
from .schema import Period, Provision

ALTERNATIVE = "the other reading"


def choice_notes(rule: Provision) -> tuple[str, ...]:
    """The reading a provision picked on ambiguous text, as a decision note; where the text allows
    two, the other reading and what it would change, as a second note."""
    if not rule.choice:
        return ()
    if rule.reading is None or rule.reading.other is None:
        return (rule.choice,)
    other = rule.reading.other
    further = tuple(f"a further reading: {f.choice}; it would change: {f.changes}" for f in rule.reading.further)
    return (rule.choice, f"{ALTERNATIVE}: {other.choice}; it would change: {other.changes}", *further)


class Days(Provision):
    days: int = Field(ge=0)

    def count(self, start: date) -> time.Counted:
        """The last day of "within N days after" `start` (s. 990.001(4))."""
        return time.last_day(start, self.days, not_moved=self.not_moved)

    def after(self, start: date) -> date:
        return self.count(start).day


class BusinessDays(Provision):
    """`holidays`: the days an ordinance's "business days" skip besides Saturdays and Sundays: the
    holidays of s. 801.15(1)(a) (`court`) or only the legal holidays of s. 995.20 (`legal`)."""

    business_days: int = Field(ge=0)
    holidays: Literal["court", "legal"] = "court"

    def count(self, start: date) -> time.Counted:
        return time.business_days_after(start, self.business_days, self.holidays)

    def after(self, start: date) -> date:
        return self.count(start).day


class Hours(Provision):
    hours: int = Field(ge=0)

    def count(self, start: datetime) -> time.Counted:
        return time.hours_after(start, self.hours, not_moved=self.not_moved)

    def after(self, start: datetime) -> datetime:
        return self.count(start).day


class DayRange(Provision):
    """From the `first_day`th to the `last_day`th day after an event, both included; the last day
    moves past a Sunday or legal holiday (s. 990.001(4)), the first does not."""

    first_day: int = Field(ge=0)
    last_day: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> DayRange:
        if self.first_day > self.last_day:
            raise ValueError("first_day comes after last_day")
        return self

    def count(self, start: date) -> tuple[date, time.Counted]:
        return plus(start, Period(days=self.first_day)), time.last_day(start, self.last_day, not_moved=self.not_moved)

    def after(self, start: date) -> tuple[date, date]:
        first, last = self.count(start)
        return first, last.day
