"""The registry's writes. Each action runs in one transaction, checks the acting user's
role in the record's municipality, validates, saves and writes one audit event
(DESIGN.md, layer rule 2). Views, the API and the CLI call these and nothing else."""

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.utils import timezone

from dogtag.accounts.models import Role
from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import record, record_each, save_and_record, snapshot
from dogtag.lib import uploads
from dogtag.lib.dates import shown, today
from dogtag.registry.models import (
    Animal,
    DuplicateRabiesTag,
    Municipality,
    Ownership,
    Person,
    Premises,
    RabiesVaccination,
)
from dogtag.rules.dates import ONE_DAY

REGISTRARS = (Role.CLERK, Role.OFFICER, Role.VETERINARIAN, Role.ADMINISTRATOR)
CERTIFIERS = (Role.CLERK, Role.VETERINARIAN, Role.ADMINISTRATOR)


def save_record(obj, *, acting_user, action, roles, before=None):
    """Role check in the record's municipality, validation, save, one audit event — the
    common body of every write in the registry and animal control."""
    require_role(acting_user, obj.municipality_id, roles)
    # Unique constraints are checked in clean() with a message naming the field; the
    # database constraint stays as the backstop for a concurrent insert.
    obj.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            return save_and_record(obj, acting_user=acting_user, action=action, before=before)
    except IntegrityError as e:
        raise ValidationError(f"This record clashes with one saved at the same moment ({e}).") from e


def _update(obj, fields: dict, *, acting_user, action, roles, editable):
    unknown = set(fields) - set(editable)
    if unknown:
        raise ValidationError({name: "This field cannot be changed here." for name in unknown})
    before = snapshot(obj)
    for name, value in fields.items():
        setattr(obj, name, value)
    return save_record(obj, acting_user=acting_user, action=action, roles=roles, before=before)


def same_municipality(field, obj, municipality_id):
    """A row chosen for a record must be of the record's municipality (DESIGN.md, layer rule 3)."""
    if obj is not None and obj.municipality_id != municipality_id:
        raise ValidationError({field: f"{obj} belongs to another municipality."})


PERSON_FIELDS = ("kind", "name", "street", "city", "state", "postal_code", "phone", "email")
# The language of the emails and documents sent to a person: chosen by the resident on the portal.
PERSON_EDITABLE = (*PERSON_FIELDS, "language")
PREMISES_FIELDS = ("street", "use", "parcel_number")
ANIMAL_FIELDS = (
    "species",
    "name",
    "breed",
    "color",
    "sex",
    "altered",
    "altered_evidence",
    "birth_date",
    "birth_date_estimated",
    "acquired_on",
    "brought_in_on",
    "microchip",
    "status",
    "working_status",
    "premises",
)
VACCINATION_FIELDS = (
    "certificate_serial",
    "owner_name",
    "owner_address",
    "animal_name",
    "sex",
    "altered",
    "breed",
    "color",
    "vaccinated_on",
    "vaccine_type",
    "vaccine_serial",
    "expires_on",
    "veterinarian_name",
    "veterinarian_address",
    "veterinarian_phone",
    "rabies_tag_number",
)


def likely_duplicate(municipality, name: str, street: str) -> Person | None:
    """A person already on record with the same name at the same address (case and spacing aside)."""
    if not (name or "").strip() or not (street or "").strip():
        return None
    same = Person.objects.filter(
        municipality=municipality, name__iexact=" ".join(name.split()), street__iexact=" ".join(street.split())
    )
    return same.order_by("pk").first()


@transaction.atomic
def create_person(*, acting_user, municipality, confirm_not_duplicate=False, **fields) -> Person:
    """A new person; refused while one with the same name and address is on record, unless the
    clerk confirms it is someone else (a parent and a child of one name, say)."""
    if not confirm_not_duplicate and (same := likely_duplicate(municipality, fields.get("name"), fields.get("street"))):
        raise ValidationError(
            {
                "confirm_not_duplicate": f"{same.name}, {same.street} is already on record (person #{same.pk}). "
                "Use that record, or tick the box if this is a different person."
            }
        )
    person = Person(municipality=municipality, **fields)
    return save_record(person, acting_user=acting_user, action=Action.PERSON_CREATE, roles=REGISTRARS)


