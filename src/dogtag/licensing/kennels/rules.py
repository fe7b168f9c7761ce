"""Benton's kennel license (§ 115-3B): the application with every field § 115-3B(1) lists,
inspections whose findings must be corrected before approval (§ 115-3B(2)), the siting and space
checks (§ 115-3B(3)), the ten-dog maximum, the initial or renewal fee and the December 31 expiry —
every figure and section from the rule pack."""

from dataclasses import asdict, dataclass, field
from datetime import date
from decimal import Decimal

from dogtag.lib.dates import shown
from dogtag.licensing import law
from dogtag.licensing.models import KennelLicense
from dogtag.licensing.owed import not_set_message, section_label
from dogtag.registry.models import Animal
from dogtag.rules.licensing import period_words

# The application's fields (§ 115-3B(1)), as KennelLicense names them.
APPLICATION_FIELDS = (
    "owner",
    "operator_name",
    "premises",
    "capacity",
    "description",
    "use",
    "signed_on",
    "from_other_structures_ft",
    "from_lot_lines_ft",
    "kennel_sq_ft",
    "privacy_fence",
)


def provision(municipality):
    """The pack's kennel section, or None where the law requires no kennel license."""
    k = law.pack_of(municipality).kennel
    return k if k is not None and k.required is not None else None


def _age(period) -> str:
    return f"dogs over {period_words(period)}" if period else "dogs"


def is_renewal(premises, license_year: int) -> bool:
    """An "uninterrupted renewal": the same premises held a kennel license, not void, last year."""
    return KennelLicense.objects.filter(
        premises=premises, license_year=license_year - 1, status=KennelLicense.Status.ISSUED, voided_at=None
    ).exists()


def dogs_at(premises):
    return Animal.objects.filter(premises=premises, species=Animal.Species.DOG, status=Animal.Status.ACTIVE)


@dataclass
class Review:
    """What the law says about approving this kennel license today, and every reason not yet."""

    decision: object = None
    dogs: int = 0
    renewal: bool = False
    refusals: list[tuple[str, str]] = field(default_factory=list)
    fee: Decimal | None = None
    expires: date | None = None

    def refuse(self, field_name, message):
        self.refusals.append((field_name, message))


# Each siting check of the engine's answer: the application's field, the pack's minimum, the refusal.
SITING = {
    "from_other_structures": (
        "from_other_structures_ft",
        "from_other_structures_ft",
        "The kennel is {value} ft from the nearest residential or commercial structure; at least {need} ft is "
        "required ({section}).",
    ),
    "from_lot_lines": (
        "from_lot_lines_ft",
        "from_lot_lines_ft",
        "The kennel is {value} ft from a lot line; at least {need} ft from all lot lines is required ({section}).",
    ),
    "space": (
        "kennel_sq_ft",
        "sq_ft_per_animal",
        "The kennel has {value} sq ft for {dogs} dogs; at least {need} sq ft for each animal is required ({section}).",
    ),
    "privacy_fence": ("privacy_fence", None, "The kennel is not surrounded by privacy fencing ({section})."),
}


def review(kennel: KennelLicense, on: date) -> Review:
    municipality = kennel.municipality
    k = provision(municipality)
    r = Review()
    if k is None:
        r.refuse("license", f"{municipality}'s law requires no kennel license.")
        return r
    if on.year > kennel.license_year:
        r.refuse("license_year", f"The {kennel.license_year} license year has ended; apply for {on.year}.")
    # A license applied for ahead of its year is priced and dated as of that year's first day.
    asked_on = on if on.year >= kennel.license_year else date(kennel.license_year, 1, 1)
    dogs = list(dogs_at(kennel.premises).order_by("name"))
    if unknown := [d.name for d in dogs if d.birth_date is None]:
        r.refuse(
            "dogs",
            f"Enter the birth date of {', '.join(unknown)}: the license and the limit count "
            f"{_age(k.required.over_age)} ({section_label(k.required.cite.citation)}).",
        )
    r.dogs = len(dogs)
    r.renewal = is_renewal(kennel.premises, kennel.license_year)
    facts = {
        "dogs_born_on": [d.birth_date for d in dogs if d.birth_date],
        "renewal": r.renewal,
        **{field_name: getattr(kennel, field_name) for field_name, _, _ in SITING.values()},
    }
    r.decision = d = law.ask(municipality, "kennel_license", facts, asked_on)
    value = d.value
    r.fee, r.expires = value.fee, value.expires
    if not value.required:
        r.refuse(
            "dogs",
            f"{value.dogs_over_age} {_age(k.required.over_age)} are kept at "
            f"{kennel.premises}; a kennel license is required, and issued, for more than "
            f"{k.required.more_than} ({section_label(k.required.cite.citation)}).",
        )
    if value.over_limit:
        r.refuse(
            "dogs",
            f"{value.dogs_over_age} {_age(k.maximum.over_age)} are kept at {kennel.premises}; "
            f"no more than {value.at_most} may be kept on any one premises ({section_label(k.maximum.cite.citation)}).",
        )
    if k.siting is not None:
        for check, ok in asdict(value.siting).items():
            if ok is False:
                field_name, need, message = SITING[check]
                r.refuse(
                    field_name,
                    message.format(
                        value=getattr(kennel, field_name),
                        need=need and getattr(k.siting, need),
                        dogs=len(facts["dogs_born_on"]),
                        section=section_label(k.siting.cite.citation),
                    ),
                )
    if k.inspection is not None:
        section = section_label(k.inspection.cite.citation)
        inspections = list(kennel.inspections.all())
        if not inspections:
            r.refuse(
                "inspection",
                "No inspection is recorded: before a license is issued the County Health Officer, Building "
                f"Inspector or a licensed veterinarian inspects the proposed kennel premises ({section}).",
            )
        for i in inspections:
            if i.open_findings:
                r.refuse(
                    "inspection",
                    f"The problems found by {i.get_inspector_display()} {i.inspector_name} on "
                    f"{shown(i.inspected_on)} are not recorded as corrected; they must be corrected before "
                    f"approval ({section}).",
                )
    for missing in d.not_set:
        r.refuse("fee_schedule", not_set_message(missing))
    return r
