"""Dangerous and vicious dogs: classification, the contest, hearing, compliance and appeal
deadlines, each requirement's deadline, the vicious-dog permit fee, waivers and removal.

River Hills § 2.14(6) in full; Benton's vicious-dog subsection, Webster § 98-6B and § 98-23 and
Cedarburg § 7-1-6(b) in their own terms. Which reading of the classification applies is the
pack's `classification.scheme`; every number comes from the pack.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from typing import Annotated, Literal

from pydantic import Field

from .amounts import amount_at
from .catalogue import Facts, PackSet, PackValues, named_by, question
from .dangerous_dog_custody import DeclaredClass, EscapeNotice, FailureToComply, TransferRestriction
from .dates import plus_months
from .decision import CENT, Decision
from .schema import Amount, Dated, Money, Provision, Strict, section
from .spans import BusinessDays, DayRange, Days, Hours, choice_notes
from .time import Counted, business_days_after, last_day

Class = Literal["potentially_dangerous", "dangerous", "vicious"]
IncidentKind = Literal["threat", "attack", "injury", "bite_injury", "serious_injury", "killed"]
Victim = Literal["person", "domestic_animal", "livestock"]


Ground = Literal[
    # injury_tiers (potentially dangerous, dangerous, vicious)
    "serious_injury_on_separate_occasions",
    "bite_or_injury",
    "repeated_within_period",
    "at_large_threat_or_injury",
    "rabies_nonconformity",
    # vicious_by_conduct
    "propensity",
    "unprovoked_attack",
    "fighting",
    "breed",
    # vicious_by_bite_within_period (and "propensity")
    "bite_within_period",
]


class InForce(Provision):
    """The days a section is in force, as dated values (`{2014-10-08: true}`; `null` ends it), its
    history note cited: on a day it is not, the question answers so, and `instead` says in the
    pack's words what governs then."""

    days: Dated[bool]
    instead: str


class Classification(Provision):
    """`scheme` names how the ordinance defines the classes:

    - `injury_tiers`: potentially dangerous, dangerous and vicious by the harm done, where, and on
      how many separate occasions (a three-tier ordinance);
    - `vicious_by_conduct`: vicious on any one of a propensity shown by conduct, an unprovoked
      attack on one of `victims`, fighting, or a listed breed (`breeds`);
    - `vicious_by_bite_within_period`: vicious on `occasions` unprovoked bites or serious injuries to a
      person off the owner's premises within `within_months`, or a propensity to attack or bite.

    `cite` is the definition as a whole (cited when no ground is met); each ground found cites its
    own words from `grounds`.
    """

    scheme: Literal["injury_tiers", "vicious_by_conduct", "vicious_by_bite_within_period"]
    classes: list[Class]
    occasions: int = Field(default=1, ge=1)
    within_months: int | None = None
    # vicious_by_bite_within_period and injury_tiers' repeated occasions: `any` twelve-month period
    # ("within any twelve (12) month period"), or only the one `ending_on_decision`
    period: Literal["any", "ending_on_decision"] = "ending_on_decision"
    breeds: list[str] = []
    victims: list[Victim] = ["person", "domestic_animal"]
    grounds: dict[Ground, Provision] = {}
    in_force: InForce | None = None


class Exceptions(Provision):
    excuses: list[str]
    law_enforcement_dog: bool = False


# Each requirement a declaration brings, by the name the packs give it.
RequirementName = Literal[
    "spay_neuter", "identification_photographs", "signs", "liability_insurance", "vicious_dog_permit", "dna_test"
]


class Requirement(Provision):
    name: RequirementName
    classes: list[Class]
    mandatory: bool = True
    days: int | None = Field(default=None, ge=0)
    business_days: int | None = Field(default=None, ge=0)
    holidays: Literal["court", "legal"] = "court"  # which holidays `business_days` skip (spans.BusinessDays)
    # `compliance`: due on the ordinance's compliance deadline (Benton § 115-5B(5)), after the
    # determination or an unsuccessful appeal, with no period of its own.
    runs_from: Literal["declaration", "determination", "written_notice", "before_permit", "compliance"] = "declaration"
    stayed_by_contest: bool = False
    amount: Money | None = None
    upon_acquisition: bool = False  # also due the day a dog declared elsewhere is acquired (moved in)


