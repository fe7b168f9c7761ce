"""Animal control's writes (DESIGN.md, layer rule 2): each action runs in one transaction,
checks the acting user's role in the case's municipality, asks the rule engine for every legal
number, stores each deadline with its citations, and writes one audit event."""

from datetime import date, datetime
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from dogtag import rules
from dogtag.accounts.models import Role
from dogtag.accounts.scope import require_role
from dogtag.audit.record import snapshot
from dogtag.enforcement import law
from dogtag.enforcement.models import (
    Appeal,
    BiteReport,
    Case,
    Citation,
    Complaint,
    Deadline,
    Declaration,
    DistrictQuarantine,
    Examination,
    Hearing,
    Impoundment,
    QuarantineOrder,
    Requirement,
    today,
)
from dogtag.licensing.models import License
from dogtag.registry.actions import save_record
from dogtag.registry.models import RabiesVaccination

OFFICERS = (Role.OFFICER, Role.ADMINISTRATOR)
STAFF = (Role.CLERK, Role.OFFICER, Role.ADMINISTRATOR)
VETERINARIANS = (Role.VETERINARIAN, Role.OFFICER, Role.ADMINISTRATOR)


def _d(value) -> date | None:
    return date.fromisoformat(value) if isinstance(value, str) else value


def _same_municipality(field, obj, municipality_id):
    if obj is not None and obj.municipality_id != municipality_id:
        raise ValidationError({field: f"{obj} belongs to another municipality."})


def _open_case(*, acting_user, municipality, kind, title, animal=None, owner=None, opened_on=None) -> Case:
    require_role(acting_user, municipality.pk, STAFF)
    _same_municipality("animal", animal, municipality.pk)
    _same_municipality("owner", owner, municipality.pk)
    if animal is not None and owner is None:
        owner = next((o.person for o in animal.current_owners(opened_on)), None)
    case = Case(
        municipality=municipality,
        kind=kind,
        title=title[:200],
        animal=animal,
        owner=owner,
        officer=acting_user,
        opened_on=opened_on or today(),
    )
    case.full_clean()
    case.save()
    return case


def _deadline(case, key, label, due, decision=None, *, citations=None, notes=()) -> Deadline:
    """Store a deadline with the law that produced it; an open one with the same key is superseded."""
    case.deadlines.filter(key=key, done_on=None, superseded=False).update(superseded=True)
    due_at = due if isinstance(due, datetime) else None
    return Deadline.objects.create(
        municipality_id=case.municipality_id,
        case=case,
        key=key,
        label=label,
        due_on=timezone.localtime(due_at).date() if due_at else due,
        due_at=due_at,
        citations=citations if citations is not None else law.cites(decision),
        notes=list(decision.notes if decision is not None else ()) + list(notes),
    )


def _meet(case, key, on, note=""):
    case.deadlines.filter(key=key, done_on=None, superseded=False).update(done_on=on, done_note=note[:300])


def _drop(case, key):
    case.deadlines.filter(key=key, done_on=None, superseded=False).update(superseded=True)


def _close(case, on, reason):
    case.closed_on = on
    case.close_reason = reason[:300]
    case.save(update_fields=["closed_on", "close_reason"])


def _change(obj, *, acting_user, action, roles, **fields):
    """Set fields, validate and save with one audit event showing before and after."""
    before = snapshot(obj)
    for name, value in fields.items():
        setattr(obj, name, value)
    return save_record(obj, acting_user=acting_user, action=action, roles=roles, before=before)


def currently_immunized(animal, on: date) -> bool:
    """A rabies certificate in the registry, not void, covering `on`."""
    return RabiesVaccination.objects.filter(
        animal=animal, voided_at=None, vaccinated_on__lte=on, expires_on__gt=on
    ).exists()


@transaction.atomic
def close_case(case, *, acting_user, reason: str, closed_on=None) -> Case:
    if not reason.strip():
        raise ValidationError({"reason": "Say why the case is closed."})
    if case.closed_on:
        raise ValidationError({"reason": f"This case was closed on {case.closed_on}."})
    return _change(
        case,
        acting_user=acting_user,
        action="case.close",
        roles=STAFF,
        closed_on=_d(closed_on) or today(),
        close_reason=reason,
    )


# --- complaints ---------------------------------------------------------------------------


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
        return law.stored(decision) if decision.value is not None else None
    return None


