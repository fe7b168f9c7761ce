"""Renewal reminders on a schedule (licensing/reminders.py says who is owed one): the daily
sweep writes the reminders in one INSERT ... SELECT; the delivery then emails each one, or prints
it among the day's letters for an owner without an email address, and also texts it to an owner
with a live consent to text messages (outbox/texts.py), in batches of one transaction each. A
sweep or a batch killed midway leaves nothing behind (its transaction rolls back), and the next
run finds the same reminders owed: none is written, emailed or texted twice."""

from collections import Counter

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from dogtag.audit.action_names import Action
from dogtag.audit.record import record
from dogtag.lib import short_codes
from dogtag.lib.links import absolute, renewal_url, unsubscribe_url
from dogtag.lib.stored_files import save_over
from dogtag.licensing import law, renewal_notice_pdf, renewals
from dogtag.licensing import reminders as owed
from dogtag.licensing.models import ReminderLetters, RenewalReminder
from dogtag.licensing.renewal_codes import codes_for
from dogtag.outbox import mail
from dogtag.outbox.models import Message, TextConsent
from dogtag.registry.models import Municipality, RenewalCode


@transaction.atomic
def sweep_renewal_reminders(on, municipalities=None) -> int:
    """Write every renewal reminder owed on `on` (all municipalities, or these); returns how many
    are new. No audit event: the reminders are the record of the sweep, and no person acted."""
    chosen = list(municipalities if municipalities is not None else Municipality.objects.all())
    statement = owed.sweep_insert(chosen, on, timezone.now())
    if statement is None:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(*statement)
        return cursor.rowcount


def deliver_renewal_reminders(on) -> dict[str, int]:
    """Deliver the reminders written and not yet sent or withdrawn, a batch per transaction,
    until none is left; returns the counts of emailed, printed, texted and withdrawn."""
    totals = Counter(emailed=0, printed=0, texted=0, withdrawn=0)
    while (done := _deliver_batch(on)) is not None:
        totals.update(done)
    return dict(totals)


@transaction.atomic
def _deliver_batch(on) -> dict[str, int] | None:
    # The rows are locked, and a second worker skips them (PostgreSQL; SQLite has one writer).
    ids = list(
        RenewalReminder.objects.select_for_update(skip_locked=True)
        .filter(delivered_at=None, withdrawn_at=None)
        .order_by("municipality_id", "pk")
        .values_list("pk", flat=True)[: settings.DOGTAG_RENEWAL_REMINDER_BATCH]
    )
    if not ids:
        return None
    batch = list(
        RenewalReminder.objects.filter(pk__in=ids)
        .select_related("animal", "person", "person__reminder_opt_out", "license", "municipality")
        .order_by("pk")
    )
    now = timezone.now()
    reasons = owed.withdrawn_because(batch, on)
    withdrawn = [r for r in batch if r.pk in reasons]
    for r in withdrawn:
        r.withdrawn_at, r.withdrawn_because = now, reasons[r.pk]
    RenewalReminder.objects.bulk_update(withdrawn, ["withdrawn_at", "withdrawn_because"])
    going = [r for r in batch if r.pk not in reasons]
    by_municipality = {}
    for r in going:
        by_municipality.setdefault(r.municipality_id, []).append(r)
    done = Counter(withdrawn=len(withdrawn))
    for group in by_municipality.values():
        municipality = group[0].municipality
        emails = [r for r in group if r.channel == RenewalReminder.Channel.EMAIL and renewals.wants_email(r.person)]
        letters = [r for r in group if r not in emails]
        _email(municipality, emails, now)
        _print(municipality, letters, now)
        done.update(emailed=len(emails), printed=len(letters), texted=_text(municipality, group))
    return done


