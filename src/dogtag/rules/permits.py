"""Permits: Cedarburg's backyard hens (§ 7-1-26) and River Hills' annual vicious-dog permit
(§ 2.14(6)[g]): whether it may issue, its fee and its term. The vicious-dog permit fee itself
(prorated in the first year) is in dangerous_dogs; this module adds the permit year, the renewal
date and the insurance shown before issue."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Annotated, Literal

from pydantic import Field

from .amounts import amount_at
from .catalogue import Facts, PackSet, PackValues, named_by, question
from .decision import Decision
from .schema import Amount, MonthDay, Provision, Strict, section
from .time import named_day


class Zoning(Provision):
    zoned: list[str]
    excluded_uses: list[str]


class MostAnimals(Provision):
    most: int = Field(ge=0)


class Housing(Provision):
    """Per-bird housing: coop and pen space (cubic feet per chicken), nesting boxes (one per N birds)."""

    coop_cu_ft_per_chicken: int = Field(ge=0)
    pen_cu_ft_per_chicken: int = Field(ge=0)
    birds_per_nesting_box: int = Field(ge=1)


class HenFees(Provision):
    application: Amount
    renewal: Amount


class PermitYear(Provision):
    ends: MonthDay
    prorated: bool


class RenewablePermitYear(Provision):
    """A permit year that ends on `ends`, renewed by `renewal_due` of the next year."""

    ends: MonthDay
    renewal_due: MonthDay


class Revocation(Provision):
    """How a permit is revoked where the text names no procedure: `notice_and_hearing_first`, the
    holder is given written notice and a chance to be heard before the revocation takes effect."""

    notice_and_hearing_first: bool = False


@section("permits")
class PermitsSection(Strict):
    hen_zoning: Zoning | None = None
    hen_limit: MostAnimals | None = None
    hen_housing: Housing | None = None
    hen_not_transferable: Provision | None = None
    roosters: MostAnimals | None = None
    hen_fees: HenFees | None = None
    hen_permit_year: PermitYear | None = None
    hen_owner_consent: Provision | None = None
    hen_premises_registration: Provision | None = None
    hen_site_plan: Provision | None = None
    hen_renewal: Provision | None = None
    hen_revocation: Revocation | None = None
    vicious_dog_permit_year: RenewablePermitYear | None = None
    vicious_dog_permit_insurance: Provision | None = None
    vicious_dog_permit_insurance_statement: Provision | None = None


@cache
def _hen_zoning(pack) -> PackValues | None:
    s = pack.permits
    rule = None if s is None else s.hen_zoning
    return None if rule is None else named_by("permits.hen_zoning", rule, rule.zoned)


@cache
def _excluded_uses(pack) -> PackValues | None:
    s = pack.permits
    rule = None if s is None else s.hen_zoning
    return None if rule is None else named_by("permits.hen_zoning", rule, rule.excluded_uses)


HenZoning = Annotated[
    str,
    PackSet(
        "HenZoning",
        _hen_zoning,
        "a zoning district in which hens may be kept",
        other="another district: no permit issues",
    ),
]
ExcludedUse = Annotated[
    str,
    PackSet(
        "ExcludedUse",
        _excluded_uses,
        "a use of the parcel that bars a permit",
        other="another use: it does not bar one",
    ),
]


class HenFacts(Facts):
    zoning: HenZoning
    parcel_uses: list[ExcludedUse] = []
    hens: int = Field(ge=0)
    roosters: int = Field(default=0, ge=0)
    all_owners_signed: bool
    premises_registration: bool
    renewal: bool = False
    changes: bool = False
    for_year: int | None = None
    renews_expiring_on: date | None = None  # a renewal: the last day of the permit it renews
    chicks: int = Field(default=0, ge=0)  # hens "of any age, including chicks" count toward the limit
    coop_cu_ft: int | None = Field(default=None, ge=0)  # the housing is checked when it is given
    pen_cu_ft: int | None = Field(default=None, ge=0)
    nesting_boxes: int | None = Field(default=None, ge=0)
    transferred_from_another_permittee: bool = False


@dataclass(frozen=True)
class HenPermitAnswer:
    """Whether the permit `may_issue` (else the `reasons`), its `fee` (`fee_kind`: application or
    renewal; null until the fee schedule sets it) and the day it `expires`, for `permit_year`.
    `permit_year_ended`: the year asked for is over and no permit issues for it;
    `new_application_needed`: a renewal with changes is a new full application. `applies` false:
    this ordinance has no hen permit."""

    applies: bool
    may_issue: bool | None = None
    reasons: tuple[str, ...] = ()
    fee: Decimal | None = None
    fee_kind: Literal["application", "renewal"] | None = None
    expires: date | None = None
    permit_year: int | None = None
    permit_year_ended: bool = False
    new_application_needed: bool = False


@question(
    "hen_permit",
    facts=HenFacts,
    value=HenPermitAnswer,
    doc="Cedarburg backyard hens: may a permit issue (zoning, number, roosters, owners' consent, "
    "premises registration), the fee (application or renewal, never prorated) and its expiry "
    "(December 31 of `for_year`; by default the year of `on`, and for a renewal the permit year "
    "after the renewed one's, `renews_expiring_on`, or after the year of `on`).",
)
def hen_permit(pack, facts: HenFacts, on: date, local) -> Decision:
    s: PermitsSection | None = pack.permits
    if s is None or s.hen_fees is None:
        return Decision(HenPermitAnswer(False), (), ("this ordinance has no hen permit",))
    cites, reasons, not_set = [], [], []

    def check(rule, ok: bool, reason: str) -> None:
        if rule.cite.citation not in cites:
            cites.append(rule.cite.citation)
        if not ok:
            reasons.append(reason)

    zoned = facts.zoning in s.hen_zoning.zoned and not set(facts.parcel_uses) & set(s.hen_zoning.excluded_uses)
    check(s.hen_zoning, zoned, "the parcel is not zoned single-family residential only")
    birds = facts.hens + facts.chicks
    check(s.hen_limit, birds <= s.hen_limit.most, f"more than {s.hen_limit.most} hens")
    h = s.hen_housing
    if h is not None and birds:
        given = [
            (facts.coop_cu_ft, h.coop_cu_ft_per_chicken * birds, "coop"),
            (facts.pen_cu_ft, h.pen_cu_ft_per_chicken * birds, "pen"),
        ]
        for have, need, what in given:
            if have is not None:
                check(h, have >= need, f"the {what} has {have} cubic feet; {birds} chickens need {need}")
        if facts.nesting_boxes is not None:
            need = -(-birds // h.birds_per_nesting_box)
            check(
                h, facts.nesting_boxes >= need, f"{facts.nesting_boxes} nesting box(es); {birds} chickens need {need}"
            )
    if s.hen_not_transferable is not None and facts.transferred_from_another_permittee:
        check(s.hen_not_transferable, False, "a permit is not transferable: the new keeper applies for a permit")
    check(s.roosters, facts.roosters <= s.roosters.most, "roosters or other crowing fowl")
    check(s.hen_owner_consent, facts.all_owners_signed, "not signed or countersigned by all owners of record")
    check(s.hen_premises_registration, facts.premises_registration, "no Livestock Premises Registration number")
    renewing = facts.renewal and not facts.changes
    amount = s.hen_fees.renewal if renewing else s.hen_fees.application
    fee, missing = amount_at(amount, on, local, s.hen_fees.cite.citation)
    if missing:
        not_set.append(missing)
    cites += [s.hen_fees.cite.citation, s.hen_permit_year.cite.citation]
    year = facts.for_year or _permit_year(s, facts, on)
    if facts.renewal and s.hen_renewal is not None:
        cites.append(s.hen_renewal.cite.citation)
    if year < on.year:
        value = HenPermitAnswer(True, permit_year=year, permit_year_ended=True)
        return Decision(value, (s.hen_permit_year.cite.citation,), (f"the permit year {year} has ended",))
    new_application = facts.renewal and facts.changes
    value = HenPermitAnswer(
        True,
        may_issue=not reasons,
        reasons=tuple(reasons),
        fee=fee,
        fee_kind="renewal" if renewing else "application",
        expires=s.hen_permit_year.ends.of(year),
        permit_year=year,
        new_application_needed=new_application,
    )
    notes = ("a renewal with changes needs a new full application",) if new_application else ()
    return Decision(value, tuple(cites), notes, tuple(not_set))


def _permit_year(s: PermitsSection, facts: HenFacts, on: date) -> int:
    """§ 7-1-26(d)(7) read with (d)(6) (the pack's `hen_renewal.choice`): a renewal covers the permit
    year after the renewed permit's, or the year it is made in if that permit has already ended; a
    renewal whose old permit is not named renews the one in force on `on`, this year's."""
    if not facts.renewal:
        return on.year
    renewed_year = facts.renews_expiring_on.year if facts.renews_expiring_on is not None else on.year
    return max(on.year, renewed_year + 1)


class SitePlanFacts(Facts):
    renewal: bool = False
    changes: bool = False


@dataclass(frozen=True)
class SitePlanAnswer:
    """`required`: the application attaches the site plan. `applies` false: none is asked for."""

    applies: bool
    required: bool | None = None


@question(
    "hen_permit_site_plan",
    facts=SitePlanFacts,
    value=SitePlanAnswer,
    doc="Cedarburg backyard hens: whether the application must attach the site plan (a new or "
    "changed application does; a renewal without changes keeps the plan on file).",
)
def hen_permit_site_plan(pack, facts: SitePlanFacts, on: date, local) -> Decision:
    s: PermitsSection | None = pack.permits
    if s is None or s.hen_site_plan is None:
        return Decision(SitePlanAnswer(False), (), ("this ordinance asks for no site plan",))
    cites = [s.hen_site_plan.cite.citation]
    if facts.renewal and s.hen_renewal is not None:
        cites.append(s.hen_renewal.cite.citation)
    return Decision(SitePlanAnswer(True, not (facts.renewal and not facts.changes)), tuple(cites))


class NoFacts(Facts):
    pass


@dataclass(frozen=True)
class RevocationAnswer:
    """`procedure_in_text`: the ordinance sets the revocation's procedure (where it does not, the
    choice made is in the notes). `applies` false: this ordinance has no hen permit to revoke."""

    applies: bool
    procedure_in_text: bool | None = None
    notice_and_hearing_first: bool | None = None


@question(
    "hen_permit_revocation",
    facts=NoFacts,
    value=RevocationAnswer,
    doc="Cedarburg backyard hens: the provision a revocation rests on, and what the text says of "
    "the procedure (the choice made where it says nothing).",
)
def hen_permit_revocation(pack, facts: NoFacts, on: date, local) -> Decision:
    s: PermitsSection | None = pack.permits
    if s is None or s.hen_revocation is None:
        return Decision(RevocationAnswer(False), (), ("this ordinance has no hen permit to revoke",))
    rule = s.hen_revocation
    value = RevocationAnswer(True, False, rule.notice_and_hearing_first)
    return Decision(value, (rule.cite.citation,), (rule.choice,) if rule.choice else ())


class ViciousPermitFacts(Facts):
    first_permit: bool = True
    insurance_shown: bool
    insurance_statement_signed: bool = False
    renews_expiring_on: date | None = None


@dataclass(frozen=True)
class Proration:
    """The first year's fee `prorated` by `method`: `remaining` days of the year's `of`."""

    prorated: bool
    method: Literal["by_day", "none"]
    remaining: int | None = None
    of: int | None = None


Missing = Literal["insurance", "insurance_statement_signed"]


@dataclass(frozen=True)
class ViciousDogPermitAnswer:
    """Whether the permit `may_issue` (else `reasons`, by what is missing), the `fee` (`fee_kind`
    initial or renewal, its `proration`), the day it `expires` and the day its renewal is due.
    `renewed_after_due`: a renewal made after the day its fee was due, that day (the ordinance
    sets no late fee). `applies` false: this ordinance sets no permit fee or no permit year; `fee`
    null with `applies` true: the fee is not set (`not_set`) or none is in force."""

    applies: bool
    may_issue: bool | None = None
    reasons: dict[Missing, str] = field(default_factory=dict)
    fee: Decimal | None = None
    proration: Proration | None = None
    fee_kind: Literal["initial", "renewal"] | None = None
    expires: date | None = None
    renewal_due: date | None = None
    renewed_after_due: date | None = None


def _fee_of(fee: Decision) -> tuple[Decimal, Proration] | None:
    """The fee vicious_dog_permit_fee answers and its proration; None when it sets none."""
    v = fee.value
    if v.fee is None:
        return None
    return v.fee, Proration(v.prorated, v.method, v.remaining, v.of)


@question(
    "vicious_dog_permit",
    facts=ViciousPermitFacts,
    value=ViciousDogPermitAnswer,
    doc="The annual vicious-dog permit issued (or renewed, `renews_expiring_on` the old permit's "
    "last day) on `on`: whether it may issue (insurance or bond shown first), the fee "
    "(the first prorated, a renewal never), the day it expires and the day renewal is due.",
)
def vicious_dog_permit(pack, facts: ViciousPermitFacts, on: date, local) -> Decision:
    from .dangerous_dogs import PermitFeeFacts, vicious_dog_permit_fee

    renewal = facts.renews_expiring_on is not None
    fee = vicious_dog_permit_fee(pack, PermitFeeFacts(first_permit=facts.first_permit and not renewal), on, local)
    charged = _fee_of(fee)
    if charged is None:
        # The ordinance sets the fee (applies); its amount is not set, or none is in force.
        return Decision(ViciousDogPermitAnswer(fee.value.applies), fee.citations, fee.notes, fee.not_set)
    s: PermitsSection | None = pack.permits
    term = s.vicious_dog_permit_year if s is not None else None
    if term is None:
        return Decision(
            ViciousDogPermitAnswer(False), fee.citations, ("this ordinance sets no vicious-dog permit year",)
        )
    insurance, statement = s.vicious_dog_permit_insurance, s.vicious_dog_permit_insurance_statement
    missing = {
        "insurance": (insurance, facts.insurance_shown, "no liability insurance or surety bond shown"),
        "insurance_statement_signed": (
            statement,
            facts.insurance_statement_signed,
            "the owner has not signed the statement attesting to keep the insurance",
        ),
    }
    refused = {name: (rule, reason) for name, (rule, done, reason) in missing.items() if rule is not None and not done}
    if refused:
        return Decision(
            ViciousDogPermitAnswer(True, False, {name: reason for name, (_, reason) in refused.items()}),
            tuple(rule.cite.citation for rule, _ in refused.values()),
            tuple(rule.choice for rule, _ in refused.values() if rule.choice),
        )
    notes = list(fee.notes) + ([term.choice] if term.choice else [])
    year, late = on.year, None
    if renewal:
        year = max(on.year, facts.renews_expiring_on.year + 1)
        counted = named_day(term.renewal_due.of(facts.renews_expiring_on.year + 1), not_moved=term.not_moved)
        due, moved = counted.day, counted
        if on > due:
            late = due
            notes.append("renewed after the day the fee was due; the ordinance sets no late fee")
    cites = list(fee.citations) + [term.cite.citation] + [r.cite.citation for r in (insurance, statement) if r]
    next_due = named_day(term.renewal_due.of(year + 1), not_moved=term.not_moved)
    for counted in (moved, next_due) if renewal else (next_due,):
        cites += [c for c in counted.citations if c not in cites]
        notes += [n for n in counted.notes if n not in notes]
    value = ViciousDogPermitAnswer(
        True,
        may_issue=True,
        fee=charged[0],
        proration=charged[1],
        fee_kind="renewal" if renewal else "initial",
        expires=term.ends.of(year),
        renewal_due=next_due.day,
        renewed_after_due=late,
    )
    return Decision(value, tuple(cites), tuple(notes))