class DeclaredElsewhereRequirements(Provision):
    """From when the requirements of a dog declared elsewhere run, where the text sets no day:
    the day the police and clerk learned of the dog (the owner's notice, else the village's
    registration of the dog), or the day it moved in."""

    runs_from: Literal["notice_or_registration", "moved_in"]


class PermitFee(Provision):
    """`proration`: how a first-year fee is prorated where the text says only "prorated": `by_day`
    (the days left in the year, the day of issue included, over the year's days) or `none`. The
    pack's reading, answered beside the fee (`method`, `remaining` of `of`) so the clerk sees it."""

    amount: Amount
    prorate_first_year: bool
    proration: Literal["by_day", "none"] = "none"


class Waiver(Provision):
    """`also_classifications`: other classes the same waiver reaches (where a reading so holds)."""

    classification: Class
    years: int = Field(ge=0)
    rescind_within_days: int | None = None
    also_classifications: list[Class] = []


@section("dangerous_dogs")
class DangerousDogsSection(Strict):
    classification: Classification | None = None
    prima_facie: Provision | None = None
    exceptions: Exceptions | None = None
    contest: BusinessDays | None = None
    hearing_window: DayRange | None = None
    compliance: Days | None = None
    compliance_after_appeal: Days | None = None
    appeal: BusinessDays | None = None
    requirements: list[Requirement] = []
    permit_fee: PermitFee | None = None
    waivers: list[Waiver] = []
    removal: Hours | None = None
    declared_elsewhere: Days | None = None
    declared_elsewhere_requirements: DeclaredElsewhereRequirements | None = None
    transfer: TransferRestriction | None = None
    escape_notice: EscapeNotice | None = None
    failure_to_comply: FailureToComply | None = None
    vicious_as_dangerous: Provision | None = None


def _section(pack, name: str, doing: str, absent):
    """The pack's rule `name`, or the Decision saying the ordinance sets none (its value `absent`,
    the question's answer with `applies` false)."""
    s: DangerousDogsSection | None = pack.dangerous_dogs
    rule = None if s is None else getattr(s, name)
    if rule is None or rule == []:
        return None, Decision(absent, (), (f"this ordinance sets no {doing}",))
    return rule, None


# --- classification ---------------------------------------------------------------------


@cache
def _excuses(pack) -> PackValues | None:
    s: DangerousDogsSection | None = pack.dangerous_dogs
    rule = None if s is None else s.exceptions
    return None if rule is None else named_by("dangerous_dogs.exceptions", rule, rule.excuses)


@cache
def _breeds(pack) -> PackValues | None:
    s: DangerousDogsSection | None = pack.dangerous_dogs
    rule = None if s is None else s.classification
    return None if rule is None or not rule.breeds else named_by("dangerous_dogs.classification", rule, rule.breeds)


Excuse = Annotated[
    str,
    PackSet(
        "Excuse",
        _excuses,
        "an exception the ordinance makes for an incident",
        other="no exception in this ordinance: the incident counts (the answer names it in unrecognized_excuses)",
    ),
]
Breed = Annotated[
    str,
    PackSet(
        "Breed",
        _breeds,
        "a breed the ordinance lists",
        other="a breed it does not list: no ground by breed",
    ),
]


class Incident(Facts):
    occurred_on: date
    kind: IncidentKind
    victim: Victim
    at_large: bool = False
    off_owner_property: bool = False
    provoked: bool = False
    excuse: Excuse | None = None
    victim_excluded: bool = False


class ClassificationFacts(Facts):
    incidents: list[Incident] = []
    propensity_shown: bool = False
    fighting: bool = False
    breed: Breed | None = None
    law_enforcement_dog: bool = False
    rabies_conforming: bool = True


HARM = ("injury", "bite_injury", "serious_injury", "killed")
ATTACK = ("attack",) + HARM
# A kill is counted with the serious physical injuries: the victim's death is the gravest of them.
SERIOUS = ("serious_injury", "killed")


