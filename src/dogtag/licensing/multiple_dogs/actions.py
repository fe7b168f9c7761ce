"""Issuing and revoking a multiple-dog license (§ 98-3B). The quote and the checks it is issued
against are read in licensing/multiple_dogs/rules.py."""

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import record, save_and_record, snapshot
from dogtag.licensing.actions.payments import record_payment
from dogtag.licensing.actions.roles import CLERKS, REVOKERS
from dogtag.licensing.actions.tags import move_counter_to, take_tag
from dogtag.licensing.models import License, Revocation, Tag
from dogtag.licensing.multiple_dogs.rules import barred, check_animals, quote, section_of
from dogtag.registry.models import Animal, today
from dogtag.rules.decision import citations_json


@transaction.atomic
def issue_multiple_dog_license(
    *,
    acting_user,
    municipality,
    keeper,
    dogs: int,
    animals=(),
    inspection_consent: bool,
    payment: dict | None = None,
    license_year: int | None = None,
    on: date | None = None,
) -> License:
    """Issue one multiple-dog license and a tag for each dog authorized (§ 98-3B: "a number of
    tags equal to the number of dogs authorized to be kept"); refused with nothing written."""
    require_role(acting_user, municipality.pk, CLERKS)
    on = on or today()
    animals = list(animals or ())
    q = quote(municipality, dogs or 0, on, license_year)
    if keeper is None or keeper.municipality_id != municipality.pk:
        q.refuse("keeper", f"Choose the keeper from {municipality}'s people.")
    elif revoked := barred(keeper, q.license_year):
        q.refuse(
            "keeper",
            f"Multiple-dog license {revoked.serial} of {keeper.name} was revoked for "
            f"{revoked.get_revocation_display().lower()}; no multiple-dog license is issued to such a keeper "
            f"({q.section}).",
        )
    if q.decision is not None:  # the law provides the license
        check_animals(q, municipality, keeper if q.refusals.get("keeper") is None else None, animals)
        if not inspection_consent:
            q.refuse(
                "inspection_consent",
                "Record the keeper's consent: the application is deemed consent to inspection of the licensed "
                f"premises at any reasonable hour, and a refusal revokes the license ({q.section}).",
            )
    if q.refusals:
        raise ValidationError(q.refusals)
    tags = [take_tag(municipality, q.license_year) for _ in range(dogs)]
    move_counter_to(tags[-1])  # before the receipt number
    paid = record_payment(acting_user=acting_user, municipality=municipality, payer=keeper, due=q.tax, payment=payment)
    license = License.objects.create(
        municipality=municipality,
        kind=License.Kind.MULTIPLE_DOG,
        license_year=q.license_year,
        serial=tags[0].serial,
        holder=keeper,
        issued_on=on,
        expires_on=q.expires_on,
        tax=q.tax,
        late_fee=0,
        payment=paid,
        issued_by=acting_user,
        owner_name=keeper.name,
        owner_address=keeper.address,
        species=Animal.Species.DOG,
        county=municipality.county,
        dogs_authorized=dogs,
        inspection_consent_on=on,
        citations=citations_json([*q.decision.citations, *q.expiry_citations]),
    )
    license.covered_animals.set(animals)
    Tag.objects.filter(pk__in=[t.pk for t in tags]).update(license=license)
    record(acting_user=acting_user, action=Action.LICENSE_ISSUE_MULTIPLE_DOG, obj=license)
    return license


@transaction.atomic
def revoke_multiple_dog_license(license, *, acting_user, category: str, reason: str) -> License:
    """§ 98-3B: a refusal of inspection "shall automatically operate as a revocation"; a license
    found to constitute a public nuisance "shall be revoked". Its tags are retired; nothing is deleted."""
    require_role(acting_user, license.municipality_id, REVOKERS)
    section = section_of(license.municipality)
    errors = {}
    if license.kind != License.Kind.MULTIPLE_DOG:
        errors["license"] = f"License {license.serial} is not a multiple-dog license; void it instead."
    elif license.voided_at:
        errors["license"] = f"License {license.serial} is already void ({license.void_reason})."
    if category not in Revocation.values:
        errors["category"] = (
            f"Choose why it is revoked: {', '.join(label.lower() for label in Revocation.labels)} ({section})."
        )
    if not (reason or "").strip():
        errors["reason"] = "Say what happened (date, official, what was found)."
    if errors:
        raise ValidationError(errors)
    before = snapshot(license)
    license.voided_at = timezone.now()
    license.revocation = category
    license.void_reason = f"Revoked — {Revocation(category).label.lower()} ({section}): {reason.strip()}"[:300]
    license.tags.filter(status=Tag.Status.ISSUED).update(status=Tag.Status.VOIDED)
    return save_and_record(license, acting_user=acting_user, action=Action.LICENSE_REVOKE, before=before)
