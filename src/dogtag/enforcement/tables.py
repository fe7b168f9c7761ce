"""Animal control's lists as tables: open cases (the officer's and a municipality's) and the
dogs and cats a district quarantine confines; the CSV holds every row."""

from django.db.models import F, OuterRef, Prefetch, Subquery
from django.urls import reverse

from dogtag.accounts.scope import get_for_user, scoped
from dogtag.enforcement import district
from dogtag.enforcement.actions.cases import STAFF
from dogtag.enforcement.models import Case, Deadline, DistrictQuarantine
from dogtag.lib import dates
from dogtag.lib.dates import today
from dogtag.lib.tables import Column, Report, table
from dogtag.lib.web import municipality_for

PENDING = Deadline.objects.filter(done_on=None, superseded=False).order_by("due_on", "pk")


def open_cases(user):
    """Open cases in every municipality the user serves, the soonest next deadline first (so the
    overdue ones on top), cases without one last; ordered in the database, so a page of them
    costs the same whatever the number of cases."""
    next_due = PENDING.filter(case=OuterRef("pk")).values("due_on")[:1]
    return (
        scoped(user, Case.objects.filter(closed_on=None))
        .annotate(next_due=Subquery(next_due))
        .order_by(F("next_due").asc(nulls_last=True), "pk")
        .select_related("municipality", "animal", "owner")
    )


def _status(case):
    return "closed" if case.closed_on else "open"


def _case(case):
    return f"{case.get_kind_display()} #{case.pk}: {case.title}"


def _case_url(case):
    return reverse("case", args=[case.pk])


CASES = [
    Column("Case", _case, link=_case_url),
    Column("Opened", "opened_on"),
    Column("Animal", lambda c: str(c.animal) if c.animal_id else ""),
    Column("Owner", lambda c: str(c.owner) if c.owner_id else ""),
    Column("Status", _status),
    Column("Closed on", "closed_on"),
]


def _next(case):
    return next(iter(case.pending), None)


def _overdue(case):
    return bool(_next(case) and _next(case).overdue)


MY_CASES = [
    Column("Next deadline", lambda c: _next(c).due_on if _next(c) else None, cell="enforcement/cells/next_due.html"),
    Column("Overdue", _overdue),
    Column("What", lambda c: _next(c).label if _next(c) else "no deadline"),
    Column("Case", _case, link=_case_url),
    Column("Municipality", "municipality.name"),
    Column(
        "Law",
        lambda c: ", ".join(x["section"] for x in _next(c).citations) if _next(c) else "",
        cell="enforcement/cells/law.html",
    ),
]


def municipality_cases(municipality):
    return Case.objects.filter(municipality=municipality).select_related("animal", "owner").order_by("-pk")


def my_cases(request) -> Report:
    cases = open_cases(request.user).prefetch_related(Prefetch("deadlines", queryset=PENDING, to_attr="pending"))
    rows = table("Open cases", MY_CASES, cases, empty="No open cases.", row_class=lambda c: _overdue(c) and "void")
    return Report("My cases", f"open on {dates.shown(today())}", [rows])


def cases(request, slug) -> Report:
    m = municipality_for(request, slug)
    rows = table(f"Cases — {m}", CASES, municipality_cases(m), empty="No cases yet.")
    return Report("Cases", str(m), [rows], municipality=m)


def _owner(a):
    return next((o.person for o in a.owners_now), None)


NOT_EXEMPT = [
    Column("Animal", "name", cell="enforcement/cells/not_exempt_animal.html"),
    Column("Species", lambda a: a.get_species_display()),
    Column("Why", lambda a: "; ".join(district.reasons(a))),
    Column("License in force", "license_serial"),
    Column("Owner", lambda a: str(_owner(a) or "")),
    Column("Address", lambda a: a.premises.street if a.premises_id else (_owner(a).address if _owner(a) else "")),
    Column("Phone", lambda a: _owner(a).phone if _owner(a) else ""),
]


def not_exempt(request, pk) -> Report:
    d = get_for_user(request.user, DistrictQuarantine.objects.select_related("municipality"), pk, STAFF)
    on = today()
    animals, engine = district.not_exempt(d.municipality, on)
    empty = "Every live dog and cat on record is exempt."
    rows = table(f"Not exempt on {on:%B} {on.day}, {on.year}", NOT_EXEMPT, animals, empty=empty)
    report = Report("Not exempt", f"{d} on {dates.shown(on)}", [rows], municipality=d.municipality)
    report.district, report.on, report.engine = d, on, engine
    return report
