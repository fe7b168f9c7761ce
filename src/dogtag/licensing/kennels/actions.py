"""The clerk's kennel-license procedure (§ 115-3B): the application, the inspections and their
corrections, then approval (with the fee), refusal or void. What a kennel is reviewed against
is read in licensing/kennels/rules.py."""

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import save_and_record, snapshot
from dogtag.lib.dates import shown
from dogtag.licensing.actions.payments import record_payment
from dogtag.licensing.actions.roles import CLERKS
from dogtag.licensing.kennels.rules import APPLICATION_FIELDS, is_renewal, provision, review
from dogtag.licensing.models import Inspection, KennelLicense
from dogtag.licensing.owed import section_label
from dogtag.registry.models import today
from dogtag.rules.decision import citations_json


@transaction.atomic
def apply_for_kennel_license(*, acting_user, municipality, license_year: int | None = None, **fields) -> KennelLicense:
    """File the annual application § 115-3B(1) describes; nothing is approved yet."""
    require_role(acting_user, municipality.pk, CLERKS)
    k = provision(municipality)
    if k is None:
        raise ValidationError({"license": f"{municipality}'s law requires no kennel license."})
    # § 115-3B(1) lists the application's fields and sets the fee; the fee's citation is that subsection.
    section = section_label((k.fee or k.term or k.required).cite.citation)
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
        elif name in ("owner", "premises") and value.municipality_id != municipality.pk:
            errors[name] = f"Choose from {municipality}'s records."
    if fields.get("use") and fields["use"] not in KennelLicense.Use.values:
        errors["use"] = f"Choose personal or business use ({section})."
    if fields.get("capacity") is not None and fields["capacity"] < 1:
        errors["capacity"] = "The kennel capacity is a number of dogs, 1 or more."
    if fields.get("signed_on") and fields["signed_on"] > today():
        errors["signed_on"] = f"The owner's signature date {shown(fields['signed_on'])} is in the future."
    siting = section_label(k.siting.cite.citation) if k.siting else section
    for name in ("from_other_structures_ft", "from_lot_lines_ft", "kennel_sq_ft"):
        if fields.get(name) is None or fields[name] < 0:
            errors[name] = f"Enter the measurement in feet (square feet for the area); {siting} sets the minimum."
    if fields.get("privacy_fence") is None:
        fields["privacy_fence"] = False
    if year < today().year:
        errors["license_year"] = f"The {year} license year has ended."
    if not errors:
        held = KennelLicense.objects.filter(premises=fields["premises"], license_year=year, voided_at=None)
        if open_one := held.exclude(status=KennelLicense.Status.REFUSED).first():
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
    return save_and_record(kennel, acting_user=acting_user, action=Action.KENNEL_APPLY)


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
    section = section_label(k.inspection.cite.citation) if k and k.inspection else ""
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
    inspection = Inspection(
        municipality_id=kennel.municipality_id,
        kennel_license=kennel,
        inspector=inspector,
        inspector_name=inspector_name.strip(),
        inspected_on=inspected_on,
        findings=(findings or "").strip(),
    )
    return save_and_record(inspection, acting_user=acting_user, action=Action.KENNEL_INSPECT)


@transaction.atomic
def record_correction(inspection, *, acting_user, corrected_on: date) -> Inspection:
    require_role(acting_user, inspection.municipality_id, CLERKS)
    _open(inspection.kennel_license)
    if not inspection.findings.strip():
        raise ValidationError({"corrected_on": "This inspection found no problems to correct."})
    if inspection.corrected_on:
        raise ValidationError({"corrected_on": f"Recorded as corrected on {shown(inspection.corrected_on)}."})
    if corrected_on is None or corrected_on > today() or corrected_on < inspection.inspected_on:
        raise ValidationError(
            {"corrected_on": f"Enter a date from the inspection ({shown(inspection.inspected_on)}) to today."}
        )
    before = snapshot(inspection)
    inspection.corrected_on = corrected_on
    return save_and_record(inspection, acting_user=acting_user, action=Action.KENNEL_CORRECT, before=before)


@transaction.atomic
def approve_kennel_license(kennel, *, acting_user, payment: dict | None = None, on: date | None = None):
    """Issue the license: refused, with nothing written, while any reason in `review` stands."""
    require_role(acting_user, kennel.municipality_id, CLERKS)
    on = on or today()
    _open(kennel)
    r = review(kennel, on)
    if r.refusals:
        raise ValidationError({field: [m for f, m in r.refusals if f == field] for field, _ in r.refusals})
    before = snapshot(kennel)
    kennel.payment = record_payment(
        acting_user=acting_user, municipality=kennel.municipality, payer=kennel.owner, due=r.fee, payment=payment
    )
    kennel.status = KennelLicense.Status.ISSUED
    kennel.renewal, kennel.fee, kennel.dogs_kept = r.renewal, r.fee, r.dogs
    kennel.issued_on, kennel.expires_on = on, r.expires
    kennel.citations = citations_json(r.decision.citations)
    return save_and_record(kennel, acting_user=acting_user, action=Action.KENNEL_APPROVE, before=before)


@transaction.atomic
def refuse_kennel_application(kennel, *, acting_user, reason: str) -> KennelLicense:
    require_role(acting_user, kennel.municipality_id, CLERKS)
    _open(kennel)
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say why the application is refused."})
    before = snapshot(kennel)
    kennel.status, kennel.refusal_reason = KennelLicense.Status.REFUSED, reason.strip()
    return save_and_record(kennel, acting_user=acting_user, action=Action.KENNEL_REFUSE, before=before)


@transaction.atomic
def void_kennel_license(kennel, *, acting_user, reason: str) -> KennelLicense:
    require_role(acting_user, kennel.municipality_id, CLERKS)
    if kennel.voided_at:
        raise ValidationError({"reason": "This kennel license is already void."})
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say why the kennel license is void."})
    before = snapshot(kennel)
    kennel.voided_at, kennel.void_reason = timezone.now(), reason.strip()
    return save_and_record(kennel, acting_user=acting_user, action=Action.KENNEL_VOID, before=before)
