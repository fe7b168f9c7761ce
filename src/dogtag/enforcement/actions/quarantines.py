"""Bites and rabies: the bite report, the quarantine order with its delivery, examinations and
release, exposure to a rabid animal, and the rabies quarantine of a district."""

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.enforcement import law
from dogtag.enforcement.actions.cases import (
    OFFICERS,
    STAFF,
    VETERINARIANS,
    already,
    as_date,
    change,
    close,
    currently_immunized,
    drop,
    meet,
    open_case,
    set_deadline,
)
from dogtag.enforcement.models import (
    BiteReport,
    Case,
    DistrictQuarantine,
    Examination,
    QuarantineOrder,
)
from dogtag.lib.dates import shown, today
from dogtag.registry.actions import save_record


@transaction.atomic
def report_bite(*, acting_user, municipality, animal, victim_name, bitten_on, place, **fields) -> BiteReport:
    """A bite report; the animal may be unknown or a stray (`animal_description`), linked later
    with `identify_biting_animal` when it is found."""
    bitten_on = as_date(bitten_on)
    if bitten_on and bitten_on > today():
        raise ValidationError({"bitten_on": f"Bite date {shown(bitten_on)} is in the future."})
    if animal is None and not str(fields.get("animal_description") or "").strip():
        raise ValidationError({"animal": "Choose the animal, or describe it if it is unknown or a stray."})
    require_role(acting_user, municipality.pk, STAFF)
    same = {"victim_name": victim_name, "bitten_on": bitten_on, "place": place}
    if animal is None:
        same["animal_description"] = fields.get("animal_description", "")
    recorded = BiteReport.objects.filter(municipality=municipality, animal=animal, **same).first()
    if recorded is not None:
        return recorded  # the same report sent twice
    case = open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.BITE,
        title=f"Bite by {animal or fields['animal_description']} on {shown(as_date(bitten_on))}",
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
    return save_record(bite, acting_user=acting_user, action=Action.BITE_CREATE, roles=STAFF)


EXAM_KEYS = {"first": "examination.first", "intervening": "examination.intervening", "last": "examination.last"}


def _bite_deadlines(order, decision):
    v, case = decision.value, order.case
    if order.place != QuarantineOrder.Place.OWNER_PREMISES and v.delivery_deadline:
        delivery = v.delivery_deadline
        due = timezone.make_aware(delivery) if timezone.is_naive(delivery) else delivery
        set_deadline(case, "delivery", "Deliver the animal to the place of isolation", due, decision)
    days = v.examination_days
    set_deadline(case, EXAM_KEYS["first"], "Veterinary examination: first day of isolation", days.first, decision)
    set_deadline(
        case,
        EXAM_KEYS["intervening"],
        f"Veterinary examination: an intervening day ({days.intervening_from:%b %-d}–{days.intervening_to:%b %-d})",
        days.suggested_intervening,
        decision,
    )
    set_deadline(case, EXAM_KEYS["last"], "Veterinary examination: last day of isolation", days.last, decision)
    set_deadline(
        case,
        "observation",
        "Observation ends; release only on the veterinarian's certificate",
        v.observation_ends,
        decision,
    )
    if v.owner_confinement_ends:
        set_deadline(
            case, "owner_confinement", "Owner keeps the animal confined through", v.owner_confinement_ends, decision
        )


@transaction.atomic
def identify_biting_animal(bite, *, acting_user, animal) -> BiteReport:
    """The unknown or stray animal of a bite report is found: the report and its case name it."""
    if bite.animal_id is not None:
        raise ValidationError({"animal": f"This bite report already names {bite.animal}."})
    if animal is None or animal.municipality_id != bite.municipality_id:
        raise ValidationError({"animal": "Choose the animal from this municipality's registry."})
    case = bite.case
    case.animal, case.owner = animal, next((o.person for o in animal.current_owners()), None)
    case.title = f"Bite by {animal} on {shown(bite.bitten_on)}"
    case.save(update_fields=["animal", "owner", "title"])
    return change(bite, acting_user=acting_user, action=Action.BITE_IDENTIFY, roles=STAFF, animal=animal)


@transaction.atomic
def order_bite_quarantine(bite, *, acting_user, place, facility, ordered_at=None, isolation_starts_on=None):
    if bite.animal_id is None:
        raise ValidationError({"place": "Identify the animal first: a quarantine is ordered for a known animal."})
    ordered_at = ordered_at or timezone.now()
    immunized = currently_immunized(bite.animal, bite.bitten_on)
    decision = law.ask(
        bite.municipality,
        "bite_quarantine",
        {
            "bitten_on": bite.bitten_on,
            "ordered_at": timezone.localtime(ordered_at).replace(tzinfo=None),
            "currently_immunized": immunized,
            "isolation_starts_on": as_date(isolation_starts_on),
        },
        timezone.localtime(ordered_at).date(),
        field="isolation_starts_on",
    )
    if place not in decision.value.places_allowed:
        allowed = ", ".join(QuarantineOrder.Place(p).label.lower() for p in decision.value.places_allowed)
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
    order = save_record(order, acting_user=acting_user, action=Action.QUARANTINE_ORDER, roles=OFFICERS)
    _bite_deadlines(order, decision)
    return order


