"""What a renewal run reads and prints (its writers are in licensing/actions.py).

The candidates are one query: every active animal licensed the year before, not licensed and
not yet noticed for the new year, with its current owner — the rows an INSERT ... SELECT turns
into notices without a model instance per animal. A chunk of notices is printed as one PDF, a
page a notice (renewal_notice_pdf.py); the signed renewal link is made only for a notice that is
emailed."""

from datetime import date

from django.db.models import Exists, F, OuterRef, Subquery, Value
from django.db.models.expressions import Window
from django.db.models.functions import RowNumber

from dogtag.lib.links import renewal_url
from dogtag.licensing import law
from dogtag.licensing.models import License, RenewalNotice
from dogtag.outbox import mail
from dogtag.outbox.models import Message
from dogtag.registry.models import Animal, Ownership, Person


def candidates(municipality, license_year: int, on: date):
    def licensed(year):
        return License.objects.filter(license_year=year, voided_at=None, animal_id=OuterRef("pk"))

    owner = (
        Ownership.objects.current(on)
        .filter(animal_id=OuterRef("pk"), role=Ownership.Role.OWNER)
        .order_by("-started_on", "-pk")
        .values("person_id")[:1]
    )
    return (
        Animal.objects.filter(municipality=municipality, status=Animal.Status.ACTIVE)
        .filter(Exists(licensed(license_year - 1)))
        .exclude(Exists(licensed(license_year)))
        .exclude(Exists(RenewalNotice.objects.filter(license_year=license_year, animal_id=OuterRef("pk"))))
        .annotate(owner_person=Subquery(owner))
        .filter(owner_person__isnull=False)
    )


def notice_rows(municipality, license_year: int, on: date, run_id: int, created_at):
    """The candidates as RenewalNotice rows, numbered in printed order (name, then id), each
    `emailed` when its owner wants_email (decided here, so no second pass writes the rows again)."""
    from django.db.models import DateTimeField, IntegerField

    emailed = Person.objects.filter(pk=OuterRef("owner_person"), reminder_opt_out__isnull=True).exclude(email="")
    return (
        candidates(municipality, license_year, on)
        .annotate(
            n_municipality=Value(municipality.pk, output_field=IntegerField()),
            n_year=Value(license_year, output_field=IntegerField()),
            n_created=Value(created_at, output_field=DateTimeField()),
            n_emailed=Exists(emailed),
            n_run=Value(run_id, output_field=IntegerField()),
            n_sequence=Window(RowNumber(), order_by=[F("name").asc(), F("pk").asc()]),
        )
        .values_list("n_municipality", "pk", "n_year", "owner_person", "n_created", "n_emailed", "n_run", "n_sequence")
        .order_by()
    )


NOTICE_COLUMNS = (
    "municipality_id",
    "animal_id",
    "license_year",
    "owner_id",
    "created_at",
    "emailed",
    "run_id",
    "sequence",
)


def wants_email(person) -> bool:
    """An address on record and no opt-out from reminders (the portal's unsubscribe link)."""
    return bool(person.email) and not hasattr(person, "reminder_opt_out")


def notice_figures(municipality, animals, year: int, local) -> dict:
    """The tax each animal owes if licensed on time, and the last day without a late fee."""
    starts = law.ask(
        municipality, "license_expiry", {"issued_on": date(year, 6, 1), "license_year": year}, date(year, 6, 1), local
    ).value.starts
    figures, by_facts = {}, {}
    known = []
    for animal in animals:
        row = law.facts_row(animal, year)
        if row is None:
            figures[animal.pk] = {"tax": None, "due_by": None, "citations": ()}
        else:
            known.append((animal.pk, row))
    taxes = law.decide_rows(municipality, "license_tax", [row for _, row in known], starts, local)
    for (pk, row), tax in zip(known, taxes, strict=True):
        figure = by_facts.get(row)
        if figure is None:  # animals with the same facts owe the same: ask once
            required = law.ask(municipality, "license_required", law.facts_of_row(row), starts, local)
            figure = by_facts[row] = {
                "tax": tax.value.amount,
                "due_by": required.value.due_by,
                "citations": tax.citations + required.citations,
            }
        figures[pk] = figure
    return figures


def chunk_notices(chunk):
    return list(
        RenewalNotice.objects.filter(run_id=chunk.run_id, sequence__range=(chunk.first_sequence, chunk.last_sequence))
        .select_related("animal", "owner", "owner__reminder_opt_out")
        .order_by("sequence")
    )


def chunk_rows(municipality, year: int, notices) -> list[dict]:
    figures = notice_figures(municipality, [n.animal for n in notices], year, law.local_amounts(municipality))
    return [
        {
            "notice": n,
            "animal": n.animal,
            "owner": n.owner,
            "renew_url": renewal_url(n.animal_id, year) if n.emailed else None,
            **figures[n.animal_id],
        }
        for n in notices
    ]


def emails(municipality, year: int, rows) -> list[Message]:
    messages = []
    for row in rows:
        if not row["notice"].emailed:
            continue
        subject, text, html = mail.render(
            "licensing/email/renewal", {"row": row, "year": year, "municipality": municipality}
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
    return messages


def chunk_name(chunk) -> str:
    run = chunk.run
    return f"renewals/{run.municipality.slug}-{run.license_year}-run{run.pk}-part{chunk.number:04d}.pdf"


def merged_name(run) -> str:
    return f"renewals/{run.municipality.slug}-{run.license_year}-run{run.pk}.pdf"