def _injury_tiers(rule: Classification, counted: list[Incident], f: ClassificationFacts, on: date):
    def occasions(pred) -> int:
        return len({i.occurred_on for i in counted if pred(i)})

    if occasions(lambda i: i.kind in SERIOUS and i.off_owner_property) >= rule.occasions:
        return (
            "vicious",
            "serious_injury_on_separate_occasions",
            "serious physical injury on separate occasions off the owner's property",
        )
    for i in counted:
        if i.victim == "person" and (i.kind == "bite_injury" or (i.at_large and i.kind in HARM)):
            return "dangerous", "bite_or_injury", f"{i.kind.replace('_', ' ')} to a person on {i.occurred_on}"
        if i.kind in SERIOUS and i.victim in ("person", "domestic_animal"):
            harm = f"killed a {i.victim.replace('_', ' ')}" if i.kind == "killed" else "serious physical injury"
            return "dangerous", "bite_or_injury", f"{harm} on {i.occurred_on}"
    threats = _days_in_one_period(rule, on, [i for i in counted if i.kind == "threat" and i.victim == "person"])
    kills = _days_in_one_period(
        rule, on, [i for i in counted if i.kind == "killed" and i.victim != "person" and not i.victim_excluded]
    )
    if threats > 1 or kills > 1:
        return "dangerous", "repeated_within_period", "more than one occasion within a twelve-month period"
    for i in counted:
        if i.at_large and (i.kind == "threat" or (i.victim != "person" and i.kind in HARM)):
            return (
                "potentially_dangerous",
                "at_large_threat_or_injury",
                f"{i.kind.replace('_', ' ')} while at large on {i.occurred_on}",
            )
    if not f.rabies_conforming:
        return (
            "potentially_dangerous",
            "rabies_nonconformity",
            "not in strict conformity with the rabies control program",
        )
    return None, None, None


def _days_in_one_period(rule: Classification, on: date, incidents: list[Incident]) -> int:
    """The most separate days of `incidents` inside one period of `within_months`: the period ending
    on the day of decision, or (`period: any`) any such period, wherever it lies."""
    days = sorted({i.occurred_on for i in incidents if i.occurred_on <= on})
    if rule.period == "ending_on_decision":
        since = plus_months(on, -rule.within_months)
        return len([d for d in days if since < d])
    return max(
        (len([d for d in days[j:] if plus_months(d, -rule.within_months) < days[j]]) for j in range(len(days))),
        default=0,
    )


def _vicious_by_conduct(rule: Classification, counted: list[Incident], f: ClassificationFacts, on: date):
    for i in counted:
        if i.kind in ATTACK and i.victim in rule.victims:
            what, whom = i.kind.replace("_", " "), i.victim.replace("_", " ")
            return "vicious", "unprovoked_attack", f"unprovoked {what} ({whom}) on {i.occurred_on}"
    if f.fighting:
        return "vicious", "fighting", "owned, harbored or trained for dog fighting"
    if f.breed is not None and f.breed.lower() in {b.lower() for b in rule.breeds}:
        return "vicious", "breed", f"pit bull dog ({f.breed})"
    return _propensity(f)


def _vicious_by_bite_within_period(rule: Classification, counted: list[Incident], f: ClassificationFacts, on: date):
    since = plus_months(on, -rule.within_months) if rule.period == "ending_on_decision" else date.min
    hits = sorted(
        (
            i
            for i in counted
            if i.victim == "person"
            and i.off_owner_property
            and i.kind in ("bite_injury", "serious_injury")
            and since < i.occurred_on <= on
        ),
        key=lambda i: i.occurred_on,
    )
    if rule.period == "any":
        # `occasions` of them inside one period of `within_months`, wherever it lies
        n = rule.occasions
        windows = [
            hits[j : j + n]
            for j in range(len(hits) - n + 1)
            if plus_months(hits[j + n - 1].occurred_on, -rule.within_months) < hits[j].occurred_on
        ]
        hits = windows[0] if windows else []
    if len(hits) >= rule.occasions:
        where = "to a person off the owner's premises"
        return "vicious", "bite_within_period", f"unprovoked bite or serious injury {where} on {hits[0].occurred_on}"
    return _propensity(f)


def _propensity(f: ClassificationFacts):
    if f.propensity_shown:
        return "vicious", "propensity", "a propensity to attack shown by habitual or repeated conduct"
    return None, None, None


SCHEMES = {
    "injury_tiers": _injury_tiers,
    "vicious_by_conduct": _vicious_by_conduct,
    "vicious_by_bite_within_period": _vicious_by_bite_within_period,
}


