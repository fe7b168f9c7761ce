"""Complaints and nuisances: what the ordinance makes of a complaint the moment it is recorded."""

from django.core.exceptions import ValidationError
from django.db import transaction

from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import snapshot
from dogtag.enforcement import law
from dogtag.enforcement.actions.cases import (
    STAFF,
    already,
    as_date,
    open_case,
    same_municipality,
)
from dogtag.enforcement.models import (
    Case,
    Complaint,
)
from dogtag.lib.dates import shown, today
from dogtag.registry.actions import save_record


def _complaint_finding(complaint) -> dict | None:
    """What the ordinance makes of this complaint the moment it is recorded."""
    municipality, on = complaint.municipality, complaint.filed_on
    if complaint.kind == Complaint.Kind.BARKING:
        same = Complaint.objects.filter(municipality=municipality, kind=Complaint.Kind.BARKING, filed_on__lte=on)
        same = same.filter(animal=complaint.animal) if complaint.animal_id else same.filter(owner=complaint.owner)
        facts = {
            "complaints": [{"filed_on": c.filed_on, "formal_written": c.formal_written} for c in same],
            # Sampson Section 5: noise on a day after the owner received the Town's written notice
            "notice_received_on": complaint.police_notice_on,
            "noise_continued_on": complaint.observed_again_on,
        }
        return law.stored(law.ask(municipality, "barking_nuisance", facts, max(on, complaint.observed_again_on or on)))
    if complaint.kind == Complaint.Kind.AT_LARGE:
        facts = {
            "complaint_on": complaint.filed_on,
            "police_notice_on": complaint.police_notice_on,
            "observed_again_on": complaint.observed_again_on,
        }
        decision = law.ask(municipality, "at_large_complaint", facts, max(on, today()))
        return law.stored(decision) if decision.value.applies else None
    return None


@transaction.atomic
def record_complaint(*, acting_user, municipality, kind, complainant_name, observed_on, place, **fields) -> Complaint:
    """A complaint joins the open complaint case about the same animal and matter, so a second
    barking complaint is judged with the first."""
    animal, owner = fields.get("animal"), fields.get("owner")
    same_municipality("animal", animal, municipality.pk)
    same_municipality("owner", owner, municipality.pk)
    if animal is not None and owner is None:
        owner = fields["owner"] = next((o.person for o in animal.current_owners(as_date(fields.get("filed_on")))), None)
    if animal is None and owner is None and not fields.get("animal_description", "").strip():
        raise ValidationError({"animal_description": "Name the animal or its owner, or describe the animal."})
    filed_on = as_date(fields.pop("filed_on", None)) or today()
    observed_on = as_date(observed_on)
    require_role(acting_user, municipality.pk, STAFF)
    # The same complaint sent twice (a double click, a retried call) is the one on record.
    same = {"kind": kind, "complainant_name": complainant_name, "observed_on": observed_on, "place": place}
    recorded = Complaint.objects.filter(
        municipality=municipality, filed_on=filed_on, animal=animal, owner=owner, **same,
        description=fields.get("description", ""),
    ).first()  # fmt: skip
    if recorded is not None:
        return recorded
    if observed_on and observed_on > filed_on:
        raise ValidationError(
            {"observed_on": f"Observed on {shown(observed_on)}, after the complaint was filed ({shown(filed_on)})."}
        )
    case = None
    if animal is not None or owner is not None:
        case = (
            Case.objects.filter(
                municipality=municipality, kind=Case.Kind.COMPLAINT, closed_on=None, complaints__kind=kind
            )
            .filter(**({"animal": animal} if animal is not None else {"owner": owner}))
            .first()
        )
    if case is None:
        label = Complaint.Kind(kind).label
        subject = animal or owner or fields.get("animal_description")
        case = open_case(
            acting_user=acting_user,
            municipality=municipality,
            kind=Case.Kind.COMPLAINT,
            title=f"{label}: {subject}",
            animal=animal,
            owner=owner,
            opened_on=filed_on,
        )
    complaint = Complaint(
        municipality=municipality,
        case=case,
        kind=kind,
        complainant_name=complainant_name,
        observed_on=observed_on,
        place=place,
        filed_on=filed_on,
        **fields,
    )
    complaint.full_clean(validate_constraints=False)
    complaint.finding = _complaint_finding(complaint) if complaint.kind != Complaint.Kind.BARKING else None
    complaint.save()
    if complaint.kind == Complaint.Kind.BARKING:
        complaint.finding = _complaint_finding(complaint)
        complaint.save(update_fields=["finding"])
    return save_record(complaint, acting_user=acting_user, action=Action.COMPLAINT_CREATE, roles=STAFF)


@transaction.atomic
def record_notice_step(complaint, *, acting_user, police_notice_on=None, observed_again_on=None) -> Complaint:
    """The written notice to the owner, then the repeat: a dog seen at large again (Cedarburg
    § 7-1-6(c)(2)), or barking that goes on after the notice was received (Sampson Section 5)."""
    if complaint.kind not in (Complaint.Kind.AT_LARGE, Complaint.Kind.BARKING):
        raise ValidationError({"police_notice_on": "Only at-large and barking complaints have this procedure."})
    before = snapshot(complaint)
    police_notice_on, observed_again_on = as_date(police_notice_on), as_date(observed_again_on)
    given = {k: v for k, v in (("police_notice_on", police_notice_on), ("observed_again_on", observed_again_on)) if v}
    if given and already(complaint, acting_user=acting_user, roles=STAFF, **given):
        return complaint
    if observed_again_on and not (police_notice_on or complaint.police_notice_on):
        raise ValidationError({"observed_again_on": "Record the written notice to the owner first."})
    complaint.police_notice_on = police_notice_on or complaint.police_notice_on
    complaint.observed_again_on = observed_again_on or complaint.observed_again_on
    if complaint.observed_again_on and complaint.observed_again_on <= complaint.police_notice_on:
        raise ValidationError(
            {"observed_again_on": f"The repeat comes after the written notice of {shown(complaint.police_notice_on)}."}
        )
    finding = _complaint_finding(complaint)
    if finding is None:
        raise ValidationError(
            {"police_notice_on": "This ordinance has no citizen complaint procedure for dogs at large."}
        )
    complaint.finding = finding
    return save_record(
        complaint, acting_user=acting_user, action=Action.COMPLAINT_NOTICE_STEP, roles=STAFF, before=before
    )
