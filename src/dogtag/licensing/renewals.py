"""The renewal run: a notice for every active animal licensed the year before and not yet
licensed for the new year — set-based, idempotent (a second run adds nothing), printed as one
PDF batch, and emailed (after commit) to owners who have an address."""

from datetime import date

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from dogtag.accounts.scope import require_role
from dogtag.audit.record import record
from dogtag.lib.links import renewal_url
from dogtag.lib.pdf import render_pdf
from dogtag.licensing import law
from dogtag.licensing.actions import CLERKS
from dogtag.licensing.models import License, RenewalNotice, RenewalRun
from dogtag.outbox import mail
from dogtag.outbox.models import Message
from dogtag.registry.models import Animal, Ownership


def _owners(animal_ids, on):
    owners = {}
    for o in (
        Ownership.objects.current(on)
        .filter(animal_id__in=animal_ids, role=Ownership.Role.OWNER)
        .select_related("person")
        .order_by("started_on")
    ):
        owners[o.animal_id] = o.person
    return owners


def wants_email(person) -> bool:
    """An address on record and no opt-out from reminders (the portal's unsubscribe link)."""
    return bool(person.email) and not hasattr(person, "reminder_opt_out")


def notice_figures(municipality, animals, year: int, local) -> dict:
    """The tax each animal owes if licensed on time, and the last day without a late fee."""
    starts = law.ask(
        municipality, "license_expiry", {"issued_on": date(year, 6, 1), "license_year": year}, date(year, 6, 1), local
    ).value["starts"]
    figures = {}
    for animal in animals:
        facts = law.animal_facts(animal, year)
        if facts is None:
            figures[animal.pk] = {"tax": None, "due_by": None, "citations": ()}
            continue
        tax = law.ask(municipality, "license_tax", facts, starts, local)
        required = law.ask(municipality, "license_required", facts, starts, local)
        figures[animal.pk] = {
            "tax": tax.value,
            "due_by": required.value["due_by"],
            "citations": tax.citations + required.citations,
        }
    return figures


@transaction.atomic
def run_renewals(*, acting_user, municipality, license_year: int, progress=None) -> RenewalRun:
    """`progress(total)` makes a progress bar for the command line."""
    if acting_user is not None:
        require_role(acting_user, municipality.pk, CLERKS)
    on = timezone.localdate()
    last_year = License.objects.filter(
        municipality=municipality, license_year=license_year - 1, voided_at=None, animal__isnull=False
    ).values("animal_id")
    this_year = License.objects.filter(
        municipality=municipality, license_year=license_year, voided_at=None, animal__isnull=False
    ).values("animal_id")
    noticed = RenewalNotice.objects.filter(municipality=municipality, license_year=license_year).values("animal_id")
    animals = list(
        Animal.objects.filter(municipality=municipality, status=Animal.Status.ACTIVE, pk__in=last_year)
        .exclude(pk__in=this_year)
        .exclude(pk__in=noticed)
        .order_by("name", "pk")
    )
    owners = _owners([a.pk for a in animals], on)
    animals = [a for a in animals if a.pk in owners]
    run = RenewalRun.objects.create(municipality=municipality, license_year=license_year, started_by=acting_user)
    notices = RenewalNotice.objects.bulk_create(
        [
            RenewalNotice(
                municipality=municipality,
                animal=a,
                license_year=license_year,
                owner=owners[a.pk],
                emailed=wants_email(owners[a.pk]),
            )
            for a in animals
        ],
        batch_size=1000,
    )
    bar = progress(len(animals)) if progress else None
    figures = notice_figures(municipality, animals, license_year, law.local_amounts(municipality))
    rows = [
        {"animal": a, "owner": owners[a.pk], "renew_url": renewal_url(a.pk, license_year), **figures[a.pk]}
        for a in animals
    ]
    messages = []
    for row in rows:
        if wants_email(row["owner"]):
            subject, text, html = mail.render(
                "licensing/email/renewal", {"row": row, "year": license_year, "municipality": municipality}
            )
            messages.append(
                Message(
                    municipality=municipality,
                    to=row["owner"].email,
                    subject=subject,
                    text=text,
                    html=html,
                    kind="renewal-notice",
                )
            )
        if bar:
            bar.advance()
    mail.queue_many(messages)
    if rows:
        # Through the storage API: a shared or object store serves every app process alike.
        run.pdf = default_storage.save(
            f"renewals/{municipality.slug}-{license_year}-run{run.pk}.pdf",
            ContentFile(
                render_pdf(
                    "licensing/renewal_notices.html", {"rows": rows, "year": license_year, "municipality": municipality}
                )
            ),
        )
    run.notices_created, run.emails_queued, run.finished_at = len(notices), len(messages), timezone.now()
    run.save()
    record(acting_user=acting_user, action="renewals.run", obj=run)
    return run