@dataclass(frozen=True)
class ClassificationAnswer:
    """`applies`: the ordinance defines the classes; `classification` the one the facts meet (None:
    none), on `ground_name` (its words in `ground`, the facts that met it). `law_enforcement_dog`:
    the dog is excepted as one; `excused_incidents` how many incidents an exception took out of the
    count, and `unrecognized_excuses` those given that are no exception here (their incidents
    count); `prima_facie_vicious`: a bite, attack or injury to a person is counted where that is a
    prima facie showing of viciousness."""

    applies: bool
    classification: Class | None = None
    ground: str | None = None
    ground_name: Ground | None = None
    law_enforcement_dog: bool = False
    excused_incidents: int = 0
    unrecognized_excuses: tuple[str, ...] = ()
    prima_facie_vicious: bool = False


@question(
    "dog_classification",
    facts=ClassificationFacts,
    value=ClassificationAnswer,
    doc="Whether the facts bring a dog within the ordinance's potentially dangerous, dangerous "
    "or vicious dog definitions (incidents, breed, fighting, exceptions).",
)
def dog_classification(pack, facts: ClassificationFacts, on: date, local) -> Decision:
    rule, none = _section(
        pack, "classification", "dangerous- or vicious-dog classification", ClassificationAnswer(applies=False)
    )
    if none:
        return none
    s: DangerousDogsSection = pack.dangerous_dogs
    counted = [i for i in facts.incidents if not i.provoked and i.occurred_on <= on]
    if rule.in_force is not None and not rule.in_force.days.at(on):
        return _not_in_force(rule.in_force, s, counted, on)
    cites, notes = [rule.cite.citation], []
    excused = []
    if s.exceptions is not None:
        excused = [i for i in counted if i.excuse in s.exceptions.excuses]
        if excused or (facts.law_enforcement_dog and s.exceptions.law_enforcement_dog):
            cites.append(s.exceptions.cite.citation)
            notes.append("rebuttable presumption: excused incidents and law-enforcement dogs are not counted")
        if facts.law_enforcement_dog and s.exceptions.law_enforcement_dog:
            value = ClassificationAnswer(True, law_enforcement_dog=True, excused_incidents=len(excused))
            return Decision(value, tuple(cites), tuple(notes))
        counted = [i for i in counted if i not in excused]
    unknown = sorted({i.excuse for i in counted if i.excuse is not None})
    if unknown:
        notes.append(f"excuse(s) {unknown} are not exceptions in this ordinance; the incidents count")
    found, ground_name, ground = SCHEMES[rule.scheme](rule, counted, facts, on)
    # Each ground cites its own words; with none met, the definition as a whole.
    own = rule.grounds.get(ground_name) if ground_name else None
    cites[0] = own.cite.citation if own is not None else rule.cite.citation
    notes += choice_notes(rule)
    prima_facie = _prima_facie(s, counted)
    if prima_facie:
        cites.extend(s.prima_facie.citations())
        notes.append("a bite, attack or injury to a person is a prima facie showing that the dog is vicious")
    value = ClassificationAnswer(True, found, ground, ground_name, False, len(excused), tuple(unknown), prima_facie)
    return Decision(value, tuple(cites), tuple(notes))


def _prima_facie(s: DangerousDogsSection, counted: list[Incident]) -> bool:
    return s.prima_facie is not None and any(i.victim == "person" and i.kind in ATTACK for i in counted)


def _not_in_force(rule: InForce, s: DangerousDogsSection, counted: list[Incident], on: date) -> Decision:
    """The classification asked for a day before its section took effect: no class from it; the
    prima facie showing the ordinance made then still answers, with what governed instead."""
    cites = [*rule.citations()]
    notes = [f"{rule.cite.section} was not in force on {on} ({rule.cite.quote})", f"instead: {rule.instead}"]
    prima_facie = _prima_facie(s, counted)
    if s.prima_facie is not None:
        cites.extend(s.prima_facie.citations())
    return Decision(ClassificationAnswer(False, prima_facie_vicious=prima_facie), tuple(cites), tuple(notes))


# --- deadlines ----------------------------------------------------------------------------


class ServedFacts(Facts):
    served_on: date


class ContestFacts(Facts):
    served_on: date
    requested_on: date | None = None


