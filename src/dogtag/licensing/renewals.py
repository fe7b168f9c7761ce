"""What a renewal run reads and prints (its writers are in licensing/actions/renewals.py): the
animals due a notice with their current owner as one query an INSERT ... SELECT turns into
notices, and a chunk of notices as one PDF (renewal_notice_pdf.py)."""

from datetime import date

from django.db import connection
from django.db.models import Exists, F, OuterRef

from dogtag.lib.links import renewal_url
from dogtag.licensing import law
from dogtag.licensing.facts import local_amounts
from dogtag.licensing.models import License, RenewalNotice
from dogtag.licensing.reminders import current_owners, owner_join
from dogtag.outbox import mail
from dogtag.outbox.models import Message
from dogtag.registry.models import Animal


def notice_insert(municipality, license_year: int, on: date, run_id: int, created_at) -> tuple[str, list]:
    """The INSERT ... SELECT of a run's notices (start_renewal_run executes it), numbered in printed order."""
    q = connection.ops.quote_name
    due, params, emailed = _due_notices(municipality, license_year, on)
    sql = (
        f"INSERT INTO {q(RenewalNotice._meta.db_table)} "
        "(municipality_id, animal_id, license_year, owner_id, created_at, emailed, run_id, sequence) "
        f"SELECT %s, c.c_id, %s, o.o_person, %s, {emailed}, %s, "
        f"ROW_NUMBER() OVER (ORDER BY c.c_name, c.c_id) {due}"
    )
    return sql, [municipality.pk, license_year, connection.ops.adapt_datetimefield_value(created_at), run_id, *params]


class NoticePreview:
    """Who a run started on `on` would notify, before it is started: the count by channel and the
    rows in printed order, read a page at a time (a sequence Django's Paginator slices: each slice
    one LIMIT ... OFFSET of the run's own query, so the preview and the run cannot disagree)."""

    def __init__(self, municipality, license_year: int, on: date):
        self.due, self.params, self.emailed = _due_notices(municipality, license_year, on)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT COUNT(*), COALESCE(SUM(CASE WHEN {self.emailed} THEN 1 ELSE 0 END), 0) {self.due}",
                self.params,
            )
            self.total, self.by_email = (int(n) for n in cursor.fetchone())
        self.by_paper = self.total - self.by_email

    def __len__(self):  # Paginator's count
        return self.total

    def __getitem__(self, page: slice):
        q = connection.ops.quote_name
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT c.c_name, p.{q('name')}, p.{q('street')}, CASE WHEN {self.emailed} THEN 1 ELSE 0 END "
                f"{self.due} ORDER BY c.c_name, c.c_id LIMIT %s OFFSET %s",
                [*self.params, page.stop - page.start, page.start],
            )
            return [
                {"animal": animal, "owner": owner, "address": street, "by_email": bool(by_email)}
                for animal, owner, street, by_email in cursor.fetchall()
            ]


def _due_notices(municipality, license_year: int, on: date) -> tuple[str, list, str]:
    """FROM ... JOIN ... of the animals due a notice (`c`) joined to their current owner
    (reminders.owner_join: a join rather than a lookup per animal), its parameters, and the SQL
    of `emailed` (wants_email)."""
    licensed = License.objects.filter(voided_at=None, animal_id=OuterRef("pk"))
    due = (
        Animal.objects.filter(municipality=municipality, status=Animal.Status.ACTIVE)
        .filter(Exists(licensed.filter(license_year=license_year - 1)))
        .exclude(Exists(licensed.filter(license_year=license_year)))
        .exclude(Exists(RenewalNotice.objects.filter(license_year=license_year, animal_id=OuterRef("pk"))))
        .annotate(c_id=F("pk"), c_name=F("name"))
        .values_list("c_id", "c_name")
        .order_by()
    )
    due_sql, due_params = due.query.sql_with_params()
    owners, owners_params, emailed = owner_join(current_owners(on).filter(municipality=municipality), "c.c_id")
    return f"FROM ({due_sql}) c {owners}", [*due_params, *owners_params], emailed


def wants_email(person) -> bool:
    """An address on record and no opt-out from reminders (the portal's unsubscribe link)."""
    return bool(person.email) and not hasattr(person, "reminder_opt_out")


def notice_figures(municipality, animals, year: int, local) -> dict:
    """The tax each animal owes if licensed on time, and the last day without a late fee."""
    starts = law.ask(
        municipality, "license_expiry", {"issued_on": date(year, 6, 1), "license_year": year}, date(year, 6, 1), local
    ).value.starts
    figures, by_facts, known = {}, {}, []
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


def chunk_rows(chunk) -> list[dict]:
    municipality, year = chunk.run.municipality, chunk.run.license_year
    notices = list(
        RenewalNotice.objects.filter(run_id=chunk.run_id, sequence__range=(chunk.first_sequence, chunk.last_sequence))
        .select_related("animal", "owner", "owner__reminder_opt_out")
        .order_by("sequence")
    )
    figures = notice_figures(municipality, [n.animal for n in notices], year, local_amounts(municipality))
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


def email(municipality, person, template: str, context: dict, kind: str) -> Message:
    """A renewal notice or reminder as an email to `person`, in the person's language, unsaved
    (the caller queues a batch at once: mail.queue_many)."""
    subject, text, html = mail.render(template, {**context, "municipality": municipality}, language=person.language)
    return Message(municipality=municipality, to=person.email, subject=subject, text=text, html=html, kind=kind)


def emails(municipality, year: int, rows) -> list[Message]:
    return [
        email(municipality, row["owner"], "licensing/email/renewal", {"row": row, "year": year}, "renewal-notice")
        for row in rows
        if row["notice"].emailed
    ]


def chunk_name(chunk) -> str:
    run = chunk.run
    return f"renewals/{run.municipality.slug}-{run.license_year}-run{run.pk}-part{chunk.number:04d}.pdf"
