"""The portal's writes: a resident's application (start, draft, submit), the clerk's decision
on it, a found-dog lookup and a reminder opt-out. One transaction each, one audit event each
(approval also writes the registry's and licensing's own events through their actions), email
queued in the outbox and sent after commit."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.dispatch import Signal
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dogtag.accounts.models import Membership, Role
from dogtag.accounts.scope import has_role, require_role
from dogtag.accounts.welcome import welcome_path
from dogtag.audit.action_names import Action
from dogtag.audit.record import record, snapshot
from dogtag.lib import links, uploads
from dogtag.lib.dates import today
from dogtag.licensing import actions as licensing
from dogtag.licensing.documents import license_certificate_document
from dogtag.licensing.models import License, Payment, Tag
from dogtag.licensing.years import license_years_on_sale
from dogtag.outbox import mail
from dogtag.portal import payments
from dogtag.portal.forms import ApplicationForm, draft_values
from dogtag.portal.models import (
    Application,
    ApplicationStartCounter,
    Lookup,
    LookupCounter,
    MunicipalityContact,
    ReminderOptOut,
    UploadCounter,
)
from dogtag.portal.quote import quote
from dogtag.registry import actions as registry
from dogtag.registry.models import Animal, RabiesVaccination

CLERKS = licensing.CLERKS
SEE_OWNER = (Role.OFFICER, Role.ADMINISTRATOR)
# A refusal from what_is_owed, put beside the field the resident can change.
REFUSAL_FIELDS = {"vaccination": "expires_on", "birth_date": "birth_date"}


def _email(application, template, kind, context=None, document=None):
    """Queue an email to the application's address: only once the address is confirmed, except the
    first email, which asks to confirm it (a stranger's address typed on the portal
    gets one email from Dogtag, never a stream of them)."""
    if application.email_confirmed_at is None and kind != STARTED:
        return
    with translation.override(application.language):
        mail.queue(
            municipality=application.municipality,
            to=application.email,
            template=f"portal/email/{template}",
            context={"application": application, "url": links.application_url(application), **(context or {})},
            kind=kind,
            document=document,
        )


STARTED = "application-started"


def _email_started(application):
    context = {} if application.email_confirmed_at else {"confirm_url": links.confirmation_url(application)}
    _email(application, "started", STARTED, context)


def _throttle_start(email: str, client_address: str) -> None:
    """Refuse a start past DOGTAG_APPLICATION_LIMIT from one client address, or past
    DOGTAG_APPLICATION_EMAIL_LIMIT to one email address, within DOGTAG_APPLICATION_WINDOW_MINUTES.
    Each count is its own autocommitted upsert (outside the start's transaction), so a refused
    attempt is counted and writes nothing else."""
    minutes = settings.DOGTAG_APPLICATION_WINDOW_MINUTES
    if _count_attempt(ApplicationStartCounter, f"from {client_address}", minutes, "key") > (
        settings.DOGTAG_APPLICATION_LIMIT
    ):
        raise ValidationError(
            {
                "__all__": _(
                    "More than %(limit)s applications were started from your address within %(minutes)s minutes; "
                    "try again later."
                )
                % {"limit": settings.DOGTAG_APPLICATION_LIMIT, "minutes": minutes}
            }
        )
    if _count_attempt(ApplicationStartCounter, f"to {email.strip().lower()}", minutes, "key") > (
        settings.DOGTAG_APPLICATION_EMAIL_LIMIT
    ):
        raise ValidationError(
            {
                "email": _(
                    "We have already emailed %(limit)s application links to this address within %(minutes)s "
                    "minutes; use one of them, or try again later."
                )
                % {"limit": settings.DOGTAG_APPLICATION_EMAIL_LIMIT, "minutes": minutes}
            }
        )


def start_application(
    *, municipality, email: str, license_year: int | None = None, client_address: str = "0.0.0.0"
) -> Application:
    """A new license application; the emailed link is the resident's way back to it, and confirms
    the address. In December, once the clerk holds next year's tags, the resident may choose next
    year's license (the years the counter sells, `license_years_on_sale`). Throttled per client
    address and per email address (`_throttle_start`)."""
    if not email or "@" not in email:
        raise ValidationError({"email": _("Enter your email address, like name@example.com.")})
    _throttle_start(email, client_address)
    return _start_application(municipality=municipality, email=email, license_year=license_year)


@transaction.atomic
def _start_application(*, municipality, email: str, license_year: int | None) -> Application:
    years = license_years_on_sale(municipality, today())
    if license_year is not None and license_year not in years:
        on_sale = _(" and ").join(map(str, years))
        raise ValidationError(
            {
                "license_year": _("%(municipality)s sells %(on_sale)s licenses today, not %(year)s.")
                % {"municipality": municipality, "on_sale": on_sale, "year": license_year}
            }
        )
    year = license_year or years[0]
    application = Application.objects.create(
        municipality=municipality, email=email, license_year=year, language=translation.get_language()
    )
    record(acting_user=None, action=Action.APPLICATION_START, obj=application)
    _email_started(application)
    return application


@transaction.atomic
def confirm_email(application, code: str) -> Application:
    """The resident followed the first email's link: the address is theirs, and Dogtag may email
    it. Following it again changes nothing and records nothing."""
    application = Application.objects.select_for_update().get(pk=application.pk)
    if not links.confirms(application, code):
        raise ValidationError({"__all__": _("This confirmation link is not valid for this application.")})
    if application.email_confirmed_at is None:
        before = snapshot(application)
        application.email_confirmed_at = timezone.now()
        application.save(update_fields=["email_confirmed_at"])
        record(acting_user=None, action=Action.APPLICATION_CONFIRM_EMAIL, obj=application, before=before)
    return application


def renewal_data(animal: Animal, owner) -> dict:
    latest = animal.vaccinations.filter(voided_at=None).order_by("-vaccinated_on").first()
    data = {
        "name": owner.name,
        "street": owner.street,
        "city": owner.city,
        "postal_code": owner.postal_code,
        "phone": owner.phone,
        "species": animal.species,
        "animal_name": animal.name,
        "breed": animal.breed,
        "color": animal.color,
        "sex": animal.sex if animal.sex != Animal.Sex.UNKNOWN else "",
        "altered": animal.altered,
        "birth_date": animal.birth_date.isoformat() if animal.birth_date else "",
        "acquired_on": animal.acquired_on.isoformat() if animal.acquired_on else "",
    }
    if latest:
        data.update(
            {
                "certificate_serial": latest.certificate_serial,
                "vaccinated_on": latest.vaccinated_on.isoformat(),
                "expires_on": latest.expires_on.isoformat(),
                "vaccine_type": latest.vaccine_type,
                "vaccine_serial": latest.vaccine_serial,
                "rabies_tag_number": latest.current_tag_number,
                "veterinarian_name": latest.veterinarian_name,
                "veterinarian_address": latest.veterinarian_address,
                "veterinarian_phone": latest.veterinarian_phone,
            }
        )
    return data


def open_renewal_by_code(*, code: str, client_address: str, email: str = "") -> Application:
    """The renewal a printed notice's short code opens, typed on the front page:
    that animal's, for that license year, as its signed link would. Past
    DOGTAG_RENEWAL_CODE_LIMIT codes from one client address in DOGTAG_RENEWAL_CODE_WINDOW_MINUTES
    every code is refused (counted in its own statement, like the lookups). An owner with no
    email on record gives one here; it is confirmed as any new application's is."""
    from dogtag.lib import short_codes
    from dogtag.licensing.actions.animal_reports import RECORDED_AS
    from dogtag.registry.models import RenewalCode

    minutes = settings.DOGTAG_RENEWAL_CODE_WINDOW_MINUTES
    if _count_attempt(ApplicationStartCounter, f"code from {client_address}", minutes, "key") > (
        settings.DOGTAG_RENEWAL_CODE_LIMIT
    ):
        raise ValidationError(
            {
                "code": _(
                    "More than %(limit)s renewal codes were tried from your address within %(minutes)s minutes; "
                    "try again later, or call the clerk's office."
                )
                % {"limit": settings.DOGTAG_RENEWAL_CODE_LIMIT, "minutes": minutes}
            }
        )
    typed = short_codes.typed(code)
    if not short_codes.well_formed(typed):
        raise ValidationError(
            {
                "code": _(
                    "A renewal code is %(length)s letters and digits, as printed on your renewal notice "
                    "(like 7KQ4-M2XD); “%(typed)s” is not one."
                )
                % {"length": short_codes.LENGTH, "typed": code.strip()[:20]}
            }
        )
    found = RenewalCode.objects.select_related("animal__municipality").filter(code=typed).first()
    if found is None:
        raise ValidationError(
            {
                "code": _("No renewal notice has the code %(code)s. Check it against your notice.")
                % {"code": short_codes.shown(typed)}
            }
        )
    animal, year = found.animal, found.license_year
    if year not in license_years_on_sale(animal.municipality, today()):
        raise ValidationError(
            {
                "code": _(
                    "The code %(code)s was for the %(year)s license, which is no longer sold. Start a new "
                    "application instead, or call the clerk's office."
                )
                % {"code": short_codes.shown(typed), "year": year}
            }
        )
    if animal.status != Animal.Status.ACTIVE:
        raise ValidationError(
            {
                "code": _("%(name)s is recorded as %(status)s; there is nothing to renew.")
                % {"name": animal.name, "status": RECORDED_AS[animal.status]}
            }
        )
    if email.strip():
        _throttle_start(email, client_address)  # an address typed here is emailed, as a new application's
    return start_renewal(animal, year, email=email)


@transaction.atomic
def start_renewal(animal: Animal, license_year: int, *, email: str = "") -> Application:
    """From a renewal notice's link or code: last year's record filled in. Following the link
    again returns the same application, not a second one. An owner with no email on record may
    give one (`email`, from the code's page), which must then be confirmed."""
    existing = (
        Application.objects.filter(animal=animal, license_year=license_year)
        .exclude(status=Application.Status.REJECTED)
        .first()
    )
    if existing:
        return existing
    owner = next((o.person for o in animal.current_owners()), None)
    if owner is None:
        raise ValidationError(
            {"code": _("%(name)s has no current owner on record; call the clerk's office.") % {"name": animal.name}}
        )
    given = (email or "").strip()
    if not owner.email:
        if not given or "@" not in given:
            raise ValidationError(
                {"email": _("We have no email address for you on record: enter one, and we will send your link there.")}
            )
    notice = animal.renewal_notices.filter(license_year=license_year).first()
    application = Application.objects.create(
        municipality=animal.municipality,
        kind=Application.Kind.RENEWAL,
        license_year=license_year,
        email=owner.email or given,
        animal=animal,
        person=owner,
        renewal_notice=notice,
        data=renewal_data(animal, owner),
        # The owner's address on record, which the clerk keeps (and sent the renewal notice to);
        # an address given with the code is confirmed by the first email's link.
        email_confirmed_at=timezone.now() if owner.email else None,
        language=translation.get_language(),
    )
    record(acting_user=None, action=Action.APPLICATION_START, obj=application)
    _email_started(application)
    return application


def _editable(application):
    if application.status != Application.Status.DRAFT:
        sent_on = date_format(timezone.localdate(application.submitted_at))
        raise ValidationError({"__all__": _("This application was sent on %(date)s.") % {"date": sent_on}})


@transaction.atomic
def save_draft(application, *, post, files, client_address="0.0.0.0") -> dict:
    """Keep what the resident typed, valid or not; store a good upload. Returns the upload
    errors (a bad file is not kept; everything else is). Past DOGTAG_UPLOAD_LIMIT files from one
    address in a window of DOGTAG_UPLOAD_WINDOW_MINUTES a file is refused unread; a replaced file
    leaves storage once the new one is committed (the audit trail keeps its name). The row is locked
    and read afresh first, so of two saves at once the second sees (and replaces) the first's file and
    no stored file is left that the record does not name."""
    list(Application.objects.select_for_update().filter(pk=application.pk).values_list("pk", flat=True))
    application.refresh_from_db()
    _editable(application)
    before = snapshot(application)
    application.data = {**application.data, **draft_values(post)}
    errors = {}
    for field, attr in (
        ("rabies_certificate_file", "rabies_certificate"),
        ("altered_evidence_file", "altered_evidence"),
    ):
        upload = files.get(field)
        if upload is None:
            continue
        if _count_attempt(UploadCounter, client_address, settings.DOGTAG_UPLOAD_WINDOW_MINUTES) > (
            settings.DOGTAG_UPLOAD_LIMIT
        ):
            errors[field] = (
                f"More than {settings.DOGTAG_UPLOAD_LIMIT} files were sent from your address within "
                f"{settings.DOGTAG_UPLOAD_WINDOW_MINUTES} minutes; send this one again later."
            )
            continue
        error, extension = uploads.check(upload)
        if error:
            errors[field] = error
            continue
        stored = getattr(application, attr)
        replaced = stored.name
        stored.save(f"application-{application.pk}{extension}", ContentFile(upload.read()), save=False)
        if replaced and replaced != stored.name:
            transaction.on_commit(lambda name=replaced, storage=stored.storage: storage.delete(name))
    application.save()
    record(acting_user=None, action=Action.APPLICATION_DRAFT, obj=application, before=before)
    return errors


def check(application, on=None):
    """The application's form (bound to its draft) and quote; the form carries every problem."""
    form = ApplicationForm(application.data, application=application)
    owed = None
    if form.is_valid():
        owed = quote(application, on or today())
        for refusal in owed.refusals:
            form.add_error(REFUSAL_FIELDS.get(refusal.field), refusal.message)
    return form, owed


@transaction.atomic
def submit_application(application, *, provider: str, on=None) -> Application:
    """Send the application: to be paid at the counter, or online on the processor's own page
    (the payments app starts the checkout; the processor's notification records the payment)."""
    application = Application.objects.select_for_update().get(pk=application.pk)
    _editable(application)
    form, owed = check(application, on)
    if not form.is_valid():
        raise ValidationError({**form.errors.get_json_data(), "__all__": [_("Correct the application first.")]})
    chosen = payments.get(provider, application.municipality)
    if chosen is None:
        raise ValidationError({"provider": _("Choose how you will pay.")})
    before = snapshot(application)
    application.status = Application.Status.SUBMITTED
    application.submitted_at = timezone.now()
    application.quoted_total = owed.total
    application.payment_provider = chosen.key
    application.payment_status = chosen.status
    application.language = translation.get_language()  # the language the resident sent it in
    application.save()
    record(acting_user=None, action=Action.APPLICATION_SUBMIT, obj=application, before=before)
    _email(application, "received", "application-received", {"owed": owed})
    return application


@transaction.atomic
def record_online_payment(
    application, *, acting_user, amount, reference: str, paid_at, convenience_fee=Decimal("0")
) -> Application:
    """The processor's verified payment for an application sent to be paid online: the amount
    the law charges, the municipality's card convenience fee taken with it, the processor's
    reference and when the money arrived, kept for the approval's receipt (licensing's record
    of the payment). Refused unless the application is waiting for exactly that."""
    application = Application.objects.select_for_update().get(pk=application.pk)
    if (application.status, application.payment_status) != (
        Application.Status.SUBMITTED,
        Application.PaymentStatus.ONLINE,
    ):
        raise ValidationError(
            {"__all__": f"This application is {application.get_status_display().lower()} "
                        f"({application.get_payment_status_display().lower()}); it awaits no online payment."}
        )  # fmt: skip
    before = snapshot(application)
    application.quoted_total, application.payment_reference = amount, reference
    application.convenience_fee, application.paid_at = convenience_fee, paid_at
    application.payment_status = Application.PaymentStatus.PAID
    application.save()
    record(acting_user=acting_user, action=Action.APPLICATION_PAID_ONLINE, obj=application, before=before)
    return application


def _changed(obj, values: dict) -> dict:
    return {k: v for k, v in values.items() if getattr(obj, k) != v}


@transaction.atomic
def approve_application(
    application, *, acting_user, payment: dict | None = None, tag_serial=None, on=None, household=None
) -> License:
    """Register or update the owner, dog and certificate through the registry's actions, then
    issue the license with the counter's own action: same tag stock, same checks. `household`:
    the owner just registered for another animal of the same cart, for a new applicant."""
    require_role(acting_user, application.municipality_id, CLERKS)
    application = Application.objects.select_for_update().get(pk=application.pk)
    if application.status != Application.Status.SUBMITTED:
        raise ValidationError({"__all__": f"This application is {application.get_status_display().lower()}."})
    form = ApplicationForm(application.data, application=application)
    if not form.is_valid():
        raise ValidationError({"__all__": "The application is incomplete; reject it with the reason."})
    d, m = form.cleaned_data, application.municipality
    person_values = {k: d[k] for k in ("name", "street", "city", "postal_code", "phone")} | {
        "email": application.email,
        "language": application.language,
    }
    if application.person or household:
        person = application.person or household
        if changed := _changed(person, person_values):
            registry.update_person(person, acting_user=acting_user, **changed)
    else:
        person = registry.create_person(acting_user=acting_user, municipality=m, **person_values)
    evidence = f"Uploaded with online application {application.pk}" if d["altered"] else ""
    animal_values = {
        "name": d["animal_name"],
        "breed": d["breed"],
        "color": d["color"],
        "sex": d["sex"],
        "altered": d["altered"],
        "birth_date": d["birth_date"],
    }
    if application.animal:
        animal = application.animal
        changed = _changed(animal, animal_values)
        if changed.get("altered"):
            changed["altered_evidence"] = evidence
        if changed:
            registry.update_animal(animal, acting_user=acting_user, **changed)
    else:
        animal = registry.register_animal(
            acting_user=acting_user,
            municipality=m,
            owner=person,
            species=d["species"],
            altered_evidence=evidence,
            acquired_on=d["acquired_on"],
            **animal_values,
        )
    serial = d["certificate_serial"]
    if not animal.vaccinations.filter(certificate_serial=serial, voided_at=None).exists():
        if RabiesVaccination.objects.filter(municipality=m, certificate_serial=serial).exists():
            raise ValidationError({"__all__": f"Rabies certificate {serial} is already recorded for another animal."})
        registry.record_vaccination(
            animal, acting_user=acting_user, **{k: d[k] for k in ("certificate_serial", *RABIES_REST)}
        )
    if application.payment_status == Application.PaymentStatus.PAID:
        payment = {
            "method": Payment.Method.CARD,
            "amount": application.quoted_total,
            "card_reference": application.payment_reference,
            "convenience_fee": application.convenience_fee,
            "received_at": application.paid_at,
        }
    license = licensing.issue_license(
        animal,
        acting_user=acting_user,
        payment=payment,
        tag_serial=tag_serial,
        license_year=application.license_year,
        on=on,
    )
    before = snapshot(application)
    application.status = Application.Status.APPROVED
    application.person, application.animal, application.license = person, animal, license
    application.decided_at, application.decided_by = timezone.now(), acting_user
    if application.payment_status in (Application.PaymentStatus.AWAITING, Application.PaymentStatus.ONLINE):
        application.payment_status = Application.PaymentStatus.PAID
    application.save()
    record(acting_user=acting_user, action=Action.APPLICATION_APPROVE, obj=application, before=before)
    # The certificate is rendered by the outbox when it sends, not in this transaction.
    _email(
        application,
        "approved",
        "application-approved",
        {"license": license},
        document=license_certificate_document(license, application.language),
    )
    return license


RABIES_REST = (
    "vaccinated_on",
    "expires_on",
    "vaccine_type",
    "vaccine_serial",
    "rabies_tag_number",
    "veterinarian_name",
    "veterinarian_address",
    "veterinarian_phone",
)


rejected = Signal()  # sent with `application`, inside the rejection's transaction


@transaction.atomic
def reject_application(application, *, acting_user, reason: str) -> Application:
    require_role(acting_user, application.municipality_id, CLERKS)
    if not reason.strip():
        raise ValidationError({"reason": "Say why, in words the resident can act on; it is emailed to them."})
    if application.status != Application.Status.SUBMITTED:
        raise ValidationError({"reason": f"This application is {application.get_status_display().lower()}."})
    before = snapshot(application)
    application.status, application.reject_reason = Application.Status.REJECTED, reason.strip()
    application.decided_at, application.decided_by = timezone.now(), acting_user
    application.save()
    record(acting_user=acting_user, action=Action.APPLICATION_REJECT, obj=application, before=before)
    # Paid online before the clerk's review: the payments app (above this one) sends the money
    # back through the processor, in this transaction (payments/signals.py).
    rejected.send(sender=Application, application=application)
    _email(application, "rejected", "application-rejected")
    return application


def look_up_tag(*, query: str, client_address: str, user=None) -> tuple[Lookup, list[dict]]:
    """A found dog: whom to call, never the owner — unless the user is an officer of the dog's
    municipality. Each served lookup is logged; past DOGTAG_LOOKUP_LIMIT attempts from one
    address in a window of DOGTAG_LOOKUP_WINDOW_MINUTES a lookup is refused and only counted
    (_count_attempt), so a flood writes no row per attempt. The unsaved refused Lookup says so."""
    query = query.strip()[:50]
    if not query:
        raise ValidationError({"q": _("Enter the number on the license tag or the rabies tag.")})
    user = user if user is not None and user.is_authenticated else None
    # Counted in its own autocommitted statement: a refused attempt changes nothing else.
    if _count_attempt(LookupCounter, client_address, settings.DOGTAG_LOOKUP_WINDOW_MINUTES) > (
        settings.DOGTAG_LOOKUP_LIMIT
    ):
        return Lookup(client_address=client_address, query=query, refused=True, user=user), []
    return _served(query, client_address, user)


def _window_start(now, minutes):
    """The start of the fixed window `now` falls in (windows counted from the Unix epoch)."""
    size = timedelta(minutes=minutes).total_seconds()
    return datetime.fromtimestamp(int(now.timestamp() // size * size), tz=UTC)


def _count_attempt(counter, client_address: str, minutes: int, column: str = "client_address") -> int:
    """Count one attempt in one conditional write; returns this window's attempts, this one included.

    Hand-written SQL because the ORM has no "insert, or add one on conflict, and return the new
    count"; INSERT ... ON CONFLICT ... DO UPDATE ... RETURNING reads the same on PostgreSQL and
    SQLite (3.35+), and the unique constraint queues concurrent attempts on the one row."""
    table = counter._meta.db_table
    start = connection.ops.adapt_datetimefield_value(_window_start(timezone.now(), minutes))
    with connection.cursor() as cursor:
        cursor.execute(
            f"""INSERT INTO {table} ({column}, window_start, attempts) VALUES (%s, %s, 1)
                ON CONFLICT ({column}, window_start) DO UPDATE SET attempts = {table}.attempts + 1
                RETURNING attempts""",
            [client_address, start],
        )
        return cursor.fetchone()[0]


def look_up_chip(*, chip: str, client_address: str, user=None) -> tuple[Lookup, list[dict]]:
    """A found dog's microchip, answered from Dogtag's own records as the tag
    lookup answers: whom to call, never the owner (unless the user is an officer of the dog's
    municipality). Counted in the same per-address limit as the tag lookup; a number that is no
    chip number is refused with what one is, and counted too."""
    from dogtag.portal.chips import chip_number

    user = user if user is not None and user.is_authenticated else None
    if _count_attempt(LookupCounter, client_address, settings.DOGTAG_LOOKUP_WINDOW_MINUTES) > (
        settings.DOGTAG_LOOKUP_LIMIT
    ):
        return Lookup(client_address=client_address, query=chip.strip()[:50], refused=True, user=user), []
    number = chip_number(chip)
    return _served(number, client_address, user, found=_chipped, action=Action.LOOKUP_CHIP)


def _chipped(number: str):
    animals = Animal.objects.filter(
        microchip__iexact=number, status__in=[Animal.Status.ACTIVE, Animal.Status.MISSING]
    ).select_related("municipality")
    return [(animal, f"microchip {number}") for animal in animals]


@transaction.atomic
def _served(query, client_address, user, found=None, action=Action.LOOKUP_TAG):
    results = []
    for animal, source in (found or _found)(query):
        row = {"animal": animal, "municipality": animal.municipality, "source": source}
        if user is not None and has_role(user, animal.municipality_id, SEE_OWNER):
            row["owners"] = [o.person for o in animal.current_owners()]
        results.append(row)
    lookup = Lookup.objects.create(client_address=client_address, query=query, matches=len(results), user=user)
    record(acting_user=user, action=action, obj=lookup)
    return lookup, results


def _found(query: str):
    on = today()
    seen, found = set(), []
    if query.isdigit():
        # The number on the tag the dog wears: a replacement tag carries the license on, a
        # lost one no longer names the dog.
        for tag in Tag.objects.filter(
            serial=int(query),
            status=Tag.Status.ISSUED,
            license__voided_at=None,
            license__expires_on__gte=on,
            license__animal__isnull=False,
        ).select_related("license__animal__municipality", "municipality__contact"):
            license = tag.license
            if license.animal_id not in seen:
                seen.add(license.animal_id)
                found.append((license.animal, f"{license.license_year} license tag {tag.serial}"))
    from django.db.models import Q

    for v in (
        RabiesVaccination.objects.filter(
            Q(rabies_tag_number__iexact=query) | Q(duplicate_tags__tag_number__iexact=query), voided_at=None
        )
        .select_related("animal__municipality")
        .distinct()
    ):
        if v.animal_id not in seen:
            seen.add(v.animal_id)
            found.append((v.animal, f"rabies tag {query}"))
    return [(a, s) for a, s in found if a.status == Animal.Status.ACTIVE or a.status == Animal.Status.MISSING]


@transaction.atomic
def opt_out_of_reminders(person) -> ReminderOptOut:
    opt_out, created = ReminderOptOut.objects.get_or_create(
        person=person, defaults={"municipality": person.municipality}
    )
    if created:
        record(acting_user=None, action=Action.REMINDERS_OPT_OUT, obj=opt_out)
    return opt_out


@transaction.atomic
def send_rabies_reminders(on, progress=None) -> int:
    """The daily reminder run (the worker's schedule, or `dogtag rabies_reminders`): one
    RabiesReminder and one email per certificate falling due, however often it runs; a second
    run racing this one fails on the one-reminder-per-certificate constraint and adds nothing.
    The RabiesReminder rows and the outbox are the record of a run (no audit event: no person acted)."""
    from dogtag.outbox.models import Message
    from dogtag.portal import reminders as owed
    from dogtag.portal.models import RabiesReminder

    written, messages = [], []
    for vaccination, person, decision, (subject, text, html) in owed.due(on, progress):
        municipality = vaccination.animal.municipality
        messages.append(
            Message(
                municipality=municipality,
                to=person.email,
                subject=subject,
                text=text,
                html=html,
                kind="rabies-reminder",
            )
        )
        written.append(
            RabiesReminder(
                municipality=municipality, vaccination=vaccination, person=person, due_on=decision.value.last_day
            )
        )
    RabiesReminder.objects.bulk_create(written, batch_size=1000)
    mail.queue_many(messages)
    return len(written)


CONTACT_FIELDS = ("clerk_office", "office_address", "clerk_phone", "clerk_hours", "police_name", "police_phone",
                  "police_hours")  # fmt: skip


@transaction.atomic
def set_contact(*, acting_user, municipality, **fields) -> MunicipalityContact:
    """The clerk's office address, hours and phone, and the police line: what the portal and
    the found-dog page tell a resident or a finder."""
    require_role(acting_user, municipality.pk, (Role.CLERK, Role.ADMINISTRATOR))
    errors = {f: "Enter this: the portal and the found-dog page show it." for f in ("clerk_phone", "clerk_hours",
              "office_address", "police_phone") if not str(fields.get(f) or "").strip()}  # fmt: skip
    if errors:
        raise ValidationError(errors)
    contact = MunicipalityContact.objects.filter(municipality=municipality).first()
    before = snapshot(contact) if contact else None
    contact = contact or MunicipalityContact(municipality=municipality)
    for name in CONTACT_FIELDS:
        if name in fields:
            setattr(contact, name, str(fields[name]).strip())
    contact.save()
    record(acting_user=acting_user, action=Action.CONTACT_SET, obj=contact, before=before)
    return contact


# --- the municipality's staff, managed by its administrator -------------

ADMINISTRATORS = (Role.ADMINISTRATOR,)


def _membership_user_label(membership) -> str:
    return membership.user.get_full_name() or membership.user.username


@transaction.atomic
def invite_staff(*, acting_user, municipality, name: str, email: str, username: str, role: str):
    """A clerk, officer, veterinarian or administrator invited by the municipality's
    administrator: the account, its role here, and an emailed one-time link to set a password
    and then the second factor."""
    require_role(acting_user, municipality.pk, ADMINISTRATORS)
    User = get_user_model()
    username, email, name = username.strip(), email.strip(), name.strip()
    if role not in Role.values:
        raise ValidationError({"role": "Choose the role: clerk, officer, veterinarian or administrator."})
    user = User.objects.filter(username__iexact=username).first()
    if user is not None and user.email.lower() != email.lower():
        raise ValidationError({"username": f"The username {username} is taken; choose another."})
    if user is not None and Membership.objects.filter(user=user, municipality=municipality).exists():
        raise ValidationError({"username": f"{username} already serves {municipality}: change the role instead."})
    if user is None:
        first, _space, last = name.partition(" ")
        user = User.objects.create_user(username=username, email=email, first_name=first, last_name=last)
    membership = Membership.objects.create(user=user, municipality=municipality, role=role)
    record(acting_user=acting_user, action=Action.STAFF_INVITE, obj=membership)
    mail.queue(
        municipality=municipality,
        to=email,
        template="portal/email/staff-invitation",
        context={"name": name or username, "username": username, "municipality": municipality,
                 "role": Role(role).label.lower(), "url": links.absolute(welcome_path(user))},
        kind="staff-invitation",
    )  # fmt: skip
    return membership


@transaction.atomic
def change_staff_role(membership, *, acting_user, role: str):
    require_role(acting_user, membership.municipality_id, ADMINISTRATORS)
    if role not in Role.values:
        raise ValidationError({"role": "Choose the role: clerk, officer, veterinarian or administrator."})
    if membership.user_id == acting_user.pk:
        raise ValidationError({"role": "Another administrator changes your own role, so the municipality keeps one."})
    if Membership.objects.filter(user=membership.user, municipality=membership.municipality, role=role).exists():
        raise ValidationError({"role": f"{_membership_user_label(membership)} already has that role here."})
    before = snapshot(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    record(acting_user=acting_user, action=Action.STAFF_ROLE_CHANGE, obj=membership, before=before)
    return membership


@transaction.atomic
def deactivate_staff(membership, *, acting_user):
    """The account no longer serves this municipality; an account that serves no other is made
    inactive and can no longer log in. The audit trail keeps who it was and what it did."""
    require_role(acting_user, membership.municipality_id, ADMINISTRATORS)
    if membership.user_id == acting_user.pk:
        raise ValidationError({"__all__": "Another administrator deactivates your own account."})
    record(acting_user=acting_user, action=Action.STAFF_DEACTIVATE, obj=membership, before=snapshot(membership))
    user = membership.user
    Membership.objects.filter(user=user, municipality_id=membership.municipality_id).delete()
    if not Membership.objects.filter(user=user).exists():
        user.is_active = False
        user.save(update_fields=["is_active"])
    return user
