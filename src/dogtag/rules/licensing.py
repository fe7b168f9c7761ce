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
from decimal import Decimal
from typing import Literal, Optional

from .schema import Amount, Dated, Money, MonthDay, Period, Provision, Strict, section

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
    species: Optional[SpeciesProvision] = None
    licensable_age: Optional[LicensableAge] = None
    license_year: Optional[LicenseYear] = None
    minimum_tax: Optional[MinimumTax] = None
    tax: Optional[Tax] = None
    half_tax: Optional[HalfTax] = None
    late_fee: Optional[LateFee] = None
    free_license: list[FreeLicense] = []
    not_required: Optional[NotRequired] = None
    license_states: Optional[Contents] = None
    tag_bears: Optional[Contents] = None
    requires_current_rabies: Optional[Provision] = None
    unused_tags_return: Optional[ReturnBy] = None


class LastDayExtension(Provision):
    extend: bool


@section("time")
class TimeSection(Strict):
    last_day_extension: Optional[LastDayExtension] = None

