"""Provisions that are a span of time, shared by the animal-control topics."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from pydantic import Field, model_validator

from .business_days import business_days_after
from .dates import last_day_within
from .decision import Citation
from .schema import Period, Provision

ALTERNATIVE = "the other reading"


def choice_notes(rule: Provision) -> tuple[str, ...]:
    """The reading a provision picked on ambiguous text, as a decision note; where the text allows
    two, the other reading and what it would change, as a second note."""
    if not rule.choice:
        return ()
    if rule.alternative is None:
        return (rule.choice,)
    other = rule.alternative
    return (rule.choice, f"{ALTERNATIVE}: {other.reading}; it would change: {other.would_change}")


class Days(Provision):
    days: int = Field(ge=0)

    def after(self, start: date) -> date:
        """The last day of "within N days after" `start` (s. 990.001(4): first day excluded)."""
        return start + timedelta(days=self.days)


class BusinessDays(Provision):
    business_days: int = Field(ge=0)

    def after(self, start: date) -> date:
        return business_days_after(start, self.business_days)


class Hours(Provision):
    hours: int = Field(ge=0)

    def after(self, start: datetime) -> datetime:
        return start + timedelta(hours=self.hours)


class DayRange(Provision):
    """From the `first_day`th to the `last_day`th day after an event, both included."""

    first_day: int = Field(ge=0)
    last_day: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> DayRange:
        if self.first_day > self.last_day:
            raise ValueError("first_day comes after last_day")
        return self

    def after(self, start: date) -> tuple[date, date]:
        return start + timedelta(days=self.first_day), start + timedelta(days=self.last_day)


def last_day(days: int, start: date, pack) -> tuple[date, list[Citation]]:
    """The last day to act "within `days` days" of `start`, moved past a Sunday or legal holiday
    when the pack's `time.last_day_extension` says so (s. 990.001(4)); with the citation of the
    extension when it moved the day."""
    ext = pack.time.last_day_extension if pack.time is not None else None
    last = last_day_within(start, Period(days=days), ext is not None and ext.extend)
    moved = last != start + timedelta(days=days)
    return last, [ext.cite.citation] if moved else []
