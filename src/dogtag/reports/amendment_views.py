"""Amendments of the ordinance: the list, the draft, the preview (run in the worker), its
Board-packet PDF and CSV, adoption and void. Clerks and administrators of the municipality."""

from datetime import date
from decimal import Decimal
from operator import itemgetter

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from dogtag.accounts.scope import get_for_user
from dogtag.lib.pdf import pdf_response
from dogtag.lib.tables import Column, Report, Table, csv_response, exports, table
from dogtag.lib.web import action_page, municipality_for, posted, run_action
from dogtag.registry import actions
from dogtag.registry.amending import figures_of
from dogtag.registry.models import Amendment, AmendmentPreview
from dogtag.reports.amendment_forms import AdoptForm, DraftForm, PreviewForm, VoidForm

PDF_ROWS = 200  # affected licenses printed in the Board packet; the CSV has every one
AMENDMENTS = [
    Column("Title", "title", link=lambda a: reverse("amendment", args=[a.pk])),
    Column("Section", "section"),
    Column("Effective", "effective_on"),
    Column("Status", lambda a: status(a)),
]
AFFECTED = [
    Column("License", itemgetter(0)),
    Column("Owner", itemgetter(1)),
    Column("Animal", itemgetter(2)),
    Column("Issued", lambda r: date.fromisoformat(r[3])),
    Column("Law in force", lambda r: Decimal(r[4])),
    Column("As amended", lambda r: Decimal(r[5])),
    Column("Difference", lambda r: Decimal(r[6])),
    Column("Status now", itemgetter(7)),
    Column("Status as amended", itemgetter(8)),
]


def _money(text: str) -> Decimal | str:
    return Decimal(text) if text else "—"


AFFECTED_CITATIONS = [
    Column("Citation", lambda r: f"#{r[0]}"),
    Column("Person", itemgetter(1)),
    Column("Violation", itemgetter(2)),
    Column("Violated", lambda r: date.fromisoformat(r[3])),
    Column("Offense", itemgetter(4)),
    Column("Minimum in force", lambda r: _money(r[5])),
    Column("Maximum in force", lambda r: _money(r[6])),
    Column("Minimum as amended", lambda r: _money(r[7])),
    Column("Maximum as amended", lambda r: _money(r[8])),
    Column("Difference", lambda r: Decimal(r[9])),
]


def status(a: Amendment) -> str:
    if a.voided_at:
        return "Voided"
    if a.adopted_at:
        return f"Adopted (resolution {a.resolution})"
    return "Draft"


def amendment_list(request, slug) -> Report:
    m = municipality_for(request, slug, actions.AMENDERS)
    rows = table("Amendments", AMENDMENTS, Amendment.objects.filter(municipality=m), empty="No amendment drafted.")
    return Report("Amendments of the ordinance", str(m), [rows], municipality=m)


@login_required
@exports(amendment_list)
def amendments(request, slug, report):
    (shown,) = report.pages(request)
    return render(request, "reports/amendments.html", {"municipality": report.municipality, "amendments": shown})


@login_required
def amendment_new(request, slug):
    m = municipality_for(request, slug, actions.AMENDERS)
    form = DraftForm(posted(request))
    if request.method == "POST" and form.is_valid():
        drafted = run_action(form, actions.draft_amendment, m, acting_user=request.user, fields=form.action_fields())
        if drafted:
            return redirect("amendment", drafted.pk)
    return render(
        request, "registry/form.html", {"form": form, "title": f"Draft an amendment — {m}", "submit": "Draft"}
    )


def preview_report(a: Amendment, preview: AmendmentPreview | None) -> Report | None:
    """The preview's figures as a report: the page's tables, its CSV and its PDF."""
    if preview is None or preview.state != AmendmentPreview.State.DONE:
        return None
    p = preview.result
    if "citations" in p:
        return citations_report(a, p)
    revenue = Table(
        "Revenue by category",
        ["Category", "Law in force", "As amended", "Difference"],
        [[name, Decimal(now), Decimal(then), Decimal(diff)] for name, now, then, diff in p["revenue"]],
        totals=[
            "Total",
            Decimal(p["total"][0]),
            Decimal(p["total"][1]),
            Decimal(p["total"][1]) - Decimal(p["total"][0]),
        ],
    )
    county = Table(
        "The county's share",
        ["Share", "Law in force", "As amended", "Difference"],
        [
            [
                "Paid to the county",
                Decimal(p["county"][0]),
                Decimal(p["county"][1]),
                Decimal(p["county"][1]) - Decimal(p["county"][0]),
            ]
        ],
    )
    o = p["owners"]
    owners = Table(
        "Owners who would pay more or less",
        ["Change a year", "Owners"],
        [[label, n] for label, n in o["bins"]],
        totals=["Owners paying more or less", o["more"] + o["less"]],
    )
    k = p["kennels"]
    changes = Table(
        "Animals and premises whose status changes",
        ["Change", "Number"],
        [
            *[[f"Licenses: {change}", n] for change, n in p["status_changes"]],
            ["Premises that would newly need a kennel license", k["now_required"]],
            ["Premises that would no longer need a kennel license", k["no_longer_required"]],
        ],
    )
    affected = table("Affected licenses", AFFECTED, p["affected"], empty="No license would change.")
    notes = [
        f"{p['licenses']} licenses of {p['year']} decided under both laws on their day of issue "
        f"({p['decisions']} decisions), the amendment read as in force for the whole year.",
        f"{o['owners']} owners: {o['more']} would pay more (${o['more_total']} in all, at most "
        f"${o['largest_more']} each), {o['less']} less (${o['less_total']} in all, at most "
        f"${o['largest_less']} each), {o['same']} the same.",
    ]
    if any(p.get("tax_not_set", [0, 0])):
        notes.append(
            f"The fee schedule sets no tax for {p['tax_not_set'][0]} licenses under the law in force "
            f"and {p['tax_not_set'][1]} as amended: they count as $0.00."
        )
    title = f"{a.title}: preview for {p['year']}"
    return Report(
        title,
        str(a.municipality),
        [revenue, county, owners, changes, affected],
        notes=notes,
        municipality=a.municipality,
    )


