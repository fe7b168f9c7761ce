"""Who must license, the license tax, the late fee and the license year (ch. 174 and the
ordinances' license sections).

Choices on ambiguous text (each also written beside its provision in the packs):
- A dog "becomes five months of age" on its five-month birthday (`licensable_on`); the license
  is due "on or before" that day, and the dog is "more than five months of age" from the next
  day. A birthday past the end of a shorter month lands on its last day.
- "Within 30 days of acquiring" counts under s. 990.001(4): the day of acquisition is excluded,
  the 30th day is the last (June 1 -> July 1), moved past a Sunday or legal holiday.
- The "prior to April 1" trigger applies to a dog the owner already had, at licensable age,
  before the license year began; dogs acquired or coming of age during the year answer to the
  30-day and licensable-age triggers instead.
"""
from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Literal

from .amounts import LocalAmounts, amount_at
from .catalogue import Facts, question
from .dates import ONE_DAY, last_day_within, plus
from .decision import CENT, ZERO, Citation, Decision
from .packs import Pack
from .schema import Amount, Dated, LocalAmount, Money, MonthDay, Period, Provision, Strict, section

Species = Literal["dog", "cat"]
Training = Literal["lead_blind_or_deaf", "support_mobility", "service"]


class SpeciesProvision(Provision):
    species: list[Species]


class LicensableAge(Provision):
    age: Period


class LicenseYear(Provision):
    starts: MonthDay
    ends: MonthDay


class Tax(Provision):
    altered: Amount
    unaltered: Amount


class MinimumTax(Provision):
    altered: Dated[Money]
    unaltered: Dated[Money]


class HalfTax(Provision):
    """The tax times `fraction` (one-half) if the animal became licensable age after `after`."""

    after: MonthDay
    fraction: Decimal


class LateFee(Provision):
    amount: Amount
    renewal_before: MonthDay
    acquired_within: Period
    by_licensable_age: bool = True


class FreeLicense(Provision):
    trained_to: list[Training]


class NotRequired(Provision):
    """Animals kept only for educational or scientific purposes need no license."""

    kept_only_for_education_or_science: bool = True


class Contents(Provision):
    items: list[str]


class ReturnBy(Provision):
    by: MonthDay


@section("licensing")
class LicensingSection(Strict):
    species: SpeciesProvision | None = None
    licensable_age: LicensableAge | None = None
    license_year: LicenseYear | None = None
    minimum_tax: MinimumTax | None = None
    tax: Tax | None = None
    half_tax: HalfTax | None = None
    half_tax_on_local_tax: Provision | None = None  # the reading that halves a fee-schedule tax too
    late_fee: LateFee | None = None
    free_license: list[FreeLicense] = []
    not_required: NotRequired | None = None
    license_states: Contents | None = None
    tag_bears: Contents | None = None
    requires_current_rabies: Provision | None = None
    unused_tags_return: ReturnBy | None = None


class LastDayExtension(Provision):
    extend: bool


@section("time")
class TimeSection(Strict):
    last_day_extension: LastDayExtension | None = None



# --- questions -----------------------------------------------------------------------------

class Animal(Facts):
    species: Species = "dog"
    born_on: date
    altered: bool = False
    acquired_on: date | None = None  # None: the owner has had it since before it was licensable
    trained_to: Training | None = None
    kept_only_for_education_or_science: bool = False
    license_year: int | None = None  # default: the license year that contains `on`


class Issue(Facts):
    issued_on: date
    license_year: int | None = None


class NoFacts(Facts):
    pass


def licensable_on(pack: Pack, born_on: date) -> date:
    """The day the animal "becomes five months of age" (the pack's licensable age)."""
    return plus(born_on, pack.licensing.licensable_age.age)


def license_year_of(pack: Pack, on: date) -> int:
    starts = pack.licensing.license_year.starts
    return on.year if on >= starts.of(on.year) else on.year - 1


@lru_cache(maxsize=4096)
def license_year_bounds(pack: Pack, year: int) -> tuple[date, date]:
    ly = pack.licensing.license_year
    start, end = ly.starts.of(year), ly.ends.of(year)
    return start, (end if end >= start else ly.ends.of(year + 1))


