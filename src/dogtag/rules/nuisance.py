"""Nuisance: barking (Benton § 115-11, Webster § 98-12, Sampson Section 5D) and Cedarburg's
citizen complaint procedure for dogs at large (§ 7-1-6(c)(2), used again by § 7-1-10(b))."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from pydantic import Field

from .catalogue import Facts, question
from .decision import Decision
from .schema import Provision, Strict, section
from .spans import choice_notes


class ComplaintCount(Provision):
    """`complaints` formal written complaints, the later filed within `within_days` of the earlier."""

    complaints: int = Field(ge=1)
    within_days: int = Field(ge=0)


class ComplaintProcedure(Provision):
    petition_must_contain: list[str]


@section("nuisance")
class NuisanceSection(Strict):
    barking: Provision | None = None
    barking_complaints: ComplaintCount | None = None
    barking_after_notice: Provision | None = None
    at_large_complaints: ComplaintProcedure | None = None


class Complaint(Facts):
    filed_on: date
    formal_written: bool = True


class BarkingFacts(Facts):
    complaints: list[Complaint] = []
    notice_received_on: date | None = None
    noise_continued_on: date | None = None


@dataclass(frozen=True)
class BarkingAnswer:
    """`decided_by`: the ordinance's test: a count of formal written complaints within a period,
    noise continuing after the written notice, or none (a question of fact for the officer and
    the court, `violation` None). The complaint fields are the count's, None under another test."""

    decided_by: Literal["complaint_count", "noise_after_notice", "question_of_fact"]
    violation: bool | None
    complaints_from: date | None = None
    complaints_to: date | None = None
    complaints_needed: int | None = None
    window_from: date | None = None
    window_to: date | None = None
    complaints_in_window: int | None = None


@question(
    "barking_nuisance",
    facts=BarkingFacts,
    value=BarkingAnswer,
    doc="Is a barking dog (or crying cat) in violation on `on`: enough formal written complaints "
    "within the period, or noise continuing after the written notice?",
)
def barking_nuisance(pack, facts: BarkingFacts, on: date, local) -> Decision:
    s: NuisanceSection | None = pack.nuisance
    if s is not None and s.barking_complaints is not None:
        rule = s.barking_complaints
        filed = sorted(c.filed_on for c in facts.complaints if c.formal_written and c.filed_on <= on)
        n = rule.complaints
        # the period ending on `on`: complaints filed no more than `within_days` days before it
        window_from = on - timedelta(days=rule.within_days)
        counts = {
            "complaints_needed": n,
            "window_from": window_from,
            "window_to": on,
            "complaints_in_window": sum(1 for d in filed if d >= window_from),
        }
        for first, last in zip(filed, filed[n - 1 :], strict=False):
            if last - first <= timedelta(days=rule.within_days):
                return Decision(
                    BarkingAnswer("complaint_count", True, first, last, **counts),
                    (rule.cite.citation,),
                    choice_notes(rule),
                )
        return Decision(
            BarkingAnswer("complaint_count", False, **counts),
            (rule.cite.citation,),
            choice_notes(rule),
        )
    if s is not None and s.barking_after_notice is not None:
        rule = s.barking_after_notice
        after = (
            facts.notice_received_on is not None
            and facts.noise_continued_on is not None
            and facts.noise_continued_on > facts.notice_received_on
            and facts.noise_continued_on <= on
        )
        return Decision(
            BarkingAnswer("noise_after_notice", after),
            (rule.cite.citation,),
            choice_notes(rule),
        )
    cites = (s.barking.cite.citation,) if s is not None and s.barking is not None else ()
    return Decision(
        BarkingAnswer("question_of_fact", None),
        cites,
        (
            "this ordinance sets no complaint count or notice rule; "
            "habitual barking is a question of fact for the officer and the court",
        ),
    )


class AtLargeFacts(Facts):
    complaint_on: date
    police_notice_on: date | None = None
    observed_again_on: date | None = None


@dataclass(frozen=True)
class AtLargeComplaintAnswer:
    """`applies`: the ordinance has the citizen procedure; `next_step` after the complaint, and
    what a petition to the City Attorney must contain."""

    applies: bool
    next_step: Literal["police_written_notice", "petition_city_attorney", "await_repeat_observation"] | None = None
    petition_must_contain: tuple[str, ...] = ()


@question(
    "at_large_complaint",
    facts=AtLargeFacts,
    value=AtLargeComplaintAnswer,
    doc="Cedarburg's citizen procedure for a dog at large: the next step after a complaint, and "
    "what a petition to the City Attorney must contain.",
)
def at_large_complaint(pack, facts: AtLargeFacts, on: date, local) -> Decision:
    s: NuisanceSection | None = pack.nuisance
    if s is None or s.at_large_complaints is None:
        notes = ("this ordinance has no citizen complaint procedure for dogs at large",)
        return Decision(AtLargeComplaintAnswer(applies=False), (), notes)
    rule = s.at_large_complaints
    if facts.police_notice_on is None:
        step = "police_written_notice"
    elif facts.observed_again_on is not None and facts.police_notice_on < facts.observed_again_on <= on:
        step = "petition_city_attorney"
    else:
        step = "await_repeat_observation"
    value = AtLargeComplaintAnswer(True, step, tuple(rule.petition_must_contain))
    return Decision(value, (rule.cite.citation,), choice_notes(rule))