def citations_report(a: Amendment, p: dict) -> Report:
    """A forfeiture schedule's preview (reports/forfeiture_preview.py): the affected citations last."""

    def row(name: str, figures: list) -> list:
        return [name, Decimal(figures[0]), Decimal(figures[1]), Decimal(figures[1]) - Decimal(figures[0])]

    by_violation = Table(
        "Forfeitures by violation, at the schedule's minimum",
        ["Violation", "Citations", "Law in force", "As amended", "Difference"],
        [[v, n, Decimal(now), Decimal(then), Decimal(diff)] for v, n, now, then, diff in p["by_violation"]],
        totals=["Total", p["citations"], *row("", p["minimum"])[1:]],
    )
    ranges = Table(
        "The year's citations in all",
        ["Forfeiture", "Law in force", "As amended", "Difference"],
        [row("Not less than", p["minimum"]), row("Not more than", p["maximum"])],
    )
    counts = Table(
        "Citations that would cost more or less",
        ["Change", "Citations"],
        [["More", p["more"]], ["Less", p["less"]], ["The same", p["same"]]],
    )
    affected = table("Affected citations", AFFECTED_CITATIONS, p["affected"], empty="No citation would change.")
    notes = [
        f"{p['citations']} citations of {p['year']} priced under both laws on the day of the violation "
        f"({p['decisions']} decisions), the amendment read as in force for the whole year."
    ]
    if any(p["not_priced"]):
        notes.append(
            f"{p['not_priced'][0]} citations have no forfeiture under the law in force and {p['not_priced'][1]} "
            "as amended (no schedule, no figure for the offense, or an amount not set): they count as $0.00."
        )
    return Report(
        f"{a.title}: preview for {p['year']}",
        str(a.municipality),
        [by_violation, ranges, counts, affected],
        notes=notes,
        municipality=a.municipality,
    )


def chart(preview: AmendmentPreview | None) -> dict | None:
    """The distribution as bars (an SVG drawn from these numbers, its table beside it)."""
    if preview is None or not preview.result or "owners" not in preview.result:
        return None
    bins = preview.result["owners"]["bins"]
    top = max((n for _, n in bins), default=0) or 1
    width = 300
    return {
        "bars": [
            {"label": label, "n": n, "width": round(width * n / top), "y": i * 28} for i, (label, n) in enumerate(bins)
        ],
        "height": len(bins) * 28,
    }


@login_required
def amendment(request, pk):
    a = get_for_user(request.user, Amendment.objects.select_related("municipality"), pk, actions.AMENDERS)
    preview = a.preview
    report = preview_report(a, preview)
    fmt = request.GET.get("format")
    name = f"amendment-{a.pk}-{a.municipality.slug}"
    if fmt == "csv" and report is not None:
        return csv_response(report, name)
    context = {
        "amendment": a,
        "municipality": a.municipality,
        "figures": figures_of(a.kind, a.provisions),
        "status": status(a),
        "report": report,
        "chart": chart(preview),
        "preview": preview,
        "printed": timezone.now(),
    }
    if fmt == "pdf" and report is not None:
        *summary, affected = report.tables
        rows = list(affected.rows)
        first = Table(affected.title, affected.columns, rows[:PDF_ROWS], empty=affected.empty)
        if len(rows) > PDF_ROWS:
            report.notes.append(
                f"The first {PDF_ROWS} of {len(rows)} affected licenses are listed; the CSV has every one."
            )
        report.tables = [*summary, first]
        return pdf_response("reports/amendment_pdf.html", context, f"{name}.pdf")
    context["screens"] = (
        [(t, t.page(request) if t.definition is not None else None) for t in report.tables] if report else []
    )
    context["preview_form"] = PreviewForm(initial={"year": preview.year if preview else a.effective_on.year})
    if a.kind == Amendment.Kind.FORFEITURE_SCHEDULE:  # the citations of a calendar year, by day of violation
        context["preview_form"].fields["year"].label = "Year of the violations"
    context["adopt_form"] = AdoptForm()
    return render(request, "reports/amendment.html", context)


@login_required
def amendment_preview(request, pk):
    a = get_for_user(request.user, Amendment.objects, pk, actions.AMENDERS)
    form = PreviewForm(posted(request))
    return action_page(
        request,
        form,
        actions.request_preview,
        a,
        title=f"Preview: {a}",
        submit="Preview",
        done=lambda r: reverse("amendment", args=[r.amendment_id]),
    )


@login_required
def amendment_adopt(request, pk):
    a = get_for_user(request.user, Amendment.objects, pk, actions.AMENDERS)
    form = AdoptForm(posted(request))
    return action_page(
        request,
        form,
        actions.adopt_amendment,
        a,
        title=f"Adopt: {a}",
        submit="Adopt",
        done=lambda r: reverse("amendment", args=[r.pk]),
    )


@login_required
def amendment_void(request, pk):
    a = get_for_user(request.user, Amendment.objects, pk, actions.AMENDERS)
    form = VoidForm(posted(request))
    return action_page(
        request,
        form,
        actions.void_amendment,
        a,
        title=f"Void: {a}",
        submit="Void",
        destructive=True,
        done=lambda r: reverse("amendment", args=[r.pk]),
    )
