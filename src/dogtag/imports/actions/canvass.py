"""Canvassing from a clinic's file: the clerk asks for the invitations (one audit event, the
work handed to the worker), and the worker sends each owner on the list an invitation to license
the animal (an outbox email in the owner's language, or a page of printed letters in the clerk's
print queue), a part per transaction. Each invitation is written with what it sent in the same
transaction, at most one per animal and license year (a unique constraint): a worker killed
midway leaves whole parts behind, and the task run again sends only the rest."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import record, record_each
from dogtag.imports.models import ClinicFile, LicenseInvitation
from dogtag.lib.tasks import enqueue
from dogtag.licensing.actions.roles import CLERKS

PART = 200  # invitations written in one transaction


@transaction.atomic
def canvass_clinic_file(clinic_file, *, acting_user) -> ClinicFile:
    """The clerk asks for the invitations of a file whose certificates are recorded; the worker
    sends them (never in the request)."""
    require_role(acting_user, clinic_file.municipality_id, CLERKS)
    clinic_file = ClinicFile.objects.select_for_update().get(pk=clinic_file.pk)
    if clinic_file.state != ClinicFile.State.FINISHED:
        raise ValidationError(
            f"This file is {clinic_file.state.label.lower()}: invitations are sent once its certificates are recorded."
        )
    record(acting_user=acting_user, action=Action.CLINIC_FILE_CANVASS, obj=clinic_file)
    enqueue(
        "dogtag.imports.tasks.send_license_invitations",
        clinic_file.pk,
        acting_user.pk,
        task_name=f"clinic file {clinic_file.pk}: invitations",
    )
    return clinic_file


def send_license_invitations(clinic_file, *, acting_user, on) -> dict[str, int]:
    """Every invitation of the file's list not sent yet, PART to a transaction; the counts of
    emailed and printed."""
    from dogtag.imports import canvass

    year = canvass.license_year(clinic_file.municipality, on)
    ids = list(canvass.unlicensed(clinic_file, year).values_list("pk", flat=True))
    totals = {"emailed": 0, "printed": 0}
    for start in range(0, len(ids), PART):
        done = _send_part(clinic_file, ids[start : start + PART], year, on, acting_user)
        totals = {k: totals[k] + done[k] for k in totals}
    return totals


@transaction.atomic
def _send_part(clinic_file, ids, year, on, acting_user) -> dict[str, int]:
    from dogtag.imports import canvass
    from dogtag.licensing.reminders import current_owners
    from dogtag.licensing.renewal_codes import codes_for
    from dogtag.registry.models import Animal, Person, RenewalCode

    m = clinic_file.municipality
    # Two workers sending the same file take turns; the second finds these already invited.
    ClinicFile.objects.select_for_update().get(pk=clinic_file.pk)
    invited = set(
        LicenseInvitation.objects.filter(animal_id__in=ids, license_year=year).values_list("animal_id", flat=True)
    )
    owners = dict(current_owners(on).filter(animal_id__in=[a for a in ids if a not in invited]))
    people = Person.objects.select_related("reminder_opt_out").in_bulk(set(owners.values()))
    animals = [a for a in Animal.objects.filter(pk__in=owners).order_by("pk")]
    rows = []
    for animal in animals:
        owed = canvass.owed_today(animal, year, on)
        if owed.existing or any(r.field == "license" for r in owed.refusals):
            continue  # licensed, or kept under a multiple-dog license, since the list was read
        rows.append({"animal": animal, "owner": people[owners[animal.pk]], **canvass.figures(owed)})
    if not rows:
        return {"emailed": 0, "printed": 0}
    codes, new_codes = codes_for(m, year, [r["animal"].pk for r in rows])
    RenewalCode.objects.bulk_create(new_codes)
    now = timezone.now()
    emails, letters = [], []
    for row in rows:
        row["renewal_code"] = codes[row["animal"].pk]
        wants_email = row["owner"].email and not hasattr(row["owner"], "reminder_opt_out")
        (emails if wants_email else letters).append(row)
    invitations = _email(clinic_file, emails, year, now) + _print(clinic_file, letters, year, now)
    created = LicenseInvitation.objects.bulk_create(invitations)
    record_each(acting_user=acting_user, action=Action.LICENSE_INVITATION_SEND, objs=created)
    return {"emailed": len(emails), "printed": len(letters)}


def _invitation(clinic_file, row, year, now, channel, **sent) -> LicenseInvitation:
    return LicenseInvitation(
        municipality_id=clinic_file.municipality_id,
        clinic_file=clinic_file,
        animal=row["animal"],
        license_year=year,
        person=row["owner"],
        channel=channel,
        fee=row["tax"],
        code=row["renewal_code"],
        sent_at=now,
        **sent,
    )


def _email(clinic_file, rows, year, now) -> list[LicenseInvitation]:
    from django.urls import reverse

    from dogtag.lib.links import absolute, renewal_url, unsubscribe_url
    from dogtag.lib.short_codes import shown
    from dogtag.licensing.renewal_notice_pdf import office_lines
    from dogtag.outbox import mail
    from dogtag.outbox.models import Message

    m = clinic_file.municipality
    office = office_lines(m)
    messages = []
    for row in rows:
        subject, text, html = mail.render(
            "imports/email/license-invitation",
            {
                **row,
                "person": row["owner"],
                "year": year,
                "municipality": m,
                "code": shown(row["renewal_code"]),
                "code_url": absolute(reverse("portal-renewal-code")),
                "renew_url": renewal_url(row["animal"].pk, year),
                "unsubscribe_url": unsubscribe_url(row["owner"].pk),
                "office": office,
            },
            language=row["owner"].language,
        )
        messages.append(
            Message(
                municipality=m, to=row["owner"].email, subject=subject, text=text, html=html, kind="license-invitation"
            )
        )
    created = mail.queue_many(messages)
    return [
        _invitation(clinic_file, row, year, now, LicenseInvitation.Channel.EMAIL, message=message)
        for row, message in zip(rows, created, strict=True)
    ]


def _print(clinic_file, rows, year, now) -> list[LicenseInvitation]:
    """The letters of a part as one PDF in the clerk's print queue (licensing.ReminderLetters,
    beside the renewal reminders' letters)."""
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage

    from dogtag.licensing import renewal_notice_pdf
    from dogtag.licensing.models import ReminderLetters

    if not rows:
        return []
    m = clinic_file.municipality
    name = f"invitations/{m.slug}-file-{clinic_file.pk}-from-animal-{rows[0]['animal'].pk}.pdf"
    if default_storage.exists(name):  # left by a part that did not commit
        default_storage.delete(name)
    pdf = renewal_notice_pdf.draw(m, year, [{**row, "invitation": True} for row in rows])
    saved = default_storage.save(name, ContentFile(pdf))
    letters = ReminderLetters.objects.create(municipality=m, pdf=saved, letters=len(rows))
    return [_invitation(clinic_file, row, year, now, LicenseInvitation.Channel.PAPER, letters=letters) for row in rows]