@transaction.atomic
def record_complaint(*, acting_user, municipality, kind, complainant_name, observed_on, place, **fields) -> Complaint:
    """A complaint joins the open complaint case about the same animal and matter, so a second
    barking complaint is judged with the first."""
    animal, owner = fields.get("animal"), fields.get("owner")
    _same_municipality("animal", animal, municipality.pk)
    _same_municipality("owner", owner, municipality.pk)
    if animal is not None and owner is None:
        owner = fields["owner"] = next((o.person for o in animal.current_owners(_d(fields.get("filed_on")))), None)
    if animal is None and owner is None and not fields.get("animal_description", "").strip():
        raise ValidationError({"animal_description": "Name the animal or its owner, or describe the animal."})
    filed_on = _d(fields.pop("filed_on", None)) or today()
    observed_on = _d(observed_on)
    if observed_on and observed_on > filed_on:
        raise ValidationError(
            {"observed_on": f"Observed on {observed_on}, after the complaint was filed ({filed_on})."}
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
        case = _open_case(
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
    return save_record(complaint, acting_user=acting_user, action="complaint.create", roles=STAFF)


@transaction.atomic
def record_notice_step(complaint, *, acting_user, police_notice_on=None, observed_again_on=None) -> Complaint:
    """The written notice to the owner, then the repeat: a dog seen at large again (Cedarburg
    § 7-1-6(c)(2)), or barking that goes on after the notice was received (Sampson Section 5)."""
    if complaint.kind not in (Complaint.Kind.AT_LARGE, Complaint.Kind.BARKING):
        raise ValidationError({"police_notice_on": "Only at-large and barking complaints have this procedure."})
    before = snapshot(complaint)
    police_notice_on, observed_again_on = _d(police_notice_on), _d(observed_again_on)
    if observed_again_on and not (police_notice_on or complaint.police_notice_on):
        raise ValidationError({"observed_again_on": "Record the written notice to the owner first."})
    complaint.police_notice_on = police_notice_on or complaint.police_notice_on
    complaint.observed_again_on = observed_again_on or complaint.observed_again_on
    if complaint.observed_again_on and complaint.observed_again_on <= complaint.police_notice_on:
        raise ValidationError(
            {"observed_again_on": f"The repeat comes after the written notice of {complaint.police_notice_on}."}
        )
    finding = _complaint_finding(complaint)
    if finding is None:
        raise ValidationError(
            {"police_notice_on": "This ordinance has no citizen complaint procedure for dogs at large."}
        )
    complaint.finding = finding
    return save_record(complaint, acting_user=acting_user, action="complaint.notice_step", roles=STAFF, before=before)


# --- impoundment ----------------------------------------------------------------------------


def _holding(imp) -> None:
    """(Re)compute the holding deadline from what is known about the notice."""
    decision = law.ask(
        imp.municipality,
        "impoundment_holding",
        {
            "impounded_on": imp.impounded_on,
            "owner_known": imp.owner_known,
            "notice_on": imp.notice_on,
            "notice_received_on": imp.notice_received_on,
            "bit_person": imp.bit_person,
        },
        imp.impounded_on,
    )
    if decision.value is None:
        if not imp.notice_on:
            _deadline(
                imp.case, "notice", "Notify the owner (or post the notice in public places)", imp.impounded_on, decision
            )
        return
    claim_by = decision.value["claim_by"]
    _deadline(
        imp.case,
        "claim_by",
        f"Last day for the owner to claim; unclaimed from {decision.value['unclaimed_from']:%B %-d, %Y}",
        claim_by,
        decision,
    )


@transaction.atomic
def impound(
    *,
    acting_user,
    municipality,
    description,
    found_at,
    reason,
    held_at,
    animal=None,
    owner=None,
    impounded_on=None,
    officer_saw_or_heard=False,
    sworn_complaint=False,
    bit_person=False,
) -> Impoundment:
    require_role(acting_user, municipality.pk, OFFICERS)
    impounded_on = _d(impounded_on) or today()
    basis = law.ask(
        municipality,
        "impoundment_basis",
        {"officer_saw_or_heard": officer_saw_or_heard, "sworn_complaint": sworn_complaint},
        impounded_on,
    )
    if not basis.value:
        raise ValidationError(
            {
                "officer_saw_or_heard": f"{law.sections(basis)} requires that the impounding officer saw or heard the "
                "violation or holds a signed statement of a complaining witness made under oath."
            }
        )
    number = 1
    if animal is not None:
        number += Impoundment.objects.filter(animal=animal).count()
    case = _open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.IMPOUNDMENT,
        title=f"Impounded {impounded_on}: {animal or description}",
        animal=animal,
        owner=owner,
        opened_on=impounded_on,
    )
    imp = Impoundment(
        municipality=municipality,
        case=case,
        animal=animal,
        description=description or str(animal),
        impounded_on=impounded_on,
        found_at=found_at,
        reason=reason,
        officer_saw_or_heard=officer_saw_or_heard,
        sworn_complaint=sworn_complaint,
        basis_decision=law.stored(basis),
        bit_person=bit_person,
        held_at=held_at,
        impoundment_number=number,
    )
    imp = save_record(imp, acting_user=acting_user, action="impoundment.create", roles=OFFICERS)
    _holding(imp)
    return imp


@transaction.atomic
def give_impound_notice(imp, *, acting_user, notice_method, notice_on, notice_received_on=None, posted_at=""):
    notice_on, notice_received_on = _d(notice_on), _d(notice_received_on)
    if imp.owner_known and notice_method == Impoundment.Notice.POSTING:
        raise ValidationError({"notice_method": "The owner is known: notify the owner in person or by mail."})
    held = imp.case.deadlines.filter(key__in=("notice", "claim_by")).first()
    where = f" ({law.sections(held.citations)})" if held else ""
    if not imp.owner_known and notice_method != Impoundment.Notice.POSTING:
        raise ValidationError(
            {"notice_method": f"The owner is unknown: post the written notice in public places{where}."}
        )
    if notice_method == Impoundment.Notice.POSTING and not posted_at.strip():
        # How many places the ordinance wants is in its text (§ 98-7, § 7-1-7(c): three); the
        # rule packs carry no figure for it yet, so Dogtag asks for the places, not a count.
        raise ValidationError({"posted_at": f"Name the public places where the notice is posted{where}."})
    if notice_on < imp.impounded_on:
        raise ValidationError({"notice_on": f"Notice on {notice_on} is before the impoundment ({imp.impounded_on})."})
    if notice_received_on and notice_received_on < notice_on:
        raise ValidationError({"notice_received_on": f"Received before it was given ({notice_on})."})
    imp = _change(
        imp,
        acting_user=acting_user,
        action="impoundment.notice",
        roles=STAFF,
        notice_method=notice_method,
        notice_on=notice_on,
        notice_received_on=notice_received_on,
        posted_at=posted_at,
    )
    _meet(imp.case, "notice", notice_on, imp.get_notice_method_display())
    _holding(imp)
    return imp


def licensed(animal, on: date) -> bool:
    """A license from the clerk (individual or multiple-dog), not void, in force on `on`."""
    current = License.objects.filter(voided_at=None, issued_on__lte=on, expires_on__gte=on)
    return current.filter(Q(animal=animal) | Q(covered_animals=animal)).exists()


def release_decision(
    imp,
    *,
    on,
    license_prepaid=False,
    vaccination_prepaid=False,
    tagged=False,
    charges_paid=False,
    proof_of_ownership=True,
):
    facts = {
        "impounded_on": imp.impounded_on,
        "impoundment_number": imp.impoundment_number,
        "proof_of_ownership": proof_of_ownership,
        "license_required": imp.animal is None or imp.animal.species in ("dog", "cat"),
        "licensed": imp.animal is not None and licensed(imp.animal, on),
        "license_prepaid": license_prepaid,
        "vaccinated": imp.animal is not None and currently_immunized(imp.animal, on),
        "vaccination_prepaid": vaccination_prepaid,
        "tagged": tagged,
        "charges_paid": charges_paid,
    }
    return law.ask(imp.municipality, "impoundment_release", facts, on)


CONDITION_WORDS = {
    "proof_of_ownership": "proof of ownership",
    "licensed_or_prepaid": "a license from the clerk (or its prepayment)",
    "vaccinated_or_prepaid": "a current rabies vaccination in the registry (or its prepayment)",
    "charges_paid": "payment of the impoundment fees and charges",
    "licensed": "a license from the clerk, as state law requires",
    "tagged": "the dog properly tagged",
}


@transaction.atomic
def release_impoundment(imp, *, acting_user, released_on=None, fee_paid=None, license_note="", **conditions):
    """Release to the owner only when the law's conditions hold; otherwise a refusal naming
    what is missing and the sections that require it."""
    released_on = _d(released_on) or today()
    if imp.disposition:
        raise ValidationError(
            {"__all__": f"Already disposed of: {imp.get_disposition_display()} on {imp.disposed_on}."}
        )
    decision = release_decision(imp, on=released_on, **conditions)
    problems = [CONDITION_WORDS[c] for c in decision.value["unmet"]]
    if decision.not_set:
        problems.append(law.not_set_message(decision))
    fee = decision.value["fee"]
    if fee is not None and (fee_paid is None or Decimal(fee_paid) < fee):
        problems.append(f"the release fee of ${fee:.2f} (paid: ${Decimal(fee_paid or 0):.2f})")
    if problems:
        raise ValidationError({"__all__": f"Not released: missing {'; '.join(problems)} ({law.sections(decision)})."})
    imp = _change(
        imp,
        acting_user=acting_user,
        action="impoundment.release",
        roles=STAFF,
        release_decision=law.stored(decision),
        disposition=Impoundment.Disposition.OWNER,
        disposed_on=released_on,
        disposed_to=imp.case.owner.name if imp.case.owner else "the owner",
        decided_by=acting_user,
        fee_paid=fee_paid,
        license_note=license_note,
    )
    _meet(imp.case, "claim_by", released_on, "released to the owner")
    _drop(imp.case, "notice")
    _close(imp.case, released_on, "Released to the owner")
    return imp


@transaction.atomic
def dispose_unclaimed(imp, *, acting_user, disposition, disposed_on=None, disposed_to=""):
    disposed_on = _d(disposed_on) or today()
    if imp.disposition:
        raise ValidationError({"disposition": f"Already disposed of on {imp.disposed_on}."})
    if disposition == Impoundment.Disposition.OWNER:
        raise ValidationError({"disposition": "Release to the owner goes through the release conditions."})
    if disposition in (Impoundment.Disposition.OTHER_PERSON, Impoundment.Disposition.SOLD) and not disposed_to.strip():
        raise ValidationError({"disposed_to": "Name the person the animal goes to."})
    deadline = imp.case.deadlines.filter(key="claim_by", superseded=False).first()
    if deadline is None:
        raise ValidationError(
            {"disposition": "The holding period has not started: give the owner notice (or post it) first."}
        )
    if disposed_on <= deadline.due_on:
        raise ValidationError(
            {
                "disposed_on": f"The owner may claim the animal through {deadline.due_on:%B %-d, %Y} "
                f"({law.sections(deadline.citations)}); it is unclaimed only from the day after."
            }
        )
    imp = _change(
        imp,
        acting_user=acting_user,
        action="impoundment.dispose",
        roles=OFFICERS,
        disposition=disposition,
        disposed_on=disposed_on,
        disposed_to=disposed_to,
        decided_by=acting_user,
    )
    _meet(imp.case, "claim_by", deadline.due_on, "unclaimed")
    _close(imp.case, disposed_on, f"Unclaimed: {imp.get_disposition_display()}")
    return imp


# --- bites and rabies quarantine -----------------------------------------------------------------


@transaction.atomic
def report_bite(*, acting_user, municipality, animal, victim_name, bitten_on, place, **fields) -> BiteReport:
    bitten_on = _d(bitten_on)
    if bitten_on and bitten_on > today():
        raise ValidationError({"bitten_on": f"Bite date {bitten_on} is in the future."})
    case = _open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.BITE,
        title=f"Bite by {animal} on {bitten_on}",
        animal=animal,
        opened_on=today(),
    )
    bite = BiteReport(
        municipality=municipality,
        case=case,
        animal=animal,
        victim_name=victim_name,
        bitten_on=bitten_on,
        place=place,
        **fields,
    )
    return save_record(bite, acting_user=acting_user, action="bite.create", roles=STAFF)