@transaction.atomic
def update_person(person, *, acting_user, **fields) -> Person:
    return _update(
        person, fields, acting_user=acting_user, action=Action.PERSON_UPDATE, roles=REGISTRARS, editable=PERSON_EDITABLE
    )


@transaction.atomic
def create_premises(*, acting_user, municipality, **fields) -> Premises:
    premises = Premises(municipality=municipality, **fields)
    return save_record(premises, acting_user=acting_user, action=Action.PREMISES_CREATE, roles=REGISTRARS)


@transaction.atomic
def update_premises(premises, *, acting_user, **fields) -> Premises:
    return _update(
        premises,
        fields,
        acting_user=acting_user,
        action=Action.PREMISES_UPDATE,
        roles=REGISTRARS,
        editable=PREMISES_FIELDS,
    )


@transaction.atomic
def register_animal(
    *,
    acting_user,
    municipality,
    owner: Person | None,
    owner_role=Ownership.Role.OWNER,
    owned_from=None,
    unowned: bool = False,
    **fields,
) -> Animal:
    """A new animal with the person who owns, keeps or harbors it from `owned_from`
    (the date acquired, else today) — or, `unowned`, with nobody: a stray at the shelter, which
    a bite report or an impoundment can name and its owner later claim (`add_ownership`)."""
    if owner is None and not unowned:
        raise ValidationError({"owner": "Choose the owner, or tick “No known owner” for a stray."})
    if owner is not None and unowned:
        raise ValidationError({"unowned": "An animal with an owner chosen is not a stray: untick “No known owner”."})
    same_municipality("owner", owner, municipality.pk)
    same_municipality("premises", fields.get("premises"), municipality.pk)
    animal = save_record(
        Animal(municipality=municipality, **fields),
        acting_user=acting_user,
        action=Action.ANIMAL_CREATE,
        roles=REGISTRARS,
    )
    if owner is None:
        return animal
    ownership = Ownership(
        municipality=municipality,
        animal=animal,
        person=owner,
        role=owner_role,
        started_on=owned_from or animal.acquired_on or today(),
    )
    save_record(ownership, acting_user=acting_user, action=Action.OWNERSHIP_CREATE, roles=REGISTRARS)
    return animal


@transaction.atomic
def update_animal(animal, *, acting_user, **fields) -> Animal:
    same_municipality("premises", fields.get("premises"), animal.municipality_id)
    return _update(
        animal, fields, acting_user=acting_user, action=Action.ANIMAL_UPDATE, roles=REGISTRARS, editable=ANIMAL_FIELDS
    )


@transaction.atomic
def add_ownership(animal, *, acting_user, person, role=Ownership.Role.OWNER, started_on) -> Ownership:
    same_municipality("person", person, animal.municipality_id)
    ownership = Ownership(
        municipality_id=animal.municipality_id, animal=animal, person=person, role=role, started_on=started_on
    )
    return save_record(ownership, acting_user=acting_user, action=Action.OWNERSHIP_CREATE, roles=REGISTRARS)


@transaction.atomic
def end_ownership(ownership, *, acting_user, ended_on) -> Ownership:
    if ownership.ended_on:
        raise ValidationError({"ended_on": f"This ownership already ended on {shown(ownership.ended_on)}."})
    return _update(
        ownership,
        {"ended_on": ended_on},
        acting_user=acting_user,
        action=Action.OWNERSHIP_END,
        roles=REGISTRARS,
        editable=("ended_on",),
    )


def certificate_defaults(animal) -> dict:
    """What the certificate states about the owner and animal, as the registry has them today."""
    owner = next((o.person for o in animal.current_owners()), None)
    return {
        "owner_name": owner.name if owner else "",
        "owner_address": owner.address if owner else "",
        "animal_name": animal.name,
        "sex": animal.sex,
        "altered": animal.altered,
        "breed": animal.breed,
        "color": animal.color,
    }