def _email(municipality, reminders, now) -> None:
    messages = [
        renewals.email(
            municipality,
            r.person,
            "licensing/email/renewal-reminder",
            {
                "reminder": r,
                "animal": r.animal,
                "person": r.person,
                "year": r.license_year + 1,
                "expires_on": r.license.expires_on,
                "renew_url": renewal_url(r.animal_id, r.license_year + 1),
                "unsubscribe_url": unsubscribe_url(r.person_id),
            },
            "renewal-reminder",
        )
        for r in reminders
    ]
    for r, message in zip(reminders, mail.queue_many(messages), strict=True):
        r.message, r.delivered_at, r.channel = message, now, RenewalReminder.Channel.EMAIL
    RenewalReminder.objects.bulk_update(reminders, ["message", "delivered_at", "channel"])


def _print(municipality, reminders, now) -> None:
    """The letters of a batch as one PDF a license year, a renewal notice each (what the renewal
    run prints), listed for the clerk (ReminderLetters)."""
    local = law.local_amounts(municipality) if reminders else None
    for year in sorted({r.license_year + 1 for r in reminders}):
        of_year = [r for r in reminders if r.license_year + 1 == year]
        figures = renewals.notice_figures(municipality, [r.animal for r in of_year], year, local)
        rows = [{"animal": r.animal, "owner": r.person, **figures[r.animal_id]} for r in of_year]
        name = f"reminders/{municipality.slug}-letters-from-{of_year[0].pk}.pdf"
        saved = save_over(name, ContentFile(renewal_notice_pdf.draw(municipality, year, rows)))
        letters = ReminderLetters.objects.create(municipality=municipality, pdf=saved, letters=len(of_year))
        for r in of_year:
            r.letters, r.delivered_at, r.channel = letters, now, RenewalReminder.Channel.PAPER
        RenewalReminder.objects.bulk_update(of_year, ["letters", "delivered_at", "channel"])
        record(acting_user=None, action=Action.REMINDERS_LETTERS_PRINTED, obj=letters)


def _text(municipality, reminders) -> int:
    """The batch's text messages, to the owners with a live consent (a STOP reply ended none of
    them): a short body in the owner's language with the renewal code and the front page's
    address. Set-based: one query for the consents, one for the codes, one insert of the codes,
    one of the messages, one update of the reminders."""
    numbers = dict(
        TextConsent.objects.filter(
            municipality=municipality, person_id__in={r.person_id for r in reminders}, stopped_at=None
        )
        .order_by("consented_at", "pk")  # the newest consent of a person with two numbers wins
        .values_list("person_id", "phone")
    )
    texted = [r for r in reminders if r.person_id in numbers]
    codes, new_codes = {}, []
    for year in sorted({r.license_year + 1 for r in texted}):
        known, new = codes_for(municipality, year, [r.animal_id for r in texted if r.license_year + 1 == year])
        codes.update({(a, year): c for a, c in known.items()})
        new_codes += new
    RenewalCode.objects.bulk_create(new_codes)
    front_door = absolute(reverse("home"))
    messages = []
    for r in texted:
        with translation.override(r.person.language or settings.LANGUAGE_CODE):
            words = {
                "municipality": str(municipality),
                "animal": r.animal.name,
                "date": formats.date_format(r.license.expires_on, "MONTH_DAY_FORMAT"),
                "year": r.license_year + 1,
                "address": front_door,
                "code": short_codes.shown(codes[(r.animal_id, r.license_year + 1)]),
            }
            if r.lead_days < 0:
                body = gettext(
                    "%(municipality)s: %(animal)s's dog license runs out on %(date)s. Renew for %(year)s at "
                    "%(address)s with code %(code)s. Reply STOP to end texts."
                )
            else:
                body = gettext(
                    "%(municipality)s: %(animal)s's dog license ran out on %(date)s. Renew for %(year)s at "
                    "%(address)s with code %(code)s. Reply STOP to end texts."
                )
        messages.append(
            Message(
                municipality=municipality,
                channel=Message.Channel.TEXT,
                to=numbers[r.person_id],
                text=body % words,
                kind="renewal-reminder",
            )
        )
    for r, message in zip(texted, mail.queue_many(messages), strict=True):
        r.text = message
    RenewalReminder.objects.bulk_update(texted, ["text"])
    return len(texted)
