"""The multiple-dog license (s. 174.053; Webster § 98-3B requires one above three dogs): one
license for a keeper's dogs, its tax from the engine, a tag for each dog authorized, the
inspection consent its application carries, and revocation with the reason category."""

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from dogtag.licensing import law
from dogtag.licensing.facts import covering_license
from dogtag.licensing.models import License, Revocation
from dogtag.licensing.owed import not_set_message, section_label
from dogtag.registry.models import Animal
from dogtag.rules.licensing import license_year_of


def provision(municipality):
    """The pack's multiple-dog license, or None where the law has none."""
    pack = law.pack_of(municipality)
    return pack.multiple_dog.license if pack.multiple_dog else None


def section_of(municipality) -> str:
    m = provision(municipality)
    return section_label(m.cite.citation) if m else ""


@dataclass
class Quote:
    """The engine's answer for a number of dogs, with every reason it cannot be issued."""

    dogs: int
    decision: object = None
    tax: Decimal | None = None
    section: str = ""
    license_year: int = 0
    expires_on: date | None = None
    expiry_citations: tuple = ()
    refusals: dict[str, list[str]] = field(default_factory=dict)

    def refuse(self, field_name, message):
        self.refusals.setdefault(field_name, []).append(message)


def quote(municipality, dogs: int, on: date, license_year: int | None = None) -> Quote:
    m = provision(municipality)
    q = Quote(dogs=dogs)
    if m is None:
        q.refuse("dogs", f"{municipality}'s law provides no multiple-dog license.")
        return q
    q.section = section = section_label(m.cite.citation)
    q.license_year = license_year or license_year_of(law.pack_of(municipality, on), on)
    q.decision = law.ask(municipality, "multiple_dog_license", {"dogs": max(dogs, 0)}, on)
    q.tax = q.decision.value.tax
    if not q.decision.value.available:
        q.refuse(
            "dogs",
            f"A multiple-dog license is for a keeper of more than {m.available_above} dogs; "
            f"{dogs} entered ({section}).",
        )
    for missing in q.decision.not_set:
        q.refuse("fee_schedule", not_set_message(missing))
    expiry = law.ask(municipality, "license_expiry", {"issued_on": on, "license_year": q.license_year}, on)
    q.expires_on, q.expiry_citations = expiry.value.expires, expiry.citations
    return q


def check_animals(q: Quote, municipality, keeper, animals):
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
                f"({q.section}).",
            )
        seen.add(animal.pk)
    if len(seen) > q.dogs:
        q.refuse(
            "dogs", f"{len(seen)} dogs are named but only {q.dogs} would be authorized; enter at least {len(seen)}."
        )


def barred(keeper, license_year):
    """§ 98-3B: "No multiple dog license shall be issued to the keeper ... who fails to provide
    proper food and drink and proper shelter" — a revocation for that in the year bars a new one."""
    revoked = License.objects.filter(holder=keeper, license_year=license_year, revocation=Revocation.NEGLECT)
    return revoked.filter(kind=License.Kind.MULTIPLE_DOG).order_by("-voided_at").first()