@transaction.atomic
def record_vaccination(animal, *, acting_user, **fields) -> RabiesVaccination:
    vaccination = RabiesVaccination(
        municipality_id=animal.municipality_id, animal=animal, **{**certificate_defaults(animal), **fields}
    )
    return save_record(vaccination, acting_user=acting_user, action=Action.VACCINATION_CREATE, roles=CERTIFIERS)


@transaction.atomic
def record_certificates(municipality, certificates: list[dict], *, acting_user) -> list[RabiesVaccination]:
    """Many certificates of one municipality at once, as a clinic's file states them (each checked
    against the certificate's own rules first: imports/clinics.py). A certificate whose serial is
    already recorded is left as it is, so a file written again, or a write resumed after its
    worker stopped, records each certificate once. Values may be text as a file holds them (dates
    as ISO text). One transaction, an audit event each."""
    require_role(acting_user, municipality.pk, CERTIFIERS)
    serials = [c["certificate_serial"] for c in certificates]
    recorded = set(
        RabiesVaccination.objects.filter(municipality=municipality, certificate_serial__in=serials).values_list(
            "certificate_serial", flat=True
        )
    )
    field = RabiesVaccination._meta.get_field
    new = [
        RabiesVaccination(municipality=municipality, **{k: field(k).to_python(v) for k, v in c.items()})
        for c in certificates
        if c["certificate_serial"] not in recorded
    ]
    RabiesVaccination.objects.bulk_create(new)
    record_each(acting_user=acting_user, action=Action.VACCINATION_CREATE, objs=new)
    return new


@transaction.atomic
def update_vaccination(vaccination, *, acting_user, **fields) -> RabiesVaccination:
    return _update(
        vaccination,
        fields,
        acting_user=acting_user,
        action=Action.VACCINATION_UPDATE,
        roles=CERTIFIERS,
        editable=VACCINATION_FIELDS,
    )


@transaction.atomic
def void_vaccination(vaccination, *, acting_user, reason: str) -> RabiesVaccination:
    if not reason.strip():
        raise ValidationError({"reason": "Say why the certificate is void."})
    if vaccination.voided_at:
        raise ValidationError({"reason": f"Certificate {vaccination.certificate_serial} is already void."})
    return _update(
        vaccination,
        {"voided_at": timezone.now(), "void_reason": reason},
        acting_user=acting_user,
        action=Action.VACCINATION_VOID,
        roles=CERTIFIERS,
        editable=("voided_at", "void_reason"),
    )


@transaction.atomic
def record_duplicate_rabies_tag(vaccination, *, acting_user, tag_number, issued_on=None) -> DuplicateRabiesTag:
    if not tag_number.strip():
        raise ValidationError({"tag_number": "Enter the new rabies tag number."})
    tag = DuplicateRabiesTag(
        municipality_id=vaccination.municipality_id,
        vaccination=vaccination,
        tag_number=tag_number,
        issued_on=issued_on or today(),
    )
    return save_record(tag, acting_user=acting_user, action=Action.VACCINATION_DUPLICATE_TAG, roles=CERTIFIERS)


# Checks other apps register (in their AppConfig.ready) on a change of owner, so the registry
# need not know their law (animal control: River Hills § 2.14(6)[e](1)(vii)). A check has
# `questions(animal, on)`, the further yes/no questions the transfer page must ask about this
# animal ({name: label}), and is called as check(animal, to_person=, on=, answers=) inside the
# transfer's transaction before anything is written; it refuses with a ValidationError naming
# the question and the section.
TRANSFER_CHECKS: list = []


def register_transfer_check(check) -> None:
    if check not in TRANSFER_CHECKS:
        TRANSFER_CHECKS.append(check)


def transfer_questions(animal, on) -> dict[str, str]:
    return {name: label for check in TRANSFER_CHECKS for name, label in check.questions(animal, on).items()}