EXAM_KEYS = {"first": "examination.first", "intervening": "examination.intervening", "last": "examination.last"}


def _bite_deadlines(order, decision):
    v, case = decision.value, order.case
    if order.place != QuarantineOrder.Place.OWNER_PREMISES and v["delivery_deadline"]:
        due = (
            timezone.make_aware(v["delivery_deadline"])
            if timezone.is_naive(v["delivery_deadline"])
            else v["delivery_deadline"]
        )
        _deadline(case, "delivery", "Deliver the animal to the place of isolation", due, decision)
    days = v["examination_days"]
    _deadline(case, EXAM_KEYS["first"], "Veterinary examination: first day of isolation", days["first"], decision)
    _deadline(
        case,
        EXAM_KEYS["intervening"],
        f"Veterinary examination: an intervening day "
        f"({days['intervening_from']:%b %-d}–{days['intervening_to']:%b %-d})",
        days["suggested_intervening"],
        decision,
    )
    _deadline(case, EXAM_KEYS["last"], "Veterinary examination: last day of isolation", days["last"], decision)
    _deadline(
        case,
        "observation",
        "Observation ends; release only on the veterinarian's certificate",
        v["observation_ends"],
        decision,
    )
    if v["owner_confinement_ends"]:
        _deadline(
            case, "owner_confinement", "Owner keeps the animal confined through", v["owner_confinement_ends"], decision
        )


@transaction.atomic
def order_bite_quarantine(bite, *, acting_user, place, facility, ordered_at=None, isolation_starts_on=None):
    ordered_at = ordered_at or timezone.now()
    immunized = currently_immunized(bite.animal, bite.bitten_on)
    decision = law.ask(
        bite.municipality,
        "bite_quarantine",
        {
            "bitten_on": bite.bitten_on,
            "ordered_at": timezone.localtime(ordered_at).replace(tzinfo=None),
            "currently_immunized": immunized,
            "isolation_starts_on": _d(isolation_starts_on),
        },
        timezone.localtime(ordered_at).date(),
        field="isolation_starts_on",
    )
    if place not in decision.value["places_allowed"]:
        allowed = ", ".join(QuarantineOrder.Place(p).label.lower() for p in decision.value["places_allowed"])
        why = "" if immunized else " (not currently immunized on the day of the bite)"
        raise ValidationError({"place": f"Quarantine here must be at: {allowed}{why} ({law.sections(decision)})."})
    if hasattr(bite.case, "quarantine"):
        raise ValidationError({"place": "A quarantine order already exists for this bite."})
    order = QuarantineOrder(
        municipality=bite.municipality,
        case=bite.case,
        kind=QuarantineOrder.Kind.BITE,
        animal=bite.animal,
        ordered_at=ordered_at,
        currently_immunized=immunized,
        place=place,
        facility=facility,
        decision=law.stored(decision),
    )
    order = save_record(order, acting_user=acting_user, action="quarantine.order", roles=OFFICERS)
    _bite_deadlines(order, decision)
    return order