def _exclusion(pack: Pack, a: Animal) -> tuple[str, Citation] | None:
    lic = pack.licensing
    if a.species not in lic.species.species:
        return f"no {a.species} license under this law", lic.species.cite.citation
    if a.kept_only_for_education_or_science and lic.not_required is not None:
        return "kept only for educational or scientific purposes: no license required", lic.not_required.cite.citation
    return None


def late_fee_trigger(pack: Pack, a: Animal, on: date) -> tuple[str, date, Citation] | None:
    """Which of the three late-fee triggers binds this animal in its license year, and its last day.

    "renewal": owned at licensable age before the license year began, licensed on or after April 1;
    "acquisition": acquired at licensable age during the year, not licensed within 30 days;
    "licensable_age": came of age in the owner's hands, not licensed on or before that day.
    """
    lf = pack.licensing.late_fee
    year = a.license_year or license_year_of(pack, on)
    start, end = license_year_bounds(pack, year)
    due = licensable_on(pack, a.born_on)
    acquired = a.acquired_on
    cite = lf.cite.citation
    if due < start and (acquired is None or acquired < start):
        return "renewal", lf.renewal_before.of(year) - ONE_DAY, cite
    if acquired is not None and acquired >= start and due <= acquired:
        ext = pack.time.last_day_extension if pack.time else None
        return "acquisition", last_day_within(acquired, lf.acquired_within, bool(ext and ext.extend)), cite
    if lf.by_licensable_age and start <= due <= end and (acquired is None or acquired < due):
        return "licensable_age", due, cite
    return None


def license_tax(pack: Pack, a: Animal, on: date, local: LocalAmounts) -> Decision:
    lic = pack.licensing
    excluded = _exclusion(pack, a)
    if excluded:
        return Decision(None, (excluded[1],), (excluded[0],))
    if a.species == "dog" and a.trained_to:
        for free in lic.free_license:
            if a.trained_to in free.trained_to:
                return Decision(ZERO, (free.cite.citation,), ("free license: exempt from the license tax",))
    tax = lic.tax or lic.minimum_tax
    cites = [tax.cite.citation]
    notes: list[str] = []
    chosen = tax.altered if a.altered else tax.unaltered
    amount, missing = amount_at(chosen, on, local, cites[0])
    minimum = lic.minimum_tax
    if missing and getattr(chosen, "until_set", None) == "state_minimum" and minimum is not None:
        amount, missing = (minimum.altered if a.altered else minimum.unaltered).at(on), None
        cites.append(minimum.cite.citation)
        notes.append(f"no local tax in the fee schedule on {on}: the state minimum is the tax")
    if missing:
        return Decision(None, tuple(cites), (f"the license tax is a local amount not set for {on}",), (missing,))
    if amount is None:
        return Decision(None, tuple(cites), (f"no license tax in force on {on}",))
    if minimum is not None and tax is not minimum:
        floor = (minimum.altered if a.altered else minimum.unaltered).at(on)
        if floor is not None and amount < floor:
            amount = floor
            cites.append(minimum.cite.citation)
            notes.append("the local tax is below the state minimum; the minimum applies")
    if lic.half_tax is not None:
        year = a.license_year or license_year_of(pack, on)
        start, end = license_year_bounds(pack, year)
        due = licensable_on(pack, a.born_on)
        if start <= due <= end and due > lic.half_tax.after.of(year):
            amount = (amount * lic.half_tax.fraction).quantize(CENT, rounding=ROUND_HALF_UP)
            cites.append(lic.half_tax.cite.citation)
            if lic.half_tax_on_local_tax is not None and isinstance(chosen, LocalAmount):
                cites.append(lic.half_tax_on_local_tax.cite.citation)
            notes.append(f"licensable age reached on {due}, after {lic.half_tax.after.of(year)}: one-half")
    return Decision(amount, tuple(cites), tuple(notes))


