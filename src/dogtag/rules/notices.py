"""When a notice is effective: River Hills § 2.14(6)[c](4) and the door posting of [i]."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Annotated, Literal

from .catalogue import Facts, PackSet, PackValues, named_by, question
from .decision import Decision
from .schema import Provision, Strict, section
from .spans import Days


@section("notices")
class NoticesSection(Strict):
    regular_mail: Days | None = None
    certified_mail: Provision | None = None
    refused_certified_mail: Provision | None = None
    personal_service: Provision | None = None
    door_posting: Provision | None = None


Method = Literal["regular_mail", "certified_mail", "personal_service", "door_posting"]


@cache
def _methods(pack) -> PackValues | None:
    s: NoticesSection | None = pack.notices
    if s is None:
        return None
    named = [(m, getattr(s, m)) for m in Method.__args__ if getattr(s, m) is not None]
    return named_by("notices", [r for _, r in named], [m for m, _ in named]) if named else None


class NoticeFacts(Facts):
    method: Annotated[
        Method,
        PackSet(
            "NoticeMethod",
            _methods,
            "a method of notice the ordinance sets a rule for",
            other="one it sets no rule for: the answer says so (rule_set false)",
        ),
    ]
    mailed_on: date | None = None
    received_on: date | None = None
    served_on: date | None = None
    refused: bool = False
    posted_on: date | None = None
    published_on: date | None = None


class YearFacts(Facts):
    year: int


@dataclass(frozen=True)
class LegalHoliday:
    day: date
    name: str


@dataclass(frozen=True)
class LegalHolidaysAnswer:
    """`pinned`: the law pins its legal holidays (false: none are listed, `holidays` is empty)."""

    pinned: bool
    holidays: tuple[LegalHoliday, ...] = ()


@question(
    "legal_holidays",
    facts=YearFacts,
    value=LegalHolidaysAnswer,
    doc="The Wisconsin legal holidays of a year (s. 995.20) past which a last day moves and which hours "
    "leave out (s. 990.001(4)): [{day, name}], computed from the state pack's words (election days included).",
)
def legal_holidays_of(pack, facts: YearFacts, on: date, local) -> Decision:
    from .calendars import legal_holidays

    rule = pack.time.legal_holidays if pack.time is not None else None
    if rule is None:
        return Decision(LegalHolidaysAnswer(False), (), ("this law pins no legal holidays",))
    days = tuple(LegalHoliday(d, n) for d, n in sorted(legal_holidays(facts.year).items()))
    return Decision(LegalHolidaysAnswer(True, days), (rule.cite.citation,), (rule.choice,) if rule.choice else ())


def _needs(fact: str) -> ValueError:
    return ValueError(f"{fact} is required for this method of notice")


@dataclass(frozen=True)
class NoticeEffective:
    """`rule_set`: the ordinance sets when this notice takes effect; `effective_on` the day it does;
    `awaiting` what must happen first when that day is not yet known (certified mail refused)."""

    rule_set: bool
    effective_on: date | None = None
    awaiting: Literal["posting_or_publication"] | None = None


@question(
    "notice_effective",
    facts=NoticeFacts,
    value=NoticeEffective,
    doc="The day a notice to an owner takes effect: regular mail, certified mail (received or "
    "refused, then posting or publication), personal service, posting on the door.",
)
def notice_effective(pack, facts: NoticeFacts, on: date, local) -> Decision:
    s: NoticesSection | None = pack.notices
    rule = None if s is None else getattr(s, "refused_certified_mail" if facts.refused else facts.method)
    if rule is None:
        return Decision(
            NoticeEffective(rule_set=False), (), ("this ordinance sets no rule for when this notice is effective",)
        )
    notes = (rule.choice,) if rule.choice else ()
    if facts.method == "regular_mail":
        if facts.mailed_on is None:
            raise _needs("mailed_on")
        counted = rule.count(facts.mailed_on)
        cites = (rule.cite.citation, *counted.citations)
        return Decision(NoticeEffective(True, counted.day), cites, notes + counted.notes)
    if facts.refused:
        days = [d for d in (facts.posted_on, facts.published_on) if d is not None]
        if not days:
            return Decision(
                NoticeEffective(True, awaiting="posting_or_publication"),
                (rule.cite.citation,),
                ("certified mail was refused: the notice takes effect when posted or published",),
            )
        return Decision(NoticeEffective(True, min(days)), (rule.cite.citation,), notes)
    given = {
        "certified_mail": ("received_on", facts.received_on),
        "personal_service": ("served_on", facts.served_on),
        "door_posting": ("posted_on", facts.posted_on),
    }[facts.method]
    if given[1] is None:
        raise _needs(given[0])
    return Decision(NoticeEffective(True, given[1]), (rule.cite.citation,), notes)
