"""Keeping a declared dog: off its enclosure (leash, muzzle, who may walk it), its enclosure, the
insurance and its cancellation notice, and how long the status lasts (Webster § 98-23B, Benton
§ 115-5B(2), River Hills § 2.14(6)[d], [e], [f], [h], Cedarburg § 7-1-6(b)(1)).

Each answer lists what the facts fail (`failures`, in the ordinance's order) beside the figures
the ordinance sets, so the officer's screen shows the rule it measured against.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Annotated, Literal

from pydantic import Field

from .catalogue import Facts, PackSet, PackValues, named_by, question
from .dangerous_dog_custody import DeclaredClass
from .dates import plus_months
from .decision import Decision
from .schema import Measure, Money, Provision, Strict, section
from .spans import choice_notes

Excuse = Literal["akc_show", "police_chief_approval", "locked_fenced_yard_with_owner", "veterinary_care_or_exercise"]


class OutsideRule(Provision):
    """Off its enclosure (or, where the ordinance says so, off the owner's premises) the dog is on a
    leash no longer than `leash_max_ft`, held by a person in physical control, never tied to an
    object; muzzled unless an excuse applies; `leash_or_muzzle`: either one suffices."""

    classes: list[str]
    leash_max_ft: int | None = None
    leash_required: bool = True
    person_in_physical_control: bool = True
    not_tied_to_objects: bool = False
    muzzle_required: bool = True
    leash_or_muzzle: bool = False
    muzzle_excused: list[Excuse] = []
    outside_only_for: list[Excuse] = []
    walker: Literal["anyone", "owner_or_immediate_family"] = "anyone"
    walker_over_age: int | None = None


class EnclosureRule(Provision):
    """The pen: secure sides; a secure top (or, where `top_or_sides_ft`, sides at least that high;
    where `sides_min_ft`, sides at least that high in any case); a bottom attached to the sides or
    the sides embedded at least `embedded_ft` feet; locked."""

    classes: list[str]
    top_required: bool = True
    top_or_sides_ft: int | None = None
    sides_min_ft: int | None = None  # sides at least this high even with a secure top
    embedded_ft: int
    locked: bool = True
    no_multiple_dwelling: bool = False


class Insurance(Provision):
    classes: list[str]
    minimum: Money
    may_be_required: bool = False  # "may be required" (River Hills) vs "shall ... provide proof" (Benton)
    cancellation_notice_days: int | None = None  # None with `cancellation_notice: immediately`
    cancellation_notice: Literal["written_days_before", "immediately"]
    notify: str
    law_enforcement_exempt: bool = False


class StatusDuration(Provision):
    """How long a declaration lasts: until waived (after `waivable_after_years`), for the dog's life,
    or the text sets no end (`not_stated`: the status lasts until a court or the declaring officer
    lifts it)."""

    classes: list[str]
    lasts: Literal["until_waived", "for_life", "not_stated"]
    waivable_after_years: int | None = None
    declared_elsewhere_only: bool = False


@section("declared_keeping")
class DeclaredKeepingSection(Strict):
    outside: list[OutsideRule] = []
    enclosure: list[EnclosureRule] = []
    insurance: list[Insurance] = []
    status: list[StatusDuration] = []


def _rule(rules, classification: str):
    return next((r for r in rules if classification in r.classes), None)


def _none(what: str, classification: str, cls):
    return Decision(cls(applies=False), (), (f"this law sets no {what} for a {classification.replace('_', ' ')} dog",))


@cache
def _outside_excuses(pack) -> PackValues | None:
    s: DeclaredKeepingSection | None = pack.declared_keeping
    if s is None or not s.outside:
        return None
    named = [e for r in s.outside for e in (*r.muzzle_excused, *r.outside_only_for)]
    return named_by("declared_keeping.outside", s.outside, named) if named else None


OutsideExcuse = Annotated[
    Excuse,
    PackSet(
        "OutsideExcuse",
        _outside_excuses,
        "a purpose or excuse the ordinance allows a declared dog outside (or unmuzzled)",
        other="one this ordinance does not allow: it excuses nothing",
    ),
]


class OutsideFacts(Facts):
    classification: DeclaredClass
    leashed: bool = False
    leash_ft: Measure | None = None
    person_in_physical_control: bool = False
    tied_to_object: bool = False
    muzzled: bool = False
    walker_is_owner_or_immediate_family: bool = False
    walker_age: int | None = Field(default=None, ge=0)
    excuses: list[OutsideExcuse] = []


@dataclass(frozen=True)
class OutsideAnswer:
    applies: bool
    complies: bool | None = None
    failures: tuple[str, ...] = ()
    leash_max_ft: int | None = None
    muzzle_required: bool | None = None
    walker: str | None = None
    walker_over_age: int | None = None


@question(
    "declared_dog_outside",
    facts=OutsideFacts,
    value=OutsideAnswer,
    doc="Whether a declared dog outside its enclosure is kept as the ordinance requires: leash length, "
    "a person in physical control, not tied to an object, the muzzle (and its excuses), who may walk it.",
)
def declared_dog_outside(pack, f: OutsideFacts, on: date, local) -> Decision:
    s: DeclaredKeepingSection | None = pack.declared_keeping
    rule = _rule(s.outside, f.classification) if s else None
    if rule is None:
        return _none("rule for keeping outside", f.classification, OutsideAnswer)
    fails: list[str] = []
    if rule.outside_only_for and not set(f.excuses) & set(rule.outside_only_for):
        fails.append(
            "outside its enclosure for a purpose the ordinance does not allow "
            f"({', '.join(e.replace('_', ' ') for e in rule.outside_only_for)} only)"
        )
    leash_fails: list[str] = [] if f.leashed or rule.leash_or_muzzle else ["not on a leash"]
    if not f.leashed and rule.leash_or_muzzle:
        leash_fails.append("not on a leash")
    if f.leashed:
        if rule.leash_max_ft is not None and (f.leash_ft is None or f.leash_ft > rule.leash_max_ft):
            leash_fails.append(f"the leash is not shown to be {rule.leash_max_ft} feet or shorter")
        if rule.person_in_physical_control and not f.person_in_physical_control:
            leash_fails.append("no person is in physical control of the leash")
        if rule.not_tied_to_objects and f.tied_to_object:
            leash_fails.append("leashed to an inanimate object")
        if rule.walker == "owner_or_immediate_family":
            if not f.walker_is_owner_or_immediate_family:
                leash_fails.append(
                    "the leash is not in charge of the owner or a member of the owner's immediate family"
                )
            elif rule.walker_over_age is not None and (f.walker_age is None or f.walker_age <= rule.walker_over_age):
                leash_fails.append(
                    f"the person in charge of the leash is not shown to be over {rule.walker_over_age} years of age"
                )
    muzzle_needed = rule.muzzle_required and not rule.leash_or_muzzle and not set(f.excuses) & set(rule.muzzle_excused)
    if rule.leash_or_muzzle:
        if not f.muzzled and leash_fails:
            fails += ["neither muzzled nor on a leash as the ordinance requires", *leash_fails]
    else:
        if rule.leash_required:
            fails += leash_fails
        if muzzle_needed and not f.muzzled:
            fails.append("not muzzled")
    value = OutsideAnswer(
        True, not fails, tuple(fails), rule.leash_max_ft, muzzle_needed, rule.walker, rule.walker_over_age
    )
    return Decision(value, (*rule.citations(),), choice_notes(rule))


class EnclosureFacts(Facts):
    classification: DeclaredClass
    secure_sides: bool = False
    secure_top: bool = False
    sides_height_ft: Measure | None = None
    bottom_attached: bool = False
    sides_embedded_ft: Measure | None = None
    locked: bool = False
    in_multiple_dwelling: bool = False


@dataclass(frozen=True)
class EnclosureAnswer:
    applies: bool
    complies: bool | None = None
    failures: tuple[str, ...] = ()
    top_or_sides_ft: int | None = None
    embedded_ft: int | None = None


@question(
    "declared_dog_enclosure",
    facts=EnclosureFacts,
    value=EnclosureAnswer,
    doc="Whether a declared dog's pen or kennel meets the ordinance: secure sides and top (or sides of a "
    "minimum height), a bottom attached or sides embedded to a minimum depth, locked; no multiple dwelling.",
)
def declared_dog_enclosure(pack, f: EnclosureFacts, on: date, local) -> Decision:
    s: DeclaredKeepingSection | None = pack.declared_keeping
    rule = _rule(s.enclosure, f.classification) if s else None
    if rule is None:
        return _none("enclosure", f.classification, EnclosureAnswer)
    fails: list[str] = []
    if not f.secure_sides:
        fails.append("the sides are not secure")
    if rule.top_or_sides_ft is not None:
        if not f.secure_top and (f.sides_height_ft is None or f.sides_height_ft < rule.top_or_sides_ft):
            fails.append(f"neither a secure top nor sides at least {rule.top_or_sides_ft} feet high")
    elif rule.top_required and not f.secure_top:
        fails.append("no secure top attached to the sides")
    if rule.sides_min_ft is not None and (f.sides_height_ft is None or f.sides_height_ft < rule.sides_min_ft):
        fails.append(f"the sides are not at least {rule.sides_min_ft} feet high")
    if not f.bottom_attached and (f.sides_embedded_ft is None or f.sides_embedded_ft < rule.embedded_ft):
        fails.append(
            f"neither a bottom attached to the sides nor sides embedded at least {rule.embedded_ft} "
            f"{'foot' if rule.embedded_ft == 1 else 'feet'} in the ground"
        )
    if rule.locked and not f.locked:
        fails.append("the pen is not locked")
    if rule.no_multiple_dwelling and f.in_multiple_dwelling:
        fails.append("kept within a multiple dwelling")
    value = EnclosureAnswer(True, not fails, tuple(fails), rule.top_or_sides_ft, rule.embedded_ft)
    return Decision(value, (*rule.citations(),), choice_notes(rule))


class InsuranceFacts(Facts):
    classification: DeclaredClass
    kept_by_law_enforcement: bool = False


@dataclass(frozen=True)
class InsuranceAnswer:
    applies: bool
    required: bool | None = None
    may_be_required: bool | None = None
    minimum: Decimal | None = None
    cancellation_notice: str | None = None
    cancellation_notice_days: int | None = None
    notify: str | None = None


@question(
    "declared_dog_insurance",
    facts=InsuranceFacts,
    value=InsuranceAnswer,
    doc="The liability insurance a declared dog's owner keeps: whether required, the minimum, and the "
    "notice the policy must give before (or on) cancellation, and to whom.",
)
def declared_dog_insurance(pack, f: InsuranceFacts, on: date, local) -> Decision:
    s: DeclaredKeepingSection | None = pack.declared_keeping
    rule = _rule(s.insurance, f.classification) if s else None
    if rule is None:
        return _none("insurance", f.classification, InsuranceAnswer)
    exempt = rule.law_enforcement_exempt and f.kept_by_law_enforcement
    value = InsuranceAnswer(
        True,
        not exempt and not rule.may_be_required,
        rule.may_be_required and not exempt,
        rule.minimum,
        rule.cancellation_notice,
        rule.cancellation_notice_days,
        rule.notify,
    )
    return Decision(value, (*rule.citations(),), choice_notes(rule))


class StatusFacts(Facts):
    classification: DeclaredClass
    declared_on: date
    declared_elsewhere: bool = False


@dataclass(frozen=True)
class StatusAnswer:
    applies: bool
    lasts: str | None = None
    waiver_may_be_sought_from: date | None = None
    in_force_on: bool | None = None


@question(
    "declared_dog_status",
    facts=StatusFacts,
    value=StatusAnswer,
    doc="How long a declaration lasts: until waived (and from when the owner may apply), for the dog's "
    "life, or the text sets no end.",
)
def declared_dog_status(pack, f: StatusFacts, on: date, local) -> Decision:
    s: DeclaredKeepingSection | None = pack.declared_keeping
    rules = [
        r
        for r in (s.status if s else ())
        if f.classification in r.classes
        and (r.declared_elsewhere_only == f.declared_elsewhere or not r.declared_elsewhere_only)
    ]
    rules.sort(key=lambda r: not r.declared_elsewhere_only)  # the moved-in rule first where it applies
    if not rules:
        return _none("duration", f.classification, StatusAnswer)
    rule = rules[0]
    from_ = plus_months(f.declared_on, 12 * rule.waivable_after_years) if rule.waivable_after_years else None
    value = StatusAnswer(True, rule.lasts, from_, on >= f.declared_on)
    return Decision(value, (*rule.citations(),), choice_notes(rule))