def late_fee(pack: Pack, a: Animal, on: date, local: LocalAmounts) -> Decision:
    lf = pack.licensing.late_fee
    excluded = _exclusion(pack, a)
    if excluded:
        return Decision({"amount": ZERO, "trigger": None, "deadline": None}, (excluded[1],), (excluded[0],))
    trigger = late_fee_trigger(pack, a, on)
    if trigger is None or on <= trigger[1]:
        value = {"amount": ZERO, "trigger": None, "deadline": trigger[1] if trigger else None}
        return Decision(value, (lf.cite.citation,), ())
    name, deadline, cite = trigger
    amount, missing = amount_at(lf.amount, on, local, cite)
    notes = (f"{name}: the last day to license without a late fee was {deadline}",)
    value = {"amount": amount, "trigger": name, "deadline": deadline}
    return Decision(value, (cite,), notes, (missing,) if missing else ())


@question("license_tax", facts=Animal, doc="The license tax for an animal licensed on a date.")
def _license_tax(pack, facts, on, local):
    return license_tax(pack, facts, on, local)


@question("late_fee", facts=Animal, doc="The late fee on a date: amount, the trigger that applied, its last day.")
def _late_fee(pack, facts, on, local):
    return late_fee(pack, facts, on, local)


@question("license_charges", facts=Animal, doc="License tax plus late fee for a license issued on a date.")
def license_charges(pack: Pack, a: Animal, on: date, local: LocalAmounts) -> Decision:
    tax, late = license_tax(pack, a, on, local), late_fee(pack, a, on, local)
    fee = late.value["amount"]
    total = None if tax.value is None or fee is None else tax.value + fee
    value = {"tax": tax.value, "late_fee": fee, "total": total, "trigger": late.value["trigger"]}
    cites = tax.citations + tuple(c for c in late.citations if c not in tax.citations)
    return Decision(value, cites, tax.notes + late.notes, tax.not_set + late.not_set)


@question("license_required", facts=Animal,
          doc="Whether the animal must be licensed for the license year, from when and by when.")
def license_required(pack: Pack, a: Animal, on: date, local: LocalAmounts) -> Decision:
    lic = pack.licensing
    due = licensable_on(pack, a.born_on)
    year = a.license_year or license_year_of(pack, on)
    cites = [lic.licensable_age.cite.citation]
    value = {"required": False, "license_year": year, "licensable_on": due, "due_by": None,
             "trigger": None, "free_license": False}
    excluded = _exclusion(pack, a)
    if excluded:
        return Decision(value, (excluded[1],), (excluded[0],))
    if due > license_year_bounds(pack, year)[1]:
        return Decision(value, tuple(cites), (f"not of licensable age in license year {year}",))
    trigger = late_fee_trigger(pack, a, on)
    if trigger is not None:
        value["trigger"], value["due_by"] = trigger[0], trigger[1]
        cites.append(trigger[2])
    value["required"] = True
    if a.species == "dog" and a.trained_to:
        for free in lic.free_license:
            if a.trained_to in free.trained_to:
                value["free_license"] = True
                cites.append(free.cite.citation)
    return Decision(value, tuple(cites), ())


@question("license_expiry", facts=Issue, doc="The license year of a license issued on a date, and when it expires.")
def license_expiry(pack: Pack, facts: Issue, on: date, local: LocalAmounts) -> Decision:
    lic = pack.licensing
    year = facts.license_year or license_year_of(pack, facts.issued_on)
    start, end = license_year_bounds(pack, year)
    value = {"license_year": year, "starts": start, "expires": end, "expired": on > end}
    cites = [lic.license_year.cite.citation]
    if lic.unused_tags_return is not None:
        value["unused_tags_return_by"] = lic.unused_tags_return.by.of(end.year)
        cites.append(lic.unused_tags_return.cite.citation)
    return Decision(value, tuple(cites), ())


@question("license_contents", facts=NoFacts, doc="What the license must state and what the tag must bear.")
def license_contents(pack: Pack, facts: NoFacts, on: date, local: LocalAmounts) -> Decision:
    lic = pack.licensing
    parts = {"license": lic.license_states, "tag": lic.tag_bears}
    value = {k: (p.items if p else None) for k, p in parts.items()}
    value["requires_current_rabies"] = lic.requires_current_rabies is not None
    cites = [p.cite.citation for p in (*parts.values(), lic.requires_current_rabies) if p]
    return Decision(value, tuple(cites), ())
