"""Permits: Cedarburg's backyard hens (§ 7-1-26). The vicious-dog permit fee is in dangerous_dogs."""
from __future__ import annotations

from datetime import date
from typing import Optional

from pydantic import Field

from .amounts import amount_at
from .catalogue import Facts, question
from .decision import Decision
from .schema import Amount, MonthDay, Provision, Strict, section


class Zoning(Provision):
    zoned: list[str]
    excluded_uses: list[str]


class MostAnimals(Provision):
    most: int = Field(ge=0)


class HenFees(Provision):
    application: Amount
    renewal: Amount


class PermitYear(Provision):
    ends: MonthDay
    prorated: bool


@section("permits")
class PermitsSection(Strict):
    hen_zoning: Optional[Zoning] = None
    hen_limit: Optional[MostAnimals] = None
    roosters: Optional[MostAnimals] = None
    hen_fees: Optional[HenFees] = None
    hen_permit_year: Optional[PermitYear] = None
    hen_owner_consent: Optional[Provision] = None
    hen_premises_registration: Optional[Provision] = None


class HenFacts(Facts):
    zoning: str
    parcel_uses: list[str] = []
    hens: int = Field(ge=0)
    roosters: int = Field(default=0, ge=0)
    all_owners_signed: bool
    premises_registration: bool
    renewal: bool = False
    changes: bool = False


@question("hen_permit", facts=HenFacts,
          doc="Cedarburg backyard hens: may a permit issue (zoning, number, roosters, owners' consent, "
              "premises registration), the fee (application or renewal, never prorated) and its expiry.")
def hen_permit(pack, facts: HenFacts, on: date, local) -> Decision:
    s: Optional[PermitsSection] = pack.permits
    if s is None or s.hen_fees is None:
        return Decision(None, (), ("this ordinance has no hen permit",))
    cites, reasons, not_set = [], [], []

    def check(rule, ok: bool, reason: str) -> None:
        cites.append(rule.cite.citation)
        if not ok:
            reasons.append(reason)

    check(s.hen_zoning, facts.zoning in s.hen_zoning.zoned and not set(facts.parcel_uses) & set(s.hen_zoning.excluded_uses),
          "the parcel is not zoned single-family residential only")
    check(s.hen_limit, facts.hens <= s.hen_limit.most, f"more than {s.hen_limit.most} hens")
    check(s.roosters, facts.roosters <= s.roosters.most, "roosters or other crowing fowl")
    check(s.hen_owner_consent, facts.all_owners_signed, "not signed or countersigned by all owners of record")
    check(s.hen_premises_registration, facts.premises_registration, "no Livestock Premises Registration number")
    renewing = facts.renewal and not facts.changes
    fee, missing = amount_at(s.hen_fees.renewal if renewing else s.hen_fees.application, on, local, s.hen_fees.cite.citation)
    if missing:
        not_set.append(missing)
    cites += [s.hen_fees.cite.citation, s.hen_permit_year.cite.citation]
    value = {"may_issue": not reasons, "reasons": reasons, "fee": fee, "fee_kind": "renewal" if renewing else "application",
             "expires": s.hen_permit_year.ends.of(on.year)}
    notes = ("a renewal with changes needs a new full application",) if facts.renewal and facts.changes else ()
    return Decision(value, tuple(cites), notes, tuple(not_set))