@transaction.atomic
def order_exposure_quarantine(*, acting_user, municipality, animal, exposed_on, facility) -> QuarantineOrder:
    exposed_on = as_date(exposed_on)
    require_role(acting_user, municipality.pk, OFFICERS)
    recorded = QuarantineOrder.objects.filter(
        municipality=municipality, animal=animal, kind=QuarantineOrder.Kind.EXPOSURE, exposed_on=exposed_on
    ).first()
    if recorded is not None:
        return recorded  # the same exposure sent twice
    immunized = currently_immunized(animal, exposed_on)
    decision = law.ask(
        municipality, "exposure_quarantine", {"exposed_on": exposed_on, "immunized_on_exposure": immunized}, today()
    )
    case = open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.EXPOSURE,
        title=f"{animal} exposed to a rabid animal on {shown(as_date(exposed_on))}",
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
    order = save_record(order, acting_user=acting_user, action=Action.QUARANTINE_ORDER, roles=OFFICERS)
    v = decision.value
    set_deadline(case, "confinement", "Leashed or confined through", v.confined_until, decision)
    if v.vaccination_window:
        w = v.vaccination_window
        set_deadline(case, "vaccination", f"Vaccinate against rabies between {w['from']:%B %-d} and", w["to"], decision)
    else:
        set_deadline(case, "vaccination", "Revaccinate as soon as possible", today(), decision)
    return order


@transaction.atomic
def record_delivery(order, *, acting_user, delivered_at):
    if already(order, acting_user=acting_user, roles=OFFICERS, delivered_at=delivered_at):
        return order
    order = change(
        order, acting_user=acting_user, action=Action.QUARANTINE_DELIVERY, roles=OFFICERS, delivered_at=delivered_at
    )
    meet(order.case, "delivery", timezone.localtime(delivered_at).date(), f"delivered to {order.facility}")
    return order


def _observation_end(order) -> date:
    ends = date.fromisoformat(order.decision["value"]["observation_ends"])
    return max(ends, order.extended_until or ends)