@transaction.atomic
def order_exposure_quarantine(*, acting_user, municipality, animal, exposed_on, facility) -> QuarantineOrder:
    exposed_on = _d(exposed_on)
    immunized = currently_immunized(animal, exposed_on)
    decision = law.ask(
        municipality, "exposure_quarantine", {"exposed_on": exposed_on, "immunized_on_exposure": immunized}, today()
    )
    case = _open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.EXPOSURE,
        title=f"{animal} exposed to a rabid animal on {exposed_on}",
        animal=animal,
    )
    order = QuarantineOrder(
        municipality=municipality,
        case=case,
        kind=QuarantineOrder.Kind.EXPOSURE,
        animal=animal,
        currently_immunized=immunized,
        exposed_on=exposed_on,
        facility=facility,
        decision=law.stored(decision),
    )
    order = save_record(order, acting_user=acting_user, action="quarantine.order", roles=OFFICERS)
    v = decision.value
    _deadline(case, "confinement", "Leashed or confined through", v["confined_until"], decision)
    if v["vaccination_window"]:
        w = v["vaccination_window"]
        _deadline(case, "vaccination", f"Vaccinate against rabies between {w['from']:%B %-d} and", w["to"], decision)
    else:
        _deadline(case, "vaccination", "Revaccinate as soon as possible", today(), decision)
    return order


@transaction.atomic
def record_delivery(order, *, acting_user, delivered_at):
    order = _change(
        order, acting_user=acting_user, action="quarantine.delivery", roles=OFFICERS, delivered_at=delivered_at
    )
    _meet(order.case, "delivery", timezone.localtime(delivered_at).date(), f"delivered to {order.facility}")
    return order


def _observation_end(order) -> date:
    ends = date.fromisoformat(order.decision["value"]["observation_ends"])
    return max(ends, order.extended_until or ends)


@transaction.atomic
def record_examination(order, *, acting_user, which, examined_on, findings, signs_of_rabies=False) -> Examination:
    examined_on = _d(examined_on)
    if order.kind != QuarantineOrder.Kind.BITE:
        raise ValidationError({"which": "Examinations are scheduled for a bite quarantine."})
    if order.examinations.filter(which=which).exists():
        raise ValidationError({"which": f"The {Examination.Which(which).label.lower()} examination is recorded."})
    days = order.decision["value"]["examination_days"]
    citations = order.case.deadlines.filter(key=EXAM_KEYS[which]).first()
    where = f" ({law.sections(citations.citations)})" if citations else ""
    ok = {
        "first": examined_on == _d(days["first"]),
        "intervening": _d(days["intervening_from"]) <= examined_on <= _d(days["intervening_to"]),
        "last": examined_on == _observation_end(order),
    }[which]
    if not ok:
        expected = {
            "first": f"on {days['first']}",
            "intervening": f"between {days['intervening_from']} and {days['intervening_to']}",
            "last": f"on {_observation_end(order)}",
        }[which]
        raise ValidationError({"examined_on": f"This examination falls {expected}{where}."})
    exam = Examination(
        municipality=order.municipality,
        order=order,
        which=which,
        examined_on=examined_on,
        veterinarian=acting_user,
        findings=findings,
        signs_of_rabies=signs_of_rabies,
    )
    exam = save_record(exam, acting_user=acting_user, action="quarantine.examination", roles=VETERINARIANS)
    _meet(order.case, EXAM_KEYS[which], examined_on, "signs of rabies" if signs_of_rabies else "no signs of rabies")
    return exam


@transaction.atomic
def extend_quarantine(order, *, acting_user, extended_until, extension_reason):
    extended_until = _d(extended_until)
    if not extension_reason.strip():
        raise ValidationError({"extension_reason": "Say why the isolation is extended."})
    if extended_until <= _observation_end(order):
        raise ValidationError({"extended_until": f"An extension ends after {_observation_end(order)}."})
    order = _change(
        order,
        acting_user=acting_user,
        action="quarantine.extend",
        roles=VETERINARIANS,
        extended_until=extended_until,
        extension_reason=extension_reason,
    )
    old = order.case.deadlines.filter(key="observation", superseded=False).first()
    cites = old.citations if old else []
    _deadline(
        order.case, "observation", "Extended isolation ends", extended_until, citations=cites, notes=[extension_reason]
    )
    _deadline(
        order.case, EXAM_KEYS["last"], "Veterinary examination: last day of isolation", extended_until, citations=cites
    )
    return order


@transaction.atomic
def release_quarantine(order, *, acting_user, released_on, release_certificate="", revaccinated_on=None):
    """Release only on the veterinarian's certificate after the observation (bite), or after the
    confinement with the vaccination done (exposure)."""
    released_on, revaccinated_on = _d(released_on), _d(revaccinated_on)
    if order.released_on or order.euthanized_on:
        raise ValidationError({"released_on": "This quarantine is over."})
    case = order.case
    if order.kind == QuarantineOrder.Kind.BITE:
        ends = _observation_end(order)
        observation = case.deadlines.filter(key="observation", superseded=False).first()
        where = law.sections(observation.citations) if observation else ""
        if released_on < ends:
            raise ValidationError({"released_on": f"The observation runs through {ends:%B %-d, %Y} ({where})."})
        missing = [w.label.lower() for w in Examination.Which if not order.examinations.filter(which=w).exists()]
        if missing:
            raise ValidationError({"__all__": f"Examinations not recorded: {', '.join(missing)} ({where})."})
        if order.examinations.filter(signs_of_rabies=True).exists():
            raise ValidationError({"__all__": "An examination found signs of rabies: record the symptoms instead."})
        if not release_certificate.strip():
            raise ValidationError({"release_certificate": f"Release needs the veterinarian's certificate ({where})."})
    else:
        v = order.decision["value"]
        confinement = case.deadlines.filter(key="confinement", superseded=False).first()
        if released_on < _d(v["confined_until"]):
            raise ValidationError(
                {
                    "released_on": f"Confinement runs through {v['confined_until']} "
                    f"({law.sections(confinement.citations)})."
                }
            )
        window = v["vaccination_window"]
        if window and not (revaccinated_on and _d(window["from"]) <= revaccinated_on <= _d(window["to"])):
            raise ValidationError(
                {
                    "revaccinated_on": f"The vaccination falls between {window['from']} and {window['to']} "
                    f"({law.sections(confinement.citations)})."
                }
            )
        if not window and not revaccinated_on:
            raise ValidationError({"revaccinated_on": "Record the revaccination."})
    order = _change(
        order,
        acting_user=acting_user,
        action="quarantine.release",
        roles=VETERINARIANS,
        released_on=released_on,
        release_certificate=release_certificate,
        released_by=acting_user,
        revaccinated_on=revaccinated_on,
    )
    for key in ("observation", "owner_confinement", "confinement", "vaccination"):
        _meet(case, key, released_on, "released")
    _close(case, released_on, "Released from quarantine")
    return order