@dataclass(frozen=True)
class BusinessDaysDeadline:
    """`applies`: the ordinance sets this deadline; `deadline` its last day; `timely` whether the
    act was done by then (None until it is done)."""

    applies: bool
    deadline: date | None = None
    timely: bool | None = None


NO_DEADLINE = BusinessDaysDeadline(applies=False)


def _deadline(rule: BusinessDays, start: date, done: date | None) -> Decision:
    counted = rule.count(start)
    last = counted.day
    value = BusinessDaysDeadline(True, last, None if done is None else done <= last)
    return Decision(value, (rule.cite.citation, *counted.citations), (*choice_notes(rule), *counted.notes))


@question(
    "contest_deadline",
    facts=ContestFacts,
    value=BusinessDaysDeadline,
    doc="The last day the owner may request a hearing contesting a determination (business days "
    "after service), and whether a request made on `requested_on` is timely.",
)
def contest_deadline(pack, facts: ContestFacts, on: date, local) -> Decision:
    rule, none = _section(pack, "contest", "deadline to contest a determination", NO_DEADLINE)
    return none or _deadline(rule, facts.served_on, facts.requested_on)


@dataclass(frozen=True)
class HearingWindow:
    """`applies`: the ordinance sets a window; the hearing is held from `earliest` to `latest`."""

    applies: bool
    earliest: date | None = None
    latest: date | None = None


@question(
    "hearing_window",
    facts=ServedFacts,
    value=HearingWindow,
    doc="The earliest and latest day the hearing on a contested determination may be held.",
)
def hearing_window(pack, facts: ServedFacts, on: date, local) -> Decision:
    rule, none = _section(pack, "hearing_window", "hearing window", HearingWindow(applies=False))
    if none:
        return none
    earliest, latest = rule.count(facts.served_on)
    value = HearingWindow(True, earliest, latest.day)
    return Decision(value, (rule.cite.citation, *latest.citations), (*choice_notes(rule), *latest.notes))


class ComplianceFacts(Facts):
    determined_on: date
    appeal_failed_on: date | None = None


@dataclass(frozen=True)
class ComplianceDeadline:
    """`applies`: the ordinance sets a compliance period; `last_day` ends the `days` counted from
    `from_day` (the determination or the unsuccessful appeal, `runs_from`), moved past a Sunday or
    legal holiday where the law says so."""

    applies: bool
    last_day: date | None = None
    days: int | None = None
    runs_from: Literal["determination", "unsuccessful_appeal"] | None = None
    from_day: date | None = None
    moved_past_sunday_or_holiday: bool | None = None


@question(
    "compliance_deadline",
    facts=ComplianceFacts,
    value=ComplianceDeadline,
    doc="The last day to comply with the regulations after a determination (or an unsuccessful appeal).",
)
def compliance_deadline(pack, facts: ComplianceFacts, on: date, local) -> Decision:
    rule, none = _section(pack, "compliance", "compliance deadline", ComplianceDeadline(applies=False))
    if none:
        return none
    s: DangerousDogsSection = pack.dangerous_dogs
    runs_from = "determination"
    if facts.appeal_failed_on is not None and s.compliance_after_appeal is not None:
        rule, start, runs_from = s.compliance_after_appeal, facts.appeal_failed_on, "unsuccessful_appeal"
    else:
        start = facts.determined_on
    counted = last_day(start, rule.days, not_moved=rule.not_moved)
    value = ComplianceDeadline(True, counted.day, rule.days, runs_from, start, counted.moved)
    return Decision(value, (rule.cite.citation, *counted.citations), (*choice_notes(rule), *counted.notes))


def _compliance_day(pack, determined_on: date, appeal_failed_on: date | None) -> tuple[Days, Counted]:
    """The compliance deadline: the rule that set it and its last day, counted."""
    s: DangerousDogsSection = pack.dangerous_dogs
    rule, start = s.compliance, determined_on
    if rule is None:
        raise ValueError("a requirement runs from the compliance deadline, but the pack sets none")
    if appeal_failed_on is not None and s.compliance_after_appeal is not None:
        rule, start = s.compliance_after_appeal, appeal_failed_on
    return rule, last_day(start, rule.days, not_moved=rule.not_moved)


class AppealFacts(Facts):
    decision_received_on: date
    appealed_on: date | None = None