@transaction.atomic
def record_examination(order, *, acting_user, which, examined_on, findings, signs_of_rabies=False) -> Examination:
    examined_on = as_date(examined_on)
    if which not in EXAM_KEYS:
        raise ValidationError({"which": f"Say which examination this is: one of {', '.join(EXAM_KEYS)}."})
    if order.kind != QuarantineOrder.Kind.BITE:
        raise ValidationError({"which": "Examinations are scheduled for a bite quarantine."})
    if order.examinations.filter(which=which).exists():
        raise ValidationError({"which": f"The {Examination.Which(which).label.lower()} examination is recorded."})
    days = order.decision["value"]["examination_days"]
    citations = order.case.deadlines.filter(key=EXAM_KEYS[which]).first()
    where = f" ({law.sections(citations.citations)})" if citations else ""
    ok = {
        "first": examined_on == as_date(days["first"]),
        "intervening": as_date(days["intervening_from"]) <= examined_on <= as_date(days["intervening_to"]),
        "last": examined_on == _observation_end(order),
    }[which]
    if not ok:
        expected = {
            "first": f"on {shown(as_date(days['first']))}",
            "intervening": f"between {shown(as_date(days['intervening_from']))} and "
            f"{shown(as_date(days['intervening_to']))}",
            "last": f"on {shown(_observation_end(order))}",
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
    exam = save_record(exam, acting_user=acting_user, action=Action.QUARANTINE_EXAMINATION, roles=VETERINARIANS)
    meet(order.case, EXAM_KEYS[which], examined_on, "signs of rabies" if signs_of_rabies else "no signs of rabies")
    return exam


@transaction.atomic
def extend_quarantine(order, *, acting_user, extended_until, extension_reason):
    extended_until = as_date(extended_until)
    extension = {"extended_until": extended_until, "extension_reason": extension_reason}
    if already(order, acting_user=acting_user, roles=VETERINARIANS, **extension):
        return order
    if not extension_reason.strip():
        raise ValidationError({"extension_reason": "Say why the isolation is extended."})
    if extended_until <= _observation_end(order):
        raise ValidationError({"extended_until": f"An extension ends after {shown(_observation_end(order))}."})
    order = change(
        order,
        acting_user=acting_user,
        action=Action.QUARANTINE_EXTEND,
        roles=VETERINARIANS,
        extended_until=extended_until,
        extension_reason=extension_reason,
    )
    old = order.case.deadlines.filter(key="observation", superseded=False).first()
    cites = old.citations if old else []
    set_deadline(
        order.case, "observation", "Extended isolation ends", extended_until, citations=cites, notes=[extension_reason]
    )
    set_deadline(
        order.case, EXAM_KEYS["last"], "Veterinary examination: last day of isolation", extended_until, citations=cites
    )
    return order


@transaction.atomic
def release_quarantine(order, *, acting_user, released_on, release_certificate="", revaccinated_on=None):
    """Release only on the veterinarian's certificate after the observation (bite), or after the
    confinement with the vaccination done (exposure)."""
    released_on, revaccinated_on = as_date(released_on), as_date(revaccinated_on)
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
        if released_on < as_date(v["confined_until"]):
            raise ValidationError(
                {
                    "released_on": f"Confinement runs through {shown(as_date(v['confined_until']))} "
                    f"({law.sections(confinement.citations)})."
                }
            )
        window = v["vaccination_window"]
        if window and not (revaccinated_on and as_date(window["from"]) <= revaccinated_on <= as_date(window["to"])):
            raise ValidationError(
                {
                    "revaccinated_on": f"The vaccination falls between {shown(as_date(window['from']))} and "
                    f"{shown(as_date(window['to']))} "
                    f"({law.sections(confinement.citations)})."
                }
            )
        if not window and not revaccinated_on:
            raise ValidationError({"revaccinated_on": "Record the revaccination."})
    order = change(
        order,
        acting_user=acting_user,
        action=Action.QUARANTINE_RELEASE,
        roles=VETERINARIANS,
        released_on=released_on,
        release_certificate=release_certificate,
        released_by=acting_user,
        revaccinated_on=revaccinated_on,
    )
    for key in ("observation", "owner_confinement", "confinement", "vaccination"):
        meet(case, key, released_on, "released")
    close(case, released_on, "Released from quarantine")
    return order


@transaction.atomic
def record_symptoms(
    order, *, acting_user, symptoms_on, symptoms, euthanized_on=None, lab_submitted_on=None, laboratory=""
):
    symptoms_on, euthanized_on, lab_submitted_on = map(as_date, (symptoms_on, euthanized_on, lab_submitted_on))
    found = {"symptoms_on": symptoms_on, "symptoms": symptoms, "euthanized_on": euthanized_on}
    lab = {"lab_submitted_on": lab_submitted_on, "laboratory": laboratory}
    if already(order, acting_user=acting_user, roles=VETERINARIANS, **found, **lab):
        return order
    if not symptoms.strip():
        raise ValidationError({"symptoms": "Describe the symptoms."})
    if lab_submitted_on and not laboratory.strip():
        raise ValidationError({"laboratory": "Name the laboratory the specimen went to."})
    order = change(
        order,
        acting_user=acting_user,
        action=Action.QUARANTINE_SYMPTOMS,
        roles=VETERINARIANS,
        symptoms_on=symptoms_on,
        symptoms=symptoms,
        euthanized_on=euthanized_on,
        lab_submitted_on=lab_submitted_on,
        laboratory=laboratory,
    )
    if euthanized_on:
        for d in order.case.open_deadlines().exclude(key="owner_confinement"):
            drop(order.case, d.key)
    return order


@transaction.atomic
def record_lab_result(order, *, acting_user, lab_result, lab_result_on, notified):
    result = {"lab_result": lab_result, "lab_result_on": as_date(lab_result_on), "notified": notified}
    if already(order, acting_user=acting_user, roles=VETERINARIANS, **result):
        return order
    if not order.lab_submitted_on:
        raise ValidationError({"lab_result": "No specimen was submitted to a laboratory."})
    if not notified.strip():
        raise ValidationError(
            {"notified": "Say who was notified of the result (victim, physician, health department)."}
        )
    order = change(
        order,
        acting_user=acting_user,
        action=Action.QUARANTINE_LAB_RESULT,
        roles=VETERINARIANS,
        lab_result=lab_result,
        lab_result_on=as_date(lab_result_on),
        notified=notified,
    )
    close(order.case, order.lab_result_on, f"Laboratory result: {order.get_lab_result_display()}")
    return order


@transaction.atomic
def declare_district_quarantine(*, acting_user, municipality, declared_on, ends_on, area, ordered_by, posted_at=""):
    declared_on, ends_on = as_date(declared_on), as_date(ends_on)
    require_role(acting_user, municipality.pk, STAFF)
    recorded = DistrictQuarantine.objects.filter(municipality=municipality, area=area, declared_on=declared_on).first()
    if recorded is not None:
        return recorded  # the same declaration sent twice
    decision = law.ask(
        municipality,
        "district_quarantine",
        {"species": "dog", "currently_immunized": False, "tag_attached": False},
        declared_on,
    )
    if not decision.value.applies:
        raise ValidationError({"area": "This ordinance has no district rabies quarantine provision."})
    if ends_on <= declared_on:
        raise ValidationError({"ends_on": "The quarantine ends after it is declared."})
    case = open_case(
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
    district = save_record(district, acting_user=acting_user, action=Action.DISTRICT_QUARANTINE_CREATE, roles=STAFF)
    if len([p for p in posted_at.split(";") if p.strip()]) < decision.value.posting_places:
        set_deadline(
            case,
            "posting",
            f"Post the notice in {decision.value.posting_places} public places",
            declared_on,
            decision,
        )
    set_deadline(case, "district_ends", f"Quarantine ends (as {ordered_by} directs)", ends_on, decision)
    return district