@transaction.atomic
def record_symptoms(
    order, *, acting_user, symptoms_on, symptoms, euthanized_on=None, lab_submitted_on=None, laboratory=""
):
    symptoms_on, euthanized_on, lab_submitted_on = _d(symptoms_on), _d(euthanized_on), _d(lab_submitted_on)
    if not symptoms.strip():
        raise ValidationError({"symptoms": "Describe the symptoms."})
    if lab_submitted_on and not laboratory.strip():
        raise ValidationError({"laboratory": "Name the laboratory the specimen went to."})
    order = _change(
        order,
        acting_user=acting_user,
        action="quarantine.symptoms",
        roles=VETERINARIANS,
        symptoms_on=symptoms_on,
        symptoms=symptoms,
        euthanized_on=euthanized_on,
        lab_submitted_on=lab_submitted_on,
        laboratory=laboratory,
    )
    if euthanized_on:
        for d in order.case.open_deadlines().exclude(key="owner_confinement"):
            _drop(order.case, d.key)
    return order


@transaction.atomic
def record_lab_result(order, *, acting_user, lab_result, lab_result_on, notified):
    if not order.lab_submitted_on:
        raise ValidationError({"lab_result": "No specimen was submitted to a laboratory."})
    if not notified.strip():
        raise ValidationError(
            {"notified": "Say who was notified of the result (victim, physician, health department)."}
        )
    order = _change(
        order,
        acting_user=acting_user,
        action="quarantine.lab_result",
        roles=VETERINARIANS,
        lab_result=lab_result,
        lab_result_on=_d(lab_result_on),
        notified=notified,
    )
    _close(order.case, order.lab_result_on, f"Laboratory result: {order.get_lab_result_display()}")
    return order


@transaction.atomic
def declare_district_quarantine(*, acting_user, municipality, declared_on, ends_on, area, ordered_by, posted_at=""):
    declared_on, ends_on = _d(declared_on), _d(ends_on)
    decision = law.ask(
        municipality,
        "district_quarantine",
        {"species": "dog", "currently_immunized": False, "tag_attached": False},
        declared_on,
    )
    if decision.value is None:
        raise ValidationError({"area": "This ordinance has no district rabies quarantine provision."})
    if ends_on <= declared_on:
        raise ValidationError({"ends_on": "The quarantine ends after it is declared."})
    case = _open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.DISTRICT,
        title=f"District rabies quarantine: {area}",
        opened_on=declared_on,
    )
    district = DistrictQuarantine(
        municipality=municipality,
        case=case,
        declared_on=declared_on,
        ends_on=ends_on,
        area=area,
        ordered_by=ordered_by,
        posted_at=posted_at,
        decision=law.stored(decision),
    )
    district = save_record(district, acting_user=acting_user, action="district_quarantine.create", roles=STAFF)
    if len([p for p in posted_at.split(";") if p.strip()]) < decision.value["posting_places"]:
        _deadline(
            case,
            "posting",
            f"Post the notice in {decision.value['posting_places']} public places",
            declared_on,
            decision,
        )
    _deadline(case, "district_ends", f"Quarantine ends (as {ordered_by} directs)", ends_on, decision)
    return district


# --- dangerous and vicious dogs ---------------------------------------------------------------


def _requirements(decl, *, only_stayed=False, runs_again_from=None):
    """(Re)compute each requirement's deadline from the engine."""
    contested = decl.contest_timely is True or decl.appeals.filter(timely=True, decided_on=None).exists()
    facts = {
        "classification": decl.classification,
        "declared_on": runs_again_from or decl.determined_on,
        "determined_on": decl.determined_on,
        "written_notice_on": decl.written_notice_on,
        "contested": contested and runs_again_from is None,
    }
    decision = law.ask(decl.municipality, "requirement_deadlines", facts, today())
    for name, v in (decision.value or {}).items():
        req = decl.requirements.filter(name=name).first()
        if only_stayed and (req is None or not req.stayed):
            continue
        if req is None:
            req = Requirement(municipality=decl.municipality, declaration=decl, name=name, imposed=v["mandatory"])
        req.mandatory, req.deadline, req.stayed = v["mandatory"], v["deadline"], v["stayed"]
        req.amount = v["amount"]
        req.citations = _requirement_cites(decision, name, v)
        req.save()
        key = f"requirement.{name}"
        if req.imposed and req.deadline and not req.proof_on:
            _deadline(
                decl.case,
                key,
                f"Proof of {name.replace('_', ' ')}",
                req.deadline,
                citations=req.citations,
                notes=list(decision.notes),
            )
        else:
            _drop(decl.case, key)


def _requirement_cites(decision, name, v):
    """The requirement's own citation: the engine lists one per requirement, in order."""
    names = list(decision.value)
    own = decision.citations[names.index(name)] if len(decision.citations) >= len(names) else None
    rest = decision.citations[len(names) :]
    return [
        {"section": c.section, "quote": c.quote, "jurisdiction": c.jurisdiction}
        for c in ([own] if own else []) + list(rest)
    ]


def _compliance(decl, *, appeal_failed_on=None, comply_by=None):
    decision = law.ask(
        decl.municipality,
        "compliance_deadline",
        {"determined_on": decl.determined_on, "appeal_failed_on": appeal_failed_on},
        today(),
    )
    if decision.value is None:
        return None
    label = "Comply with the regulations (or dispose of the dog)"
    _deadline(decl.case, "compliance", label, comply_by or decision.value, decision)
    return decision