@question(
    "appeal_deadline",
    facts=AppealFacts,
    value=BusinessDaysDeadline,
    doc="The last day to appeal the hearing decision (business days after receiving it), and "
    "whether an appeal made on `appealed_on` is timely.",
)
def appeal_deadline(pack, facts: AppealFacts, on: date, local) -> Decision:
    rule, none = _section(pack, "appeal", "appeal deadline", NO_DEADLINE)
    return none or _deadline(rule, facts.decision_received_on, facts.appealed_on)


class DeclaredElsewhereFacts(Facts):
    moved_in_on: date
    notified_on: date | None = None
    registered_on: date | None = None


class RequirementFacts(Facts):
    classification: DeclaredClass
    declared_on: date
    determined_on: date | None = None
    appeal_failed_on: date | None = None
    written_notice_on: date | None = None
    contested: bool = False
    declared_elsewhere: DeclaredElsewhereFacts | None = None


def _elsewhere_start(rule: DeclaredElsewhereRequirements, f: DeclaredElsewhereFacts) -> date:
    if rule.runs_from == "moved_in":
        return f.moved_in_on
    known = [d for d in (f.notified_on, f.registered_on) if d is not None]
    return max(f.moved_in_on, min(known)) if known else f.moved_in_on


@dataclass(frozen=True)
class RequirementDeadline:
    """One requirement: `mandatory` (else the officer or Board may impose it), its `deadline` (None
    while stayed, before the permit, or awaiting the day it runs from), what it `runs_from`, whether
    a timely contest has `stayed` it, and the `amount` it names (the insurance minimum)."""

    mandatory: bool
    deadline: date | None
    runs_from: Literal["declaration", "determination", "written_notice", "before_permit", "compliance", "acquisition"]
    stayed: bool
    amount: Decimal | None = None


@dataclass(frozen=True)
class RequirementDeadlines:
    """`applies`: the ordinance sets requirements after a declaration (and, for a dog declared
    elsewhere, from when they run); `requirements` those binding this classification, by name, in
    the ordinance's order."""

    applies: bool
    requirements: dict[RequirementName, RequirementDeadline] = field(default_factory=dict)


@question(
    "requirement_deadlines",
    facts=RequirementFacts,
    value=RequirementDeadlines,
    doc="Each requirement that follows a declaration (spay/neuter, photographs, signs, insurance, "
    "permit, ...): whether it binds, its deadline, whether a timely contest stays it, any amount.",
)
def requirement_deadlines(pack, facts: RequirementFacts, on: date, local) -> Decision:
    absent = RequirementDeadlines(applies=False)
    rules, none = _section(pack, "requirements", "requirements after a declaration", absent)
    if none:
        return none
    cites, notes, value, moved_by, compliance_by, also = [], [], {}, [], [], []
    elsewhere, declared_on, determined_on = facts.declared_elsewhere, facts.declared_on, facts.determined_on
    if elsewhere is not None:
        rule, none = _section(
            pack, "declared_elsewhere_requirements", "requirements for a dog declared elsewhere", absent
        )
        if none:
            return none
        declared_on = determined_on = _elsewhere_start(rule, elsewhere)
        notes += choice_notes(rule)
    for r in rules:
        if facts.classification not in r.classes:
            continue
        cites.append(r.cite.citation)
        also += [c.citation for c in r.also]  # the requirement's other words (the stay of a contest)
        start = {
            "declaration": declared_on,
            "determination": determined_on or declared_on,
            "written_notice": facts.written_notice_on,
            "before_permit": None,
            "compliance": determined_on or declared_on,
        }[r.runs_from]
        # a compliance deadline that runs anew from an unsuccessful appeal is stayed no longer once
        # the appeal has failed (Benton § 115-5B(5))
        ended = r.runs_from == "compliance" and facts.appeal_failed_on is not None
        stayed = r.stayed_by_contest and facts.contested and not ended
        runs_from, deadline = r.runs_from, None
        if elsewhere is not None and r.upon_acquisition:
            runs_from, deadline, stayed = "acquisition", elsewhere.moved_in_on, False
        elif start is not None and not stayed:
            counted = None
            if r.runs_from == "compliance":
                by, counted = _compliance_day(pack, start, facts.appeal_failed_on)
                compliance_by += [c for c in by.citations() if c not in compliance_by]
            elif r.business_days is not None:
                counted = business_days_after(start, r.business_days, r.holidays)
            elif r.days is not None:
                counted = last_day(start, r.days, not_moved=r.not_moved)
            if counted is not None:
                deadline = counted.day
                moved_by += [c for c in counted.citations if c not in moved_by]
                notes += [n for n in counted.notes if n not in notes]
        value[r.name] = RequirementDeadline(r.mandatory, deadline, runs_from, stayed, r.amount)
        notes += [n for n in choice_notes(r) if n not in notes]
    # One citation per requirement, in the order of `value`; then the requirements' other words,
    # the compliance deadline they share and the rules that moved a last day.
    cites += [c for c in (*also, *compliance_by, *moved_by) if c not in cites]
    if elsewhere is not None:
        cites.append(pack.dangerous_dogs.declared_elsewhere_requirements.cite.citation)
    return Decision(RequirementDeadlines(True, value), tuple(cites), tuple(notes))


