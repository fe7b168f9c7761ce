"""Renewal reminders on a schedule (licensing/reminders.py says who is owed one): the daily
sweep writes the reminders in one INSERT ... SELECT; the delivery then emails each one, or prints
it among the day's letters for an owner without an email address, in batches of one transaction
each. A sweep or a batch killed midway leaves nothing behind (its transaction rolls back), and the
next run finds the same reminders owed: none is written or delivered twice."""

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from dogtag.audit.action_names import Action
from dogtag.audit.record import record


@transaction.atomic
def sweep_renewal_reminders(on, municipalities=None) -> int:
    """Write every renewal reminder owed on `on` (all municipalities, or these); returns how many
    are new. No audit event: the reminders are the record of the sweep, and no person acted."""
    from dogtag.licensing import reminders
    from dogtag.registry.models import Municipality

    chosen = list(municipalities if municipalities is not None else Municipality.objects.all())
    statement = reminders.sweep_insert(chosen, on, timezone.now())
    if statement is None:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(*statement)
        return cursor.rowcount


def deliver_renewal_reminders(on) -> dict[str, int]:
    """Deliver the reminders written and not yet sent or withdrawn, a batch per transaction,
    until none is left; returns the counts of emailed, printed and withdrawn."""
    totals = {"emailed": 0, "printed": 0, "withdrawn": 0}
    while True:
        done = _deliver_batch(on)
        if done is None:
            return totals
        for key, n in done.items():
            totals[key] += n


@transaction.atomic
def _deliver_batch(on) -> dict[str, int] | None:
    from dogtag.licensing import reminders as owed
    from dogtag.licensing.models import RenewalReminder

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
    emailed = printed = 0
    for group in by_municipality.values():
        municipality = group[0].municipality
        emails = [r for r in group if r.channel == RenewalReminder.Channel.EMAIL and _still_wants_email(r.person)]
        letters = [r for r in group if r not in emails]
        _email(municipality, emails, now)
        _print(municipality, letters, now)
        emailed, printed = emailed + len(emails), printed + len(letters)
    return {"emailed": emailed, "printed": printed, "withdrawn": len(withdrawn)}


def _still_wants_email(person) -> bool:
    return bool(person.email) and not hasattr(person, "reminder_opt_out")


def _email(municipality, reminders, now) -> None:
    from dogtag.lib.links import renewal_url, unsubscribe_url
    from dogtag.licensing.models import RenewalReminder
    from dogtag.outbox import mail
    from dogtag.outbox.models import Message

    if not reminders:
        return
    messages = []
    for r in reminders:
        year = r.license_year + 1
        subject, text, html = mail.render(
            "licensing/email/renewal-reminder",
            {
                "reminder": r,
                "animal": r.animal,
                "person": r.person,
                "year": year,
                "expires_on": r.license.expires_on,
                "municipality": municipality,
                "renew_url": renewal_url(r.animal_id, year),
                "unsubscribe_url": unsubscribe_url(r.person_id),
            },
            language=r.person.language,
        )
        messages.append(
            Message(
                municipality=municipality,
                to=r.person.email,
                subject=subject,
                text=text,
                html=html,
                kind="renewal-reminder",
            )
        )
    created = mail.queue_many(messages)
    for r, message in zip(reminders, created, strict=True):
        r.message, r.delivered_at, r.channel = message, now, RenewalReminder.Channel.EMAIL
    RenewalReminder.objects.bulk_update(reminders, ["message", "delivered_at", "channel"])


def _print(municipality, reminders, now) -> None:
    """The letters of a batch as one PDF a license year, a renewal notice each (what the renewal
    run prints), listed for the clerk (ReminderLetters)."""
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage

    from dogtag.licensing import law, renewal_notice_pdf, renewals
    from dogtag.licensing import reminders as owed
    from dogtag.licensing.models import ReminderLetters, RenewalReminder

    local = law.local_amounts(municipality) if reminders else None
    for year in sorted({r.license_year + 1 for r in reminders}):
        of_year = [r for r in reminders if r.license_year + 1 == year]
        figures = renewals.notice_figures(municipality, [r.animal for r in of_year], year, local)
        rows = [{"animal": r.animal, "owner": r.person, **figures[r.animal_id]} for r in of_year]
        name = owed.letters_name(municipality, of_year[0].pk)
        if default_storage.exists(name):  # left by a batch that did not commit
            default_storage.delete(name)
        saved = default_storage.save(name, ContentFile(renewal_notice_pdf.draw(municipality, year, rows)))
        letters = ReminderLetters.objects.create(municipality=municipality, pdf=saved, letters=len(of_year))
        for r in of_year:
            r.letters, r.delivered_at, r.channel = letters, now, RenewalReminder.Channel.PAPER
        RenewalReminder.objects.bulk_update(of_year, ["letters", "delivered_at", "channel"])
        record(acting_user=None, action=Action.REMINDERS_LETTERS_PRINTED, obj=letters)