@transaction.atomic
def declare_dog(
    *,
    acting_user,
    municipality,
    animal,
    evidence,
    incidents,
    determined_on=None,
    fighting=False,
    propensity_shown=False,
) -> Declaration:
    """The officer's finding: the engine classifies the dog from the incidents (exceptions
    applied); the finding must rest on evidence."""
    require_role(acting_user, municipality.pk, OFFICERS)
    determined_on = _d(determined_on) or today()
    if not evidence.strip():
        raise ValidationError(
            {
                "evidence": "Say what the finding rests on (a written complaint of a witness willing "
                "to testify, bite reports, the officer's own observation, other evidence)."
            }
        )
    facts = {
        "incidents": incidents,
        "fighting": fighting,
        "propensity_shown": propensity_shown,
        "breed": animal.breed or None,
        "law_enforcement_dog": animal.working_status == "law-enforcement",
        "rabies_conforming": currently_immunized(animal, determined_on),
    }
    decision = law.ask(municipality, "dog_classification", facts, determined_on, field="incidents")
    value = decision.value or {}
    if not value.get("classification"):
        note = "; ".join(decision.notes)
        raise ValidationError(
            {
                "incidents": "These facts do not bring the dog within the ordinance's definitions "
                f"({law.sections(decision) or 'no definition here'}){': ' + note if note else ''}."
            }
        )
    case = _open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.DECLARATION,
        title=f"{animal} declared {value['classification'].replace('_', ' ')}",
        animal=animal,
        opened_on=determined_on,
    )
    decl = Declaration(
        municipality=municipality,
        case=case,
        animal=animal,
        classification=value["classification"],
        ground=value["ground"],
        evidence=evidence,
        incidents=rules.to_json(incidents),
        classification_decision=law.stored(decision),
        determined_on=determined_on,
    )
    decl = save_record(decl, acting_user=acting_user, action="declaration.create", roles=OFFICERS)
    _deadline(case, "service", "Serve the written determination on the owner", determined_on, decision)
    _compliance(decl)
    _requirements(decl)
    return decl


@transaction.atomic
def serve_declaration(
    decl,
    *,
    acting_user,
    service_method,
    mailed_on=None,
    served_on=None,
    received_on=None,
    refused=False,
    posted_on=None,
) -> Declaration:
    mailed_on, served_on, received_on, posted_on = map(_d, (mailed_on, served_on, received_on, posted_on))
    facts = {
        "method": service_method,
        "mailed_on": mailed_on,
        "received_on": received_on,
        "served_on": served_on,
        "refused": refused,
        "posted_on": posted_on,
    }
    decision = law.ask(decl.municipality, "notice_effective", facts, today(), field="service_method")
    effective = decision.value
    if decision.value is None and not decision.citations:
        # The ordinance names no rule: the notice takes effect the day the owner has it.
        effective = served_on or received_on or posted_on or mailed_on
    if effective is None:
        raise ValidationError({"posted_on": "; ".join(decision.notes) or "Give the date of service."})
    if effective < decl.determined_on:
        raise ValidationError(
            {"served_on": f"Service on {effective} is before the determination ({decl.determined_on})."}
        )
    decl = _change(
        decl,
        acting_user=acting_user,
        action="declaration.serve",
        roles=OFFICERS,
        service_method=service_method,
        mailed_on=mailed_on,
        served_on=served_on,
        received_on=received_on,
        refused=refused,
        posted_on=posted_on,
        effective_on=effective,
    )
    _meet(decl.case, "service", effective, decl.get_service_method_display())
    contest = law.ask(decl.municipality, "contest_deadline", {"served_on": effective}, today())
    if contest.value is not None:
        _deadline(
            decl.case,
            "contest",
            "Last day for the owner's written request for a hearing",
            contest.value["deadline"],
            contest,
        )
    return decl


@transaction.atomic
def request_hearing(decl, *, acting_user, requested_on) -> Declaration:
    requested_on = _d(requested_on)
    if not decl.effective_on:
        raise ValidationError({"requested_on": "The determination has not been served yet."})
    decision = law.ask(
        decl.municipality, "contest_deadline", {"served_on": decl.effective_on, "requested_on": requested_on}, today()
    )
    if decision.value is None:
        raise ValidationError(
            {"requested_on": "This ordinance provides no hearing on a determination; the owner may appeal."}
        )
    if not decision.value["timely"]:
        raise ValidationError(
            {
                "requested_on": f"The request of {requested_on} is late: the last day was "
                f"{decision.value['deadline']} ({law.sections(decision)})."
            }
        )
    decl = _change(
        decl,
        acting_user=acting_user,
        action="declaration.contest",
        roles=STAFF,
        contest_requested_on=requested_on,
        contest_timely=True,
    )
    _meet(decl.case, "contest", requested_on, "hearing requested")
    window = law.ask(decl.municipality, "hearing_window", {"served_on": decl.effective_on}, today())
    if window.value is not None:
        _deadline(
            decl.case,
            "hearing",
            f"Hold the hearing (not before {window.value['earliest']:%B %-d})",
            window.value["latest"],
            window,
        )
    _requirements(decl)
    return decl


@transaction.atomic
def schedule_hearing(decl, *, acting_user, scheduled_on, place, interested_parties="") -> Hearing:
    scheduled_on = _d(scheduled_on)
    if not decl.contest_timely:
        raise ValidationError({"scheduled_on": "The owner has not requested a hearing in time."})
    window = law.ask(decl.municipality, "hearing_window", {"served_on": decl.effective_on}, today())
    if window.value is not None and not (window.value["earliest"] <= scheduled_on <= window.value["latest"]):
        raise ValidationError(
            {
                "scheduled_on": f"The hearing is held between {window.value['earliest']} and "
                f"{window.value['latest']} ({law.sections(window)})."
            }
        )
    hearing = Hearing(
        municipality=decl.municipality,
        declaration=decl,
        scheduled_on=scheduled_on,
        place=place,
        interested_parties=interested_parties,
        window=law.stored(window),
    )
    hearing = save_record(hearing, acting_user=acting_user, action="hearing.schedule", roles=OFFICERS)
    _deadline(decl.case, "hearing", f"Hearing at {place}", scheduled_on, window)
    return hearing


