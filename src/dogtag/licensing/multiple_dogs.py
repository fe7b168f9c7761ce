"""The multiple-dog license (s. 174.053; Webster § 98-3B requires one above three dogs): one
license for a keeper's dogs, its tax from the engine, a tag for each dog authorized, the
inspection consent its application carries, and revocation with the reason category."""

from dataclasses import dataclass, field
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag.accounts.models import Role
from dogtag.accounts.scope import require_role
from dogtag.audit.record import record, snapshot
from dogtag.licensing import law
from dogtag.licensing.actions import CLERKS, _citations_json, record_payment
from dogtag.licensing.models import License, Revocation, Tag
from dogtag.licensing.owed import _section, covering_license, fee_label
from dogtag.licensing.tags import take_tag
from dogtag.registry.models import Animal, today
from dogtag.rules.licensing import license_year_of

REVOKERS = (*CLERKS, Role.OFFICER)


def provision(municipality):
    """The pack's multiple-dog license, or None where the law has none."""
    pack = law.pack_of(municipality)
    return pack.multiple_dog.license if pack.multiple_dog else None


def section_of(municipality) -> str:
    m = provision(municipality)
    return _section(m.cite.citation) if m else ""


@dataclass
class Quote:
    """The engine's answer for a number of dogs, with every reason it cannot be issued."""

    dogs: int
    decision: object = None
    license_year: int = 0
    expires_on: date | None = None
    expiry_citations: tuple = ()
    refusals: dict[str, list[str]] = field(default_factory=dict)
    not_set: bool = False

    @property
    def tax(self):
        return self.decision.value["tax"] if self.decision and self.decision.value else None

    def refuse(self, field_name, message):
        self.refusals.setdefault(field_name, []).append(message)


def quote(municipality, dogs: int, on: date, license_year: int | None = None) -> Quote:
    m = provision(municipality)
    q = Quote(dogs=dogs)
    if m is None:
        q.refuse("dogs", f"{municipality}'s law provides no multiple-dog license.")
        return q
    section = _section(m.cite.citation)
    pack = law.pack_of(municipality)
    q.license_year = license_year or license_year_of(pack, on)
    q.decision = law.ask(municipality, "multiple_dog_license", {"dogs": max(dogs, 0)}, on)
    if not q.decision.value["available"]:
        q.refuse(
            "dogs",
            f"A multiple-dog license is for a keeper of more than {m.available_above} dogs; "
            f"{dogs} entered ({section}).",
        )
    for missing in q.decision.not_set:
        q.not_set = True
        q.refuse(
            "fee_schedule",
            f"No amount is set for “{fee_label(missing.key)}”: {_section(missing.citation)} "
            "leaves it to the local fee schedule.",
        )
    expiry = law.ask(municipality, "license_expiry", {"issued_on": on, "license_year": q.license_year}, on)
    q.expires_on, q.expiry_citations = expiry.value["expires"], expiry.citations
    return q


def _check_animals(q: Quote, municipality, keeper, animals, section):
    seen = set()
    for animal in animals:
        if animal.municipality_id != municipality.pk or animal.species != Animal.Species.DOG:
            q.refuse("animals", f"{animal} is not a dog registered in {municipality}.")
        elif animal.status != Animal.Status.ACTIVE:
            q.refuse("animals", f"{animal.name} is recorded as {animal.get_status_display().lower()}.")
        elif animal.pk in seen:
            q.refuse("animals", f"{animal.name} is named twice.")
        elif keeper and keeper.pk not in {o.person_id for o in animal.current_owners()}:
            q.refuse("animals", f"{animal.name} is not kept by {keeper.name} on record.")
        elif covering := covering_license(animal, q.license_year):
            q.refuse(
                "animals",
                f"{animal.name} is already under multiple-dog license {covering.serial} for {q.license_year} "
                f"({section}).",
            )
        seen.add(animal.pk)
    if len(seen) > q.dogs:
        q.refuse(
            "dogs", f"{len(seen)} dogs are named but only {q.dogs} would be authorized; enter at least {len(seen)}."
        )


def _barred(keeper, license_year):
    """§ 98-3B: "No multiple dog license shall be issued to the keeper ... who fails to provide
    proper food and drink and proper shelter" — a revocation for that in the year bars a new one."""
    return (
        License.objects.filter(
            kind=License.Kind.MULTIPLE_DOG, holder=keeper, license_year=license_year, revocation=Revocation.NEGLECT
        )
        .order_by("-voided_at")
        .first()
    )


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
    section = section_of(municipality)
    if keeper is None or keeper.municipality_id != municipality.pk:
        q.refuse("keeper", f"Choose the keeper from {municipality}'s people.")
    elif revoked := _barred(keeper, q.license_year):
        q.refuse(
            "keeper",
            f"Multiple-dog license {revoked.serial} of {keeper.name} was revoked for "
            f"{revoked.get_revocation_display().lower()}; no multiple-dog license is issued to such a keeper "
            f"({section}).",
        )
    if provision(municipality) is not None:
        _check_animals(q, municipality, keeper if q.refusals.get("keeper") is None else None, animals, section)
        if not inspection_consent:
            q.refuse(
                "inspection_consent",
                "Record the keeper's consent: the application is deemed consent to inspection of the licensed "
                f"premises at any reasonable hour, and a refusal revokes the license ({section}).",
            )
    if q.refusals:
        raise ValidationError(q.refusals)
    paid = record_payment(acting_user=acting_user, municipality=municipality, payer=keeper, due=q.tax, payment=payment)
    tags = [take_tag(municipality, q.license_year) for _ in range(dogs)]
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
        citations=_citations_json([*q.decision.citations, *q.expiry_citations]),
    )
    license.covered_animals.set(animals)
    Tag.objects.filter(pk__in=[t.pk for t in tags]).update(license=license)
    record(acting_user=acting_user, action="license.issue_multiple_dog", obj=license)
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
    license.save()
    license.tags.filter(status=Tag.Status.ISSUED).update(status=Tag.Status.VOIDED)
    record(acting_user=acting_user, action="license.revoke", obj=license, before=before)
    return license