class PermitFeeFacts(Facts):
    first_permit: bool = True


@dataclass(frozen=True)
class PermitFeeAnswer:
    """`applies`: the ordinance sets a vicious-dog permit fee; `fee` what a permit issued on the day
    pays (None while the local amount is not set, or none is in force: `in_force`), of the
    `annual_fee`; `prorated` by `method`, `remaining` days of the year's `of`."""

    applies: bool
    in_force: bool = False
    fee: Decimal | None = None
    annual_fee: Decimal | None = None
    prorated: bool = False
    method: Literal["by_day", "none"] = "none"
    remaining: int | None = None
    of: int | None = None


@question(
    "vicious_dog_permit_fee",
    facts=PermitFeeFacts,
    value=PermitFeeAnswer,
    doc="The annual vicious-dog permit fee for a permit issued on `on` (the first year prorated).",
)
def vicious_dog_permit_fee(pack, facts: PermitFeeFacts, on: date, local) -> Decision:
    rule, none = _section(pack, "permit_fee", "vicious-dog permit fee", PermitFeeAnswer(applies=False))
    if none:
        return none
    annual, missing = amount_at(rule.amount, on, local, rule.cite.citation)
    if missing:
        return Decision(PermitFeeAnswer(True, True), (rule.cite.citation,), (), (missing,))
    if annual is None:
        return Decision(PermitFeeAnswer(True), (rule.cite.citation,), (f"no permit fee in force on {on}",))
    notes = list(choice_notes(rule))
    fee, prorated = annual, rule.prorate_first_year and facts.first_permit and rule.proration != "none"
    remaining = period = None
    if prorated:  # by_day
        period = (date(on.year + 1, 1, 1) - date(on.year, 1, 1)).days
        remaining = (date(on.year + 1, 1, 1) - on).days
        fee = (annual * remaining / period).quantize(CENT, rounding=ROUND_HALF_UP)
    value = PermitFeeAnswer(
        True, True, fee, annual, prorated, rule.proration if prorated else "none", remaining, period
    )
    return Decision(value, (rule.cite.citation,), tuple(notes))


class WaiverFacts(Facts):
    classification: DeclaredClass
    declared_on: date
    no_subsequent_violations: bool
    complied_throughout: bool
    behavior_program_completed: bool


@dataclass(frozen=True)
class WaiverAnswer:
    """`applies`: a declaration of this classification may be waived here; the owner may apply from
    `apply_from`; `eligible`: the day has come and every condition holds; the waiver may be
    rescinded within `rescind_within_days` (None: the text sets no such period)."""

    applies: bool
    apply_from: date | None = None
    eligible: bool = False
    rescind_within_days: int | None = None