@transaction.atomic
def decide_hearing(
    hearing, *, acting_user, held_on, outcome, findings, comply_by=None, classification="", decision_sent_on=None
) -> Hearing:
    held_on, comply_by, decision_sent_on = _d(held_on), _d(comply_by), _d(decision_sent_on)
    decl = hearing.declaration
    compliance = law.ask(decl.municipality, "compliance_deadline", {"determined_on": decl.determined_on}, today())
    if outcome != Hearing.Outcome.REVERSED and compliance.value is not None:
        if comply_by is None:
            comply_by = compliance.value
        if comply_by > compliance.value:
            raise ValidationError(
                {"comply_by": f"The schedule may run to {compliance.value} at the latest ({law.sections(compliance)})."}
            )
    if outcome == Hearing.Outcome.MODIFIED and not classification:
        raise ValidationError({"classification": "Say what the determination is modified to."})
    hearing = _change(
        hearing,
        acting_user=acting_user,
        action="hearing.decide",
        roles=OFFICERS,
        held_on=held_on,
        outcome=outcome,
        findings=findings,
        comply_by=comply_by,
        classification=classification or decl.classification,
        decision_sent_on=decision_sent_on,
    )
    _meet(decl.case, "hearing", held_on, hearing.get_outcome_display())
    status = {
        "affirmed": Declaration.Status.AFFIRMED,
        "modified": Declaration.Status.MODIFIED,
        "reversed": Declaration.Status.REVERSED,
    }[outcome]
    decl.status, decl.classification = status, hearing.classification
    decl.save(update_fields=["status", "classification"])
    if outcome == Hearing.Outcome.REVERSED:
        for d in decl.case.open_deadlines():
            _drop(decl.case, d.key)
        _close(decl.case, held_on, "Determination reversed at the hearing")
    elif comply_by:
        _compliance(decl, comply_by=comply_by)
    return hearing


@transaction.atomic
def record_decision_received(hearing, *, acting_user, decision_received_on) -> Hearing:
    decision_received_on = _d(decision_received_on)
    hearing = _change(
        hearing,
        acting_user=acting_user,
        action="hearing.received",
        roles=STAFF,
        decision_received_on=decision_received_on,
    )
    appeal = law.ask(hearing.municipality, "appeal_deadline", {"decision_received_on": decision_received_on}, today())
    if appeal.value is not None and hearing.declaration.case.is_open:
        _deadline(
            hearing.declaration.case,
            "appeal",
            "Last day to appeal to the Board of Appeals",
            appeal.value["deadline"],
            appeal,
        )
    return hearing


@transaction.atomic
def file_appeal(decl, *, acting_user, filed_on, to, stay_granted=False) -> Appeal:
    filed_on = _d(filed_on)
    hearing = decl.hearings.exclude(decision_received_on=None).order_by("-held_on").first()
    timely = None
    if hearing is not None:
        decision = law.ask(
            decl.municipality,
            "appeal_deadline",
            {"decision_received_on": hearing.decision_received_on, "appealed_on": filed_on},
            today(),
        )
        if decision.value is not None:
            timely = decision.value["timely"]
            if not timely:
                raise ValidationError(
                    {
                        "filed_on": f"The appeal of {filed_on} is late: the last day was "
                        f"{decision.value['deadline']} ({law.sections(decision)})."
                    }
                )
    appeal = Appeal(
        municipality=decl.municipality,
        declaration=decl,
        filed_on=filed_on,
        to=to,
        timely=timely,
        stay_granted=stay_granted,
    )
    appeal = save_record(appeal, acting_user=acting_user, action="appeal.file", roles=STAFF)
    _meet(decl.case, "appeal", filed_on, f"appealed to {to}")
    _requirements(decl)
    return appeal


@transaction.atomic
def decide_appeal(appeal, *, acting_user, decided_on, outcome) -> Appeal:
    decided_on = _d(decided_on)
    appeal = _change(
        appeal, acting_user=acting_user, action="appeal.decide", roles=STAFF, decided_on=decided_on, outcome=outcome
    )
    decl = appeal.declaration
    if outcome == Appeal.Outcome.OVERTURNED:
        decl.status = Declaration.Status.OVERTURNED
        decl.save(update_fields=["status"])
        for d in decl.case.open_deadlines():
            _drop(decl.case, d.key)
        _close(decl.case, decided_on, "Determination overturned on appeal")
        return appeal
    # "stayed until such time as any further right to appeal has been exhausted": stayed
    # requirements run again from the day the appeal fails.
    _requirements(decl, only_stayed=True, runs_again_from=decided_on)
    # Benton § 115-5B(5): "or 10 days after an unsuccessful appeal"; where the ordinance says
    # nothing (River Hills), the schedule already set stands.
    facts = {"determined_on": decl.determined_on}
    after = law.ask(decl.municipality, "compliance_deadline", {**facts, "appeal_failed_on": decided_on}, today())
    before = law.ask(decl.municipality, "compliance_deadline", facts, today())
    if after.value is not None and after.value != before.value:
        _compliance(decl, appeal_failed_on=decided_on)
    return appeal


@transaction.atomic
def impose_requirement(req, *, acting_user, written_notice_on=None) -> Requirement:
    """A requirement the ordinance leaves to the officer's (or Board's) discretion."""
    decl = req.declaration
    if req.mandatory:
        raise ValidationError({"written_notice_on": "This requirement applies without being imposed."})
    if written_notice_on:
        decl.written_notice_on = _d(written_notice_on)
        decl.save(update_fields=["written_notice_on"])
    req = _change(req, acting_user=acting_user, action="requirement.impose", roles=OFFICERS, imposed=True)
    _requirements(decl)
    return req


@transaction.atomic
def record_requirement_proof(req, *, acting_user, proof, proof_on) -> Requirement:
    proof_on = _d(proof_on)
    if not proof.strip():
        raise ValidationError({"proof": "Describe the proof given (certificate, policy number, photographs ...)."})
    req = _change(req, acting_user=acting_user, action="requirement.proof", roles=STAFF, proof=proof, proof_on=proof_on)
    late = req.deadline and proof_on > req.deadline
    _meet(req.declaration.case, f"requirement.{req.name}", proof_on, "late" if late else proof)
    return req


@transaction.atomic
def serve_removal_notice(decl, *, acting_user, served_at) -> Declaration:
    decision = law.ask(
        decl.municipality,
        "removal_deadline",
        {"served_at": timezone.localtime(served_at).replace(tzinfo=None)},
        today(),
    )
    if decision.value is None:
        raise ValidationError({"served_at": "This ordinance sets no removal deadline."})
    decl = _change(
        decl,
        acting_user=acting_user,
        action="declaration.removal_notice",
        roles=OFFICERS,
        status_reason=f"Removal notice served {timezone.localtime(served_at):%Y-%m-%d %H:%M}",
    )
    _deadline(
        decl.case, "removal", "Remove the dog from the municipality", timezone.make_aware(decision.value), decision
    )
    return decl