@transaction.atomic
def transfer_animal(animal, *, acting_user, to_person, on, **answers) -> Ownership:
    """A change of owner: the current owners' ownership ends the day before `on`, the new one
    starts on it. A license already issued stays with the animal for its license year.
    `answers` are the transfer page's further questions, for the registered checks."""
    same_municipality("to_person", to_person, animal.municipality_id)
    for check in TRANSFER_CHECKS:
        check(animal, to_person=to_person, on=on, answers=answers)
    current = list(animal.ownerships.current(on).filter(role=Ownership.Role.OWNER))
    if any(o.person_id == to_person.pk for o in current):
        raise ValidationError({"to_person": f"{to_person} already owns {animal.name}."})
    for ownership in current:
        if ownership.started_on >= on:
            raise ValidationError({"on": f"{ownership.person} became the owner on {shown(ownership.started_on)}."})
        end_ownership(ownership, acting_user=acting_user, ended_on=on - ONE_DAY)
    return add_ownership(animal, acting_user=acting_user, person=to_person, started_on=on)


def add_municipality(*, acting_user, rule_pack: str, slug: str = "", administrators=()):
    """Set up a municipality from its rule pack (name, kind and county come from the pack), and
    make `administrators` (users) its administrators. For the host's administrator: `acting_user`
    is a superuser, or None when run from the command line on the server."""
    from django.core.exceptions import PermissionDenied
    from django.utils.text import slugify

    from dogtag.accounts.models import Membership
    from dogtag.registry.models import Municipality
    from dogtag.rules import PackError, load_pack

    if acting_user is not None and not (acting_user.is_authenticated and acting_user.is_superuser):
        raise PermissionDenied("Only a superuser adds a municipality.")
    try:
        pack = load_pack(rule_pack)
    except PackError as e:
        raise ValidationError({"rule_pack": str(e)}) from None
    kinds = {label.lower(): value for value, label in Municipality.Kind.choices}
    kind, _, name = pack.name.partition(" of ")
    if kind.lower() not in kinds or not name or not pack.county:
        raise ValidationError(
            {
                "rule_pack": f"{rule_pack} is not a municipality's pack (its name is {pack.name!r}; "
                "a municipality's reads 'Village of ...', 'Town of ...' or 'City of ...')"
            }
        )
    municipality = Municipality(
        name=name, kind=kinds[kind.lower()], county=pack.county, rule_pack=rule_pack, slug=slug or slugify(name)
    )
    with transaction.atomic():
        municipality.full_clean()
        municipality.save()
        for user in administrators:
            Membership.objects.create(user=user, municipality=municipality, role=Role.ADMINISTRATOR)
        record(acting_user=acting_user, action=Action.MUNICIPALITY_ADD, obj=municipality)
    return municipality


SEAL_KINDS = (".png", ".jpg")
CLERKS_AND_ADMINISTRATORS = (Role.CLERK, Role.ADMINISTRATOR)


@transaction.atomic
def set_seal(municipality, *, acting_user, upload) -> Municipality:
    """The municipality's seal, replaced by a new image: a PNG or JPEG by its content, not its name."""
    require_role(acting_user, municipality.pk, CLERKS_AND_ADMINISTRATORS)
    if upload is None:
        raise ValidationError({"seal": "Choose the image of the seal (PNG or JPEG)."})
    error, extension = uploads.check(upload)
    if not error and extension not in SEAL_KINDS:
        error = "The seal must be an image: a PNG or a JPEG, not a PDF."
    if error:
        raise ValidationError({"seal": error.replace(str(uploads.WANTED), "Upload the seal as a PNG or JPEG image.")})
    before = snapshot(municipality)
    municipality.seal.save(f"{municipality.slug}-seal{extension}", ContentFile(upload.read()), save=False)
    municipality.save(update_fields=["seal"])
    record(acting_user=acting_user, action=Action.MUNICIPALITY_SEAL, obj=municipality, before=before)
    return municipality


ADMINISTRATORS = (Role.ADMINISTRATOR,)


