"""Report pages: each on screen, as CSV (`?format=csv`) and as PDF (`?format=pdf`), for one
municipality the user serves; the dashboard for one municipality or every one the user serves."""

from dataclasses import dataclass
from datetime import date

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Sum
from django.db.models.functions import ExtractMonth, ExtractYear, TruncDate
from django.http import Http404
from django.shortcuts import render

from dogtag.accounts.scope import municipalities
from dogtag.lib.dates import today
from dogtag.lib.replica import reads_from_replica
from dogtag.lib.tables import Report, Table, respond
from dogtag.lib.web import municipality_for
from dogtag.licensing.models import License, Payment, Refund
from dogtag.reports import queries
from dogtag.rules.decision import ZERO

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


@dataclass(frozen=True)
class Spec:
    build: object
    title: str
    takes: str  # "period", "day", "days" or "on"
    about: str


REPORTS = {
    "licenses": Spec(
        queries.licenses_issued, "Licenses issued", "period", "by kind, with tax, late fees and exemptions"
    ),
    "payments": Spec(queries.payments, "Payments by method", "period", "by method and by day"),
    "day-close": Spec(queries.payments, "The day's close", "day", "each payment of a day, for the cash drawer"),
    "remittance": Spec(
        queries.remittance,
        "Remittance of the state part",
        "period",
        "state-minimum part and local tax per license, retained amount, late fees; paid to the county "
        "treasurer or the intergovernmental commission (s. 174.08)",
    ),
    "county-clerk": Spec(
        queries.county_clerk,
        "Licenses issued, for the county clerk",
        "period",
        "the report of licenses issued (s. 174.08)",
    ),
    "tag-stock": Spec(queries.tag_stock, "Tag stock", "on", "received, issued, voided, unused; the return lists"),
    "unlicensed": Spec(queries.unlicensed, "Unlicensed and late animals", "on", "with the late fee owed today"),
    "rabies-expiring": Spec(
        queries.rabies_expiring, "Rabies certificates expiring", "days", "in the next 30, 60 or 90 days"
    ),
    "over-limit": Spec(
        queries.over_limit, "Animals over a household or kennel limit", "on", "premises over the ordinance's limits"
    ),
    "animal-control": Spec(
        queries.animal_control,
        "Animal control",
        "period",
        "complaints, impoundments, bites, quarantines, declarations, citations",
    ),
}


def _date(value, default):
    try:
        return date.fromisoformat(value) if value else default
    except ValueError:
        return default


def params(request, spec: Spec) -> dict:
    on = today()
    p = {"on": on}
    if spec.takes == "period":
        p["start"] = _date(request.GET.get("start"), date(on.year, 1, 1))
        p["end"] = max(_date(request.GET.get("end"), on), p["start"])
    elif spec.takes == "day":
        p["start"] = p["end"] = _date(request.GET.get("day"), on)
    elif spec.takes == "days":
        p["days"] = int(request.GET.get("days")) if request.GET.get("days") in ("30", "60", "90") else 30
    p["part_time_collector"] = request.GET.get("part_time_collector") == "on"
    return p


@login_required
@reads_from_replica
def report(request, slug, name):
    municipality = municipality_for(request, slug)
    spec = REPORTS.get(name)
    if spec is None:
        raise Http404("No such report.")
    p = params(request, spec)
    return respond(request, spec.build(municipality, p), municipality, name, extra={"spec": spec, "p": p})


@login_required
@reads_from_replica
def index(request, slug):
    from dogtag.accounts.scope import municipality_ids
    from dogtag.registry.actions import AMENDERS

    municipality = municipality_for(request, slug)
    may_amend = municipality.pk in municipality_ids(request.user, AMENDERS)
    return render(
        request, "reports/index.html", {"municipality": municipality, "reports": REPORTS, "may_amend": may_amend}
    )


def _by_month(qs, date_field, value, years):
    """{year: [12 monthly figures]} in one grouped query."""
    out = {y: [0] * 12 for y in years}
    rows = (
        qs.filter(**{f"{date_field}__year__in": years})
        .annotate(y=ExtractYear(date_field), mo=ExtractMonth(date_field))
        .values("y", "mo")
        .annotate(v=value)
    )
    for r in rows:
        out[r["y"]][r["mo"] - 1] = r["v"] or 0
    return out


def dashboard_data(ids, on):
    years = [on.year - 1, on.year]
    licenses = _by_month(
        License.objects.filter(municipality_id__in=ids, voided_at=None), "issued_on", Count("pk"), years
    )
    paid = Payment.objects.filter(municipality_id__in=ids, voided_at=None).annotate(day=TruncDate("received_at"))
    revenue = _by_month(paid, "day", Sum("amount"), years)
    refunded = Refund.objects.filter(municipality_id__in=ids).annotate(day=TruncDate("refunded_at"))
    for year, months in _by_month(refunded, "day", Sum("amount"), years).items():
        revenue[year] = [r - out for r, out in zip(revenue[year], months, strict=True)]
    cases = queries.open_cases(ids, on)
    return {
        "years": years,
        "licenses": Table(
            "Licenses issued by month",
            ["Month", str(years[0]), str(years[1])],
            [[MONTHS[i], licenses[years[0]][i], licenses[years[1]][i]] for i in range(12)],
            ["Total", sum(licenses[years[0]]), sum(licenses[years[1]])],
        ),
        "revenue": Table(
            "Revenue by month",
            ["Month", str(years[0]), str(years[1])],
            [[MONTHS[i], revenue[years[0]][i] or ZERO, revenue[years[1]][i] or ZERO] for i in range(12)],
            ["Total", sum(revenue[years[0]], ZERO), sum(revenue[years[1]], ZERO)],
        ),
        "cases": Table(
            "Open cases",
            ["Kind", "Open", "Overdue deadlines"],
            cases,
            ["Total", sum(r[1] for r in cases), sum(r[2] for r in cases)],
        ),
    }


def _charts(data) -> dict:
    """The charts' numbers; the template encodes them once, with json_script."""
    y0, y1 = (str(y) for y in data["years"])
    return {
        "licenses": {
            "labels": MONTHS,
            "series": {y0: [r[1] for r in data["licenses"].rows], y1: [r[2] for r in data["licenses"].rows]},
        },
        "revenue": {
            "labels": MONTHS,
            "series": {
                y0: [float(r[1]) for r in data["revenue"].rows],
                y1: [float(r[2]) for r in data["revenue"].rows],
            },
        },
        "cases": {
            "labels": [r[0] for r in data["cases"].rows],
            "series": {
                "Open": [r[1] for r in data["cases"].rows],
                "Overdue deadlines": [r[2] for r in data["cases"].rows],
            },
        },
    }


def _dashboard(request, served, municipality):
    on = today()
    data = dashboard_data([m.pk for m in served], on)
    report = Report(
        "Dashboard",
        ", ".join(m.name for m in served) or "no municipality",
        [data["licenses"], data["revenue"], data["cases"]],
    )
    return respond(
        request,
        report,
        municipality,
        "dashboard",
        "reports/dashboard.html",
        {"data": data, "charts": _charts(data), "served": served, "on": on},
    )


@login_required
@reads_from_replica
def dashboard(request, slug):
    municipality = municipality_for(request, slug)
    return _dashboard(request, [municipality], municipality)


@login_required
@reads_from_replica
def county_dashboard(request):
    """Every municipality the user serves (a county officer's or administrator's view), or those
    of one county."""
    served = list(municipalities(request.user))
    county = request.GET.get("county")
    if county:
        served = [m for m in served if m.county == county]
    return _dashboard(request, served, None)