@transaction.atomic
def register_declared_elsewhere(
    *, acting_user, municipality, animal, classification, declared_by, moved_in_on, conditions, notified_on=None
) -> Declaration:
    """A dog declared dangerous or vicious by another municipality, county or state, moved in
    (River Hills § 2.14(6)[h]): its owner's notice to the police and the clerk, with the deadline."""
    require_role(acting_user, municipality.pk, OFFICERS)
    moved_in_on, notified_on = _d(moved_in_on), _d(notified_on)
    decision = law.ask(municipality, "declared_elsewhere_deadline", {"moved_in_on": moved_in_on}, today())
    if decision.value is None:
        raise ValidationError({"moved_in_on": "This ordinance has no rule for dogs declared elsewhere."})
    if not conditions.strip():
        raise ValidationError({"conditions": "Record the restrictions the other agency imposed."})
    case = _open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.DECLARATION,
        title=f"{animal} declared {classification.replace('_', ' ')} by {declared_by}",
        animal=animal,
        opened_on=moved_in_on,
    )
    decl = Declaration(
        municipality=municipality,
        case=case,
        animal=animal,
        classification=classification,
        ground=f"declared {classification.replace('_', ' ')} by {declared_by}",
        evidence=conditions,
        classification_decision=law.stored(decision),
        determined_on=moved_in_on,
        effective_on=moved_in_on,
    )
    decl = save_record(decl, acting_user=acting_user, action="declaration.declared_elsewhere", roles=OFFICERS)
    _deadline(case, "declared_elsewhere", "The owner notifies the police and the clerk", decision.value, decision)
    if notified_on:
        _meet(case, "declared_elsewhere", notified_on, "late" if notified_on > decision.value else "notified")
    return decl


@transaction.atomic
def apply_for_waiver(
    decl, *, acting_user, applied_on, no_subsequent_violations, complied_throughout, behavior_program_proof
) -> Declaration:
    applied_on = _d(applied_on)
    facts = {
        "classification": decl.classification,
        "declared_on": decl.determined_on,
        "no_subsequent_violations": no_subsequent_violations,
        "complied_throughout": complied_throughout,
        "behavior_program_completed": bool(behavior_program_proof.strip()),
    }
    decision = law.ask(decl.municipality, "declaration_waiver", facts, applied_on)
    if decision.value is None:
        raise ValidationError({"__all__": "; ".join(decision.notes)})
    if not decision.value["eligible"]:
        raise ValidationError(
            {
                "__all__": f"Not eligible for a waiver: the owner may apply from "
                f"{decision.value['apply_from']} with no subsequent violations, compliance "
                f"throughout and proof of a behavior modification programme "
                f"({law.sections(decision)})."
            }
        )
    decl = _change(
        decl,
        acting_user=acting_user,
        action="declaration.waive",
        roles=OFFICERS,
        status=Declaration.Status.WAIVED,
        status_reason=behavior_program_proof,
    )
    _close(decl.case, applied_on, "Declaration waived")
    return decl


# --- citations ------------------------------------------------------------------------------------


def offense_number(person, violation: str, on: date) -> int:
    """This person's earlier citations for the same section, not voided, plus one."""
    return Citation.objects.filter(person=person, violation=violation, voided_at=None, violated_on__lt=on).count() + 1


@transaction.atomic
def issue_citation(
    *,
    acting_user,
    municipality,
    person,
    violation,
    description,
    violated_on,
    animal=None,
    days=1,
    forfeiture=None,
    costs=Decimal("0"),
    court_date=None,
    issued_on=None,
) -> Citation:
    require_role(acting_user, municipality.pk, OFFICERS)
    _same_municipality("person", person, municipality.pk)
    violated_on, court_date, issued_on = _d(violated_on), _d(court_date), _d(issued_on) or today()
    number = offense_number(person, violation, violated_on)
    decision = law.ask(
        municipality, "forfeiture", {"violation": violation, "offense_number": number}, violated_on, field="violation"
    )
    if decision.not_set:
        raise ValidationError({"forfeiture": f"No forfeiture can be set: {law.not_set_message(decision)}."})
    if decision.value is None:
        raise ValidationError({"violation": f"{'; '.join(decision.notes)} ({law.sections(decision)})."})
    low, high = decision.value["minimum"], decision.value["maximum"]
    forfeiture = low if forfeiture in (None, "") else Decimal(forfeiture)
    if not low <= forfeiture <= high:
        raise ValidationError(
            {
                "forfeiture": f"For offense {number} of § {violation} the forfeiture is "
                f"${low:.2f} to ${high:.2f} ({law.sections(decision)})."
            }
        )
    if days > 1 and not decision.value["each_day_separate"]:
        raise ValidationError({"days": f"{law.sections(decision)} does not make each day a separate offense."})
    case = _open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.CITATION,
        title=f"§ {violation}: {person}",
        animal=animal,
        owner=person,
        opened_on=issued_on,
    )
    citation = Citation(
        municipality=municipality,
        case=case,
        person=person,
        animal=animal,
        violation=violation,
        description=description,
        violated_on=violated_on,
        days=days,
        offense_number=number,
        minimum=low,
        maximum=high,
        forfeiture=forfeiture,
        plus_costs=decision.value["plus_costs"],
        costs=costs,
        decision=law.stored(decision),
        issued_on=issued_on,
        court_date=court_date,
    )
    citation = save_record(citation, acting_user=acting_user, action="citation.issue", roles=OFFICERS)
    if court_date:
        _deadline(case, "court", "Court date", court_date, decision)
    return citation


@transaction.atomic
def record_citation_paid(citation, *, acting_user, paid_on) -> Citation:
    if citation.voided_at:
        raise ValidationError({"paid_on": "This citation is void."})
    citation = _change(citation, acting_user=acting_user, action="citation.paid", roles=STAFF, paid_on=_d(paid_on))
    _meet(citation.case, "court", citation.paid_on, "paid")
    _close(citation.case, citation.paid_on, "Forfeiture paid")
    return citation


@transaction.atomic
def record_cure(citation, *, acting_user, cured_on, cure_note) -> Citation:
    """A later license or compliance cures the violation; the citation stands."""
    if not cure_note.strip():
        raise ValidationError({"cure_note": "Say how it was cured (e.g. license number and date)."})
    return _change(
        citation,
        acting_user=acting_user,
        action="citation.cured",
        roles=STAFF,
        cured_on=_d(cured_on),
        cure_note=cure_note,
    )


@transaction.atomic
def void_citation(citation, *, acting_user, reason) -> Citation:
    if not reason.strip():
        raise ValidationError({"reason": "Say why the citation is void."})
    if citation.voided_at:
        raise ValidationError({"reason": "This citation is already void."})
    citation = _change(
        citation,
        acting_user=acting_user,
        action="citation.void",
        roles=OFFICERS,
        voided_at=timezone.now(),
        void_reason=reason,
    )
    for d in citation.case.open_deadlines():
        _drop(citation.case, d.key)
    _close(citation.case, today(), f"Void: {reason}")
    return citation