def record_ruling(
    municipality,
    *,
    acting_user,
    reading: str,
    adopted: str,
    instrument: str,
    attorney: str,
    number: str,
    ruled_on,
    effective_on,
    note: str = "",
):
    """Record the municipality's ruling on a reading its pack leaves pending: from
    `effective_on` every answer follows the adopted reading; answers for earlier days do not
    change. A later ruling on the same reading supersedes it from its own effective date."""
    from dogtag.registry import readings, rulings
    from dogtag.registry.models import Ruling
    from dogtag.rules import load_pack

    require_role(acting_user, municipality.pk, ADMINISTRATORS)
    found = readings.named(load_pack(municipality.rule_pack), reading or "")
    errors = {}
    if found is None:
        errors["reading"] = f"{municipality}'s rule pack has no reading named {reading!r}: choose one from the list."
    if adopted not in Ruling.Adopted.values:
        errors["adopted"] = "Choose the reading the ruling adopts: Dogtag's reading or the other reading."
    elif adopted == Ruling.Adopted.OTHER and found is not None and not found.has_other:
        errors["adopted"] = (
            f"The pack encodes no other reading of {found.section}: only Dogtag's reading can be adopted "
            "until the other is written into the pack."
        )
    if instrument not in Ruling.Instrument.values:
        errors["instrument"] = "Choose whether the ruling is an attorney's opinion or a Board resolution."
    if not (attorney or "").strip():
        errors["attorney"] = "Name the attorney who gave the opinion or advised the Board."
    if not (number or "").strip():
        errors["number"] = "Give the opinion's or the resolution's number, as it is filed."
    if ruled_on is None:
        errors["ruled_on"] = "Give the date of the ruling."
    elif ruled_on > today():
        errors["ruled_on"] = f"A ruling is recorded once made: {shown(ruled_on)} is after today."
    if effective_on is None:
        errors["effective_on"] = "Give the date from which the ruling takes effect."
    elif ruled_on is not None and effective_on < ruled_on:
        errors["effective_on"] = (
            f"A ruling takes effect on or after the day it is made ({shown(ruled_on)}): answers for "
            "earlier days keep the reading in force then."
        )
    elif (
        found is not None
        and Ruling.objects.filter(
            municipality=municipality, reading_id=found.id, effective_on=effective_on, voided_at=None
        ).exists()
    ):
        errors["effective_on"] = (
            f"A ruling on {found.section} already takes effect on {shown(effective_on)}: void it first, "
            "then record its replacement."
        )
    if errors:
        raise ValidationError(errors)
    words = found.choice if adopted == Ruling.Adopted.CHOICE else found.other
    ruling = Ruling(
        municipality=municipality,
        reading_id=found.id,
        section=found.section,
        adopted=adopted,
        adopted_words=words,
        instrument=instrument,
        attorney=attorney.strip(),
        number=number.strip(),
        ruled_on=ruled_on,
        effective_on=effective_on,
        note=(note or "").strip(),
        recorded_by=acting_user,
    )
    with transaction.atomic():
        ruling.save()
        _new_rulings_version(municipality)
        record(acting_user=acting_user, action=Action.RULING_RECORD, obj=ruling)
        transaction.on_commit(lambda: rulings.forget(municipality.pk))
    rulings.forget(municipality.pk)
    return ruling


def void_ruling(ruling, *, acting_user, reason: str):
    """Void a ruling recorded in error (never deleted): answers go back to the reading in force
    without it, on every day. Its replacement is recorded as a new ruling."""
    from dogtag.registry import rulings

    require_role(acting_user, ruling.municipality_id, ADMINISTRATORS)
    if ruling.voided_at is not None:
        raise ValidationError({"reason": f"This ruling was voided on {shown(ruling.voided_at)}."})
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say why the ruling is voided (recorded in error, replaced by …)."})
    with transaction.atomic():
        before = snapshot(ruling)
        ruling.voided_at = timezone.now()
        ruling.void_reason = reason.strip()[:300]
        ruling.save(update_fields=["voided_at", "void_reason"])
        _new_rulings_version(ruling.municipality)
        record(acting_user=acting_user, action=Action.RULING_VOID, obj=ruling, before=before)
        transaction.on_commit(lambda: rulings.forget(ruling.municipality_id))
    rulings.forget(ruling.municipality_id)
    return ruling


