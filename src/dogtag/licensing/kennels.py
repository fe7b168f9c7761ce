"""Benton's kennel license (§ 115-3B): the application with every field § 115-3B(1) lists,
inspections whose findings must be corrected before approval (§ 115-3B(2)), the siting and space
checks (§ 115-3B(3)), the ten-dog maximum, the initial or renewal fee and the December 31 expiry —
every figure and section from the rule pack."""

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag.accounts.scope import require_role
from dogtag.audit.record import record, snapshot
from dogtag.licensing import law
from dogtag.licensing.actions import CLERKS, _citations_json, record_payment
from dogtag.licensing.models import Inspection, KennelLicense
from dogtag.licensing.owed import _section, fee_label
from dogtag.registry.models import Animal, today

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


def _application_section(k) -> str:
    # § 115-3B(1) lists the application's fields and sets the fee; the fee's citation is that subsection.
    return _section((k.fee or k.term or k.required).cite.citation)


def _age(period) -> str:
    if period is None:
        return "dogs"
    unit, n = next((u, n) for u, n in (("days", period.days), ("months", period.months), ("years", period.years)) if n)
    return f"dogs over {n} {unit}"


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
    not_set: bool = False

    @property
    def fee(self) -> Decimal | None:
        return (self.decision.value or {}).get("fee") if self.decision else None

    @property
    def expires(self) -> date | None:
        return (self.decision.value or {}).get("expires") if self.decision else None

    def refuse(self, field_name, message):
        self.refusals.append((field_name, message))