@question(
    "declaration_waiver",
    facts=WaiverFacts,
    value=WaiverAnswer,
    doc="When the owner may apply to have a declaration waived, and whether the conditions hold on `on`.",
)
def declaration_waiver(pack, facts: WaiverFacts, on: date, local) -> Decision:
    rules, none = _section(pack, "waivers", "waiver of a declaration", WaiverAnswer(applies=False))
    if none:
        return none
    c = facts.classification
    rule = next((w for w in rules if c == w.classification or c in w.also_classifications), None)
    if rule is None:
        notes = (f"a {facts.classification.replace('_', ' ')} declaration cannot be waived here",)
        # Where that is a reading (a waiver whose other reading reaches this class), the answer
        # rests on it: its words and the reading are shown.
        read = next((w for w in rules if c in _other_reading_reaches(w)), None)
        if read is not None:
            return Decision(WaiverAnswer(applies=False), read.citations(), (*notes, *choice_notes(read)))
        return Decision(WaiverAnswer(applies=False), (), notes)
    from_ = plus_months(facts.declared_on, 12 * rule.years)
    eligible = (
        on >= from_
        and facts.no_subsequent_violations
        and facts.complied_throughout
        and facts.behavior_program_completed
    )
    value = WaiverAnswer(True, from_, eligible, rule.rescind_within_days)
    return Decision(value, rule.citations(), choice_notes(rule))


def _other_reading_reaches(waiver: Waiver) -> list[str]:
    """The classes a waiver's other reading would add to it."""
    other = waiver.reading.other if waiver.reading else None
    return list(other.set.get("also_classifications", [])) if other else []


class RemovalFacts(Facts):
    served_at: datetime


@dataclass(frozen=True)
class RemovalDeadline:
    """`applies`: the ordinance sets a removal period; the dog is out by `due_at`, `hours` after
    the written notice."""

    applies: bool
    due_at: datetime | None = None
    hours: int | None = None


@question(
    "removal_deadline",
    facts=RemovalFacts,
    value=RemovalDeadline,
    doc="When a dangerous or vicious dog must be out of the municipality after written notice to remove it.",
)
def removal_deadline(pack, facts: RemovalFacts, on: date, local) -> Decision:
    rule, none = _section(pack, "removal", "removal deadline", RemovalDeadline(applies=False))
    if none:
        return none
    counted = rule.count(facts.served_at)
    value = RemovalDeadline(True, counted.day, rule.hours)
    return Decision(value, (rule.cite.citation, *counted.citations), (*choice_notes(rule), *counted.notes))


class MovedInFacts(Facts):
    moved_in_on: date


@dataclass(frozen=True)
class DeclaredElsewhereDeadline:
    """`applies`: the ordinance sets the notice for a dog declared elsewhere; `last_day` ends the
    `days` after it moved in, moved past a Sunday or legal holiday where the law says so."""

    applies: bool
    last_day: date | None = None
    days: int | None = None
    moved_past_sunday_or_holiday: bool | None = None


@question(
    "declared_elsewhere_deadline",
    facts=MovedInFacts,
    value=DeclaredElsewhereDeadline,
    doc="The last day to notify police and clerk of a dog declared dangerous or vicious elsewhere.",
)
def declared_elsewhere_deadline(pack, facts: MovedInFacts, on: date, local) -> Decision:
    absent = DeclaredElsewhereDeadline(applies=False)
    rule, none = _section(pack, "declared_elsewhere", "rule for dogs declared elsewhere", absent)
    if none:
        return none
    counted = last_day(facts.moved_in_on, rule.days, not_moved=rule.not_moved)
    value = DeclaredElsewhereDeadline(True, counted.day, rule.days, counted.moved)
    return Decision(value, (rule.cite.citation, *counted.citations), (*choice_notes(rule), *counted.notes))


@dataclass(frozen=True)
class DeclaredElsewhereStart:
    """`applies`: the pack reads a day the requirements run from; `starts_on` that day, read from
    the notice or registration or the day the dog moved in (`runs_from`)."""

    applies: bool
    starts_on: date | None = None
    runs_from: Literal["notice_or_registration", "moved_in"] | None = None


@question(
    "declared_elsewhere_start",
    facts=DeclaredElsewhereFacts,
    value=DeclaredElsewhereStart,
    doc="The day from which this ordinance's requirements run for a dog declared dangerous or "
    "vicious elsewhere and moved in (the text sets none; the pack's reading).",
)
def declared_elsewhere_start(pack, facts: DeclaredElsewhereFacts, on: date, local) -> Decision:
    rule, none = _section(
        pack,
        "declared_elsewhere_requirements",
        "requirements for a dog declared elsewhere",
        DeclaredElsewhereStart(applies=False),
    )
    if none:
        return none
    value = DeclaredElsewhereStart(True, _elsewhere_start(rule, facts), rule.runs_from)
    return Decision(value, (rule.cite.citation,), choice_notes(rule))