def _new_rulings_version(municipality) -> None:
    """Raise the municipality's rulings version, so every process reads its rulings anew."""
    from django.db.models import F

    Municipality.objects.filter(pk=municipality.pk).update(rulings_version=F("rulings_version") + 1)
    municipality.refresh_from_db(fields=["rulings_version"])


AMENDERS = CLERKS_AND_ADMINISTRATORS


def draft_amendment(
    municipality, *, acting_user, kind: str, title: str, section: str, words: str, effective_on, figures: dict
):
    """Draft an amendment as an overlay on the municipality's pack (registry/amending.py),
    validated as the pack is against every amendment already adopted: a figure outside a state
    limit is refused with its section and nothing is saved."""
    from dogtag.registry import amending, rulings
    from dogtag.registry.models import Amendment
    from dogtag.rules import load_pack, packs

    require_role(acting_user, municipality.pk, AMENDERS)
    errors = {}
    if kind not in amending.AMENDS:
        errors["kind"] = (
            "Choose what the amendment changes: the license tax, the late fee, the kennel threshold or a "
            "forfeiture schedule."
        )
    for name, value in (("title", title), ("section", section), ("words", words)):
        if not (value or "").strip():
            errors[name] = {
                "title": "Give the amendment a title, as it will be listed for the Board.",
                "section": "Name the section of the ordinance it amends (e.g. § 115-4).",
                "words": "Write the amendment's words as the Board would adopt them: its figures are quoted from them.",
            }[name]
    if effective_on is None:
        errors["effective_on"] = "Give the date from which the amendment would take effect."
    for figure in amending.FIGURES.get(kind, ()):
        if figures.get(figure) in (None, ""):
            errors[figure] = (
                "Name the violation (the section violated, e.g. 115-5) whose forfeiture it sets."
                if figure == "violation"
                else "Give the new figure."
            )
    if errors:
        raise ValidationError(errors)
    overlay = amending.provisions(
        load_pack(municipality.rule_pack), kind, figures, section.strip(), words, effective_on
    )
    engine = packs.Amendment.of("draft", effective_on, words, overlay)
    amending.validated(municipality.rule_pack, rulings.amendments_in_force(municipality.pk), engine, kind)
    amendment = Amendment(
        municipality=municipality,
        kind=kind,
        title=title.strip(),
        section=section.strip(),
        words=words.strip(),
        provisions=overlay,
        effective_on=effective_on,
        drafted_by=acting_user,
    )
    with transaction.atomic():
        return save_and_record(amendment, acting_user=acting_user, action=Action.AMENDMENT_DRAFT)


def request_preview(amendment, *, acting_user, year: int):
    """Run the municipality's records through the law in force and as amended for `year`, in the
    worker (reports/amendment_preview.py); the page shows the result when it is done."""
    from dogtag.lib.tasks import enqueue
    from dogtag.registry.models import AmendmentPreview

    require_role(acting_user, amendment.municipality_id, AMENDERS)
    if amendment.voided_at is not None:
        raise ValidationError({"year": f"This amendment was voided on {shown(amendment.voided_at)}."})
    if year is None or not 1900 < int(year) < 2200:
        raise ValidationError({"year": "Give a license year, e.g. 2027."})
    preview = AmendmentPreview(
        municipality_id=amendment.municipality_id, amendment=amendment, year=int(year), requested_by=acting_user
    )
    with transaction.atomic():
        save_and_record(preview, acting_user=acting_user, action=Action.AMENDMENT_PREVIEW)
        enqueue("dogtag.reports.amendment_preview.run", preview.pk, task_name=f"amendment-preview-{preview.pk}")
    return preview