SITING = {
    "from_other_structures": (
        "from_other_structures_ft",
        "The kennel is {value} ft from the nearest residential or commercial structure; at least {need} ft is "
        "required ({section}).",
    ),
    "from_lot_lines": (
        "from_lot_lines_ft",
        "The kennel is {value} ft from a lot line; at least {need} ft from all lot lines is required ({section}).",
    ),
    "space": (
        "kennel_sq_ft",
        "The kennel has {value} sq ft for {dogs} dogs; at least {need} sq ft for each animal is required ({section}).",
    ),
    "privacy_fence": ("privacy_fence", "The kennel is not surrounded by privacy fencing ({section})."),
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
    unknown = [d.name for d in dogs if d.birth_date is None]
    if unknown:
        r.refuse(
            "dogs",
            f"Enter the birth date of {', '.join(unknown)}: the license and the limit count "
            f"{_age(k.required.over_age)} ({_section(k.required.cite.citation)}).",
        )
    r.dogs = len(dogs)
    r.renewal = is_renewal(kennel.premises, kennel.license_year)
    facts = {
        "dogs_born_on": [d.birth_date for d in dogs if d.birth_date],
        "renewal": r.renewal,
        "from_other_structures_ft": kennel.from_other_structures_ft,
        "from_lot_lines_ft": kennel.from_lot_lines_ft,
        "kennel_sq_ft": kennel.kennel_sq_ft,
        "privacy_fence": kennel.privacy_fence,
    }
    r.decision = d = law.ask(municipality, "kennel_license", facts, asked_on)
    value = d.value
    if not value["required"]:
        r.refuse(
            "dogs",
            f"{value['dogs_over_age']} {_age(k.required.over_age)} are kept at "
            f"{kennel.premises}; a kennel license is required, and issued, for more than "
            f"{k.required.more_than} ({_section(k.required.cite.citation)}).",
        )
    if value.get("over_limit"):
        r.refuse(
            "dogs",
            f"{value['dogs_over_age']} {_age(k.maximum.over_age)} are kept at {kennel.premises}; "
            f"no more than {value['at_most']} may be kept on any one premises ({_section(k.maximum.cite.citation)}).",
        )
    if k.siting is not None:
        needs = {
            "from_other_structures": k.siting.from_other_structures_ft,
            "from_lot_lines": k.siting.from_lot_lines_ft,
            "space": k.siting.sq_ft_per_animal,
            "privacy_fence": None,
        }
        for check, ok in value["siting"].items():
            if ok is False:
                field_name, message = SITING[check]
                r.refuse(
                    field_name,
                    message.format(
                        value=getattr(kennel, field_name),
                        need=needs[check],
                        dogs=len(facts["dogs_born_on"]),
                        section=_section(k.siting.cite.citation),
                    ),
                )
    if k.inspection is not None:
        _check_inspections(kennel, r, _section(k.inspection.cite.citation))
    for missing in d.not_set:
        r.not_set = True
        r.refuse(
            "fee_schedule",
            f"No amount is set for “{fee_label(missing.key)}”: {_section(missing.citation)} leaves it to the "
            "local fee schedule.",
        )
    return r


def _check_inspections(kennel, r: Review, section: str):
    inspections = list(kennel.inspections.all())
    if not inspections:
        r.refuse(
            "inspection",
            "No inspection is recorded: before a license is issued the County Health Officer, Building Inspector "
            f"or a licensed veterinarian inspects the proposed kennel premises ({section}).",
        )
    for i in inspections:
        if i.open_findings:
            r.refuse(
                "inspection",
                f"The problems found by {i.get_inspector_display()} {i.inspector_name} on {i.inspected_on} are not "
                f"recorded as corrected; they must be corrected before approval ({section}).",
            )


def _errors(pairs) -> dict:
    errors = {}
    for field_name, message in pairs:
        errors.setdefault(field_name, []).append(message)
    return errors


@transaction.atomic
def apply_for_kennel_license(*, acting_user, municipality, license_year: int | None = None, **fields) -> KennelLicense:
    """File the annual application § 115-3B(1) describes; nothing is approved yet."""
    require_role(acting_user, municipality.pk, CLERKS)
    k = provision(municipality)
    if k is None:
        raise ValidationError({"license": f"{municipality}'s law requires no kennel license."})
    section = _application_section(k)
    year = license_year or today().year
    errors = {}
    labels = {
        "owner": "the kennel owner's name",
        "premises": "the kennel address",
        "capacity": "the kennel capacity",
        "description": "a brief description of the kennel and facility",
        "use": "whether the kennel is for personal or business use",
        "signed_on": "the date of the owner's signature",
    }
    for name, label in labels.items():
        value = fields.get(name)
        if value in (None, "") or (isinstance(value, str) and not value.strip()):
            errors[name] = f"Enter {label}: the application must state it ({section})."
    for name in ("owner", "premises"):
        obj = fields.get(name)
        if obj is not None and obj.municipality_id != municipality.pk:
            errors[name] = f"Choose from {municipality}'s records."
    if fields.get("use") and fields["use"] not in KennelLicense.Use.values:
        errors["use"] = f"Choose personal or business use ({section})."
    if fields.get("capacity") is not None and fields["capacity"] < 1:
        errors["capacity"] = "The kennel capacity is a number of dogs, 1 or more."
    if fields.get("signed_on") and fields["signed_on"] > today():
        errors["signed_on"] = f"The owner's signature date {fields['signed_on']} is in the future."
    siting = _section(k.siting.cite.citation) if k.siting else section
    for name in ("from_other_structures_ft", "from_lot_lines_ft", "kennel_sq_ft"):
        if fields.get(name) is None or fields[name] < 0:
            errors[name] = f"Enter the measurement in feet (square feet for the area); {siting} sets the minimum."
    if fields.get("privacy_fence") is None:
        fields["privacy_fence"] = False
    if year < today().year:
        errors["license_year"] = f"The {year} license year has ended."
    if not errors and (
        open_one := KennelLicense.objects.filter(premises=fields["premises"], license_year=year, voided_at=None)
        .exclude(status=KennelLicense.Status.REFUSED)
        .first()
    ):
        errors["premises"] = (
            f"{fields['premises']} already has a {year} kennel license ({open_one.get_status_display().lower()})."
        )
    if errors:
        raise ValidationError(errors)
    kennel = KennelLicense(
        municipality=municipality,
        license_year=year,
        renewal=is_renewal(fields["premises"], year),
        **{name: fields.get(name) if fields.get(name) is not None else "" for name in APPLICATION_FIELDS},
    )
    kennel.save()
    record(acting_user=acting_user, action="kennel.apply", obj=kennel)
    return kennel


def _open(kennel):
    if kennel.voided_at or kennel.status != KennelLicense.Status.APPLIED:
        raise ValidationError(
            {"license": f"The application is {'void' if kennel.voided_at else kennel.get_status_display().lower()}."}
        )


@transaction.atomic
def record_inspection(
    kennel, *, acting_user, inspector: str, inspector_name: str, inspected_on: date, findings: str = ""
) -> Inspection:
    """The inspector's report of "any health problems or violations" (§ 115-3B(2)); empty if none."""
    require_role(acting_user, kennel.municipality_id, CLERKS)
    _open(kennel)
    k = provision(kennel.municipality)
    section = _section(k.inspection.cite.citation) if k and k.inspection else ""
    errors = {}
    if inspector not in Inspection.Inspector.values:
        errors["inspector"] = (
            "The inspection is by the County Health Officer, Building Inspector or a licensed veterinarian "
            f"({section})."
        )
    if not (inspector_name or "").strip():
        errors["inspector_name"] = "Enter the inspector's name."
    if inspected_on is None or inspected_on > today():
        errors["inspected_on"] = "Enter the date of the inspection, today or earlier."
    if errors:
        raise ValidationError(errors)
    inspection = Inspection.objects.create(
        municipality_id=kennel.municipality_id,
        kennel_license=kennel,
        inspector=inspector,
        inspector_name=inspector_name.strip(),
        inspected_on=inspected_on,
        findings=(findings or "").strip(),
    )
    record(acting_user=acting_user, action="kennel.inspect", obj=inspection)
    return inspection


@transaction.atomic
def record_correction(inspection, *, acting_user, corrected_on: date) -> Inspection:
    require_role(acting_user, inspection.municipality_id, CLERKS)
    _open(inspection.kennel_license)
    errors = {}
    if not inspection.findings.strip():
        errors["corrected_on"] = "This inspection found no problems to correct."
    elif inspection.corrected_on:
        errors["corrected_on"] = f"Recorded as corrected on {inspection.corrected_on}."
    elif corrected_on is None or corrected_on > today() or corrected_on < inspection.inspected_on:
        errors["corrected_on"] = f"Enter a date from the inspection ({inspection.inspected_on}) to today."
    if errors:
        raise ValidationError(errors)
    before = snapshot(inspection)
    inspection.corrected_on = corrected_on
    inspection.save()
    record(acting_user=acting_user, action="kennel.correct", obj=inspection, before=before)
    return inspection


@transaction.atomic
def approve_kennel_license(kennel, *, acting_user, payment: dict | None = None, on: date | None = None):
    """Issue the license: refused, with nothing written, while any reason in `review` stands."""
    require_role(acting_user, kennel.municipality_id, CLERKS)
    on = on or today()
    _open(kennel)
    r = review(kennel, on)
    if r.refusals:
        raise ValidationError(_errors(r.refusals))
    before = snapshot(kennel)
    kennel.payment = record_payment(
        acting_user=acting_user, municipality=kennel.municipality, payer=kennel.owner, due=r.fee, payment=payment
    )
    kennel.status = KennelLicense.Status.ISSUED
    kennel.renewal, kennel.fee, kennel.dogs_kept = r.renewal, r.fee, r.dogs
    kennel.issued_on, kennel.expires_on = on, r.expires
    kennel.citations = _citations_json(r.decision.citations)
    kennel.save()
    record(acting_user=acting_user, action="kennel.approve", obj=kennel, before=before)
    return kennel


@transaction.atomic
def refuse_kennel_application(kennel, *, acting_user, reason: str) -> KennelLicense:
    require_role(acting_user, kennel.municipality_id, CLERKS)
    _open(kennel)
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say why the application is refused."})
    before = snapshot(kennel)
    kennel.status, kennel.refusal_reason = KennelLicense.Status.REFUSED, reason.strip()
    kennel.save()
    record(acting_user=acting_user, action="kennel.refuse", obj=kennel, before=before)
    return kennel


@transaction.atomic
def void_kennel_license(kennel, *, acting_user, reason: str) -> KennelLicense:
    require_role(acting_user, kennel.municipality_id, CLERKS)
    if kennel.voided_at:
        raise ValidationError({"reason": "This kennel license is already void."})
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say why the kennel license is void."})
    before = snapshot(kennel)
    kennel.voided_at, kennel.void_reason = timezone.now(), reason.strip()
    kennel.save()
    record(acting_user=acting_user, action="kennel.void", obj=kennel, before=before)
    return kennel