def record_preview(preview_id: int, *, result: dict | None):
    """The worker's preview stored (None: it failed). Its audit event names the amendment, not
    the figures (they are the preview's row)."""
    from dogtag.registry.models import AmendmentPreview

    with transaction.atomic():
        preview = AmendmentPreview.objects.select_for_update().select_related("amendment").get(pk=preview_id)
        preview.result, preview.finished_at = result, timezone.now()
        preview.state = AmendmentPreview.State.DONE if result is not None else AmendmentPreview.State.FAILED
        preview.save(update_fields=["result", "state", "finished_at"])
        record(acting_user=None, action=Action.AMENDMENT_PREVIEWED, obj=preview.amendment)
    return preview


def adopt_amendment(amendment, *, acting_user, resolution: str, voted_on):
    """The Board has voted: the amendment becomes the municipality's law from its effective date
    (versioned as rulings are, registry/rulings.py); answers for earlier days do not change."""
    from dogtag.registry import amending, rulings

    require_role(acting_user, amendment.municipality_id, AMENDERS)
    errors = {}
    if amendment.voided_at is not None:
        errors["__all__"] = f"This amendment was voided on {shown(amendment.voided_at)}."
    elif amendment.adopted_at is not None:
        errors["__all__"] = f"This amendment was adopted by resolution {amendment.resolution}."
    if not (resolution or "").strip():
        errors["resolution"] = "Give the Board resolution's number, as it is filed."
    if voted_on is None:
        errors["voted_on"] = "Give the date of the Board's vote."
    elif voted_on > today():
        errors["voted_on"] = f"An amendment is adopted once voted: {shown(voted_on)} is after today."
    elif voted_on > amendment.effective_on:
        errors["voted_on"] = (
            f"The vote ({shown(voted_on)}) is after the effective date ({shown(amendment.effective_on)}): "
            "answers already given for those days would change. Draft it again with a later effective date."
        )
    if errors:
        raise ValidationError(errors)
    municipality = amendment.municipality
    with transaction.atomic():
        locked = type(amendment).objects.select_for_update().get(pk=amendment.pk)
        if locked.adopted_at is not None or locked.voided_at is not None:
            raise ValidationError({"__all__": "This amendment was adopted or voided meanwhile."})
        # the law as it will stand: every amendment adopted so far and this one (a figure may have
        # been adopted since this one was drafted)
        proposed = rulings.as_engine_amendment(amendment)
        amending.validated(
            municipality.rule_pack, rulings.amendments_in_force(municipality.pk), proposed, amendment.kind
        )
        before = snapshot(amendment)
        amendment.resolution, amendment.voted_on = resolution.strip(), voted_on
        amendment.adopted_by, amendment.adopted_at = acting_user, timezone.now()
        amendment.save(update_fields=["resolution", "voted_on", "adopted_by", "adopted_at"])
        _new_rulings_version(municipality)
        record(acting_user=acting_user, action=Action.AMENDMENT_ADOPT, obj=amendment, before=before)
        transaction.on_commit(lambda: rulings.forget(municipality.pk))
    rulings.forget(municipality.pk)
    return amendment


def void_amendment(amendment, *, acting_user, reason: str):
    """Void a draft, or an adoption recorded in error (never deleted): answers go back to the law
    without it, on every day."""
    from dogtag.registry import rulings

    require_role(acting_user, amendment.municipality_id, AMENDERS)
    if amendment.voided_at is not None:
        raise ValidationError({"reason": f"This amendment was voided on {shown(amendment.voided_at)}."})
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say why the amendment is voided (not adopted, recorded in error, …)."})
    with transaction.atomic():
        before = snapshot(amendment)
        amendment.voided_at, amendment.void_reason = timezone.now(), reason.strip()[:300]
        amendment.save(update_fields=["voided_at", "void_reason"])
        if amendment.adopted_at is not None:
            _new_rulings_version(amendment.municipality)
            transaction.on_commit(lambda: rulings.forget(amendment.municipality_id))
        record(acting_user=acting_user, action=Action.AMENDMENT_VOID, obj=amendment, before=before)
    rulings.forget(amendment.municipality_id)
    return amendment
