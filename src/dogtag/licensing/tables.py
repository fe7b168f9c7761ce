"""The clerk's lists as tables, each over every row: the page shows them a page at a time, the
CSV and the PDF have all of them, under the same columns."""

from django.db.models import Count, Prefetch, Q
from django.http import Http404
from django.urls import reverse

from dogtag.lib import dates
from dogtag.lib.tables import Column, Report, table
from dogtag.lib.web import municipality_for, to
from dogtag.licensing import law
from dogtag.licensing.actions.tag_returns import tags_to_return
from dogtag.licensing.charges import CHARGES
from dogtag.licensing.kennels import rules as kennel_law
from dogtag.licensing.models import FeeScheduleEntry, KennelLicense, License, RenewalChunk, RenewalRun, Tag, TagLot
from dogtag.licensing.multiple_dogs import rules as multiple_dogs
from dogtag.licensing.owed import fee_label
from dogtag.licensing.unlicensed import unlicensed_rows
from dogtag.outbox.models import Message
from dogtag.registry.models import today
from dogtag.rules.delegations import delegated_amounts
from dogtag.rules.licensing import license_year_of


def _void(obj):
    return "void" if obj.voided_at else ""


def _kennel_status(k):
    status = "void" if k.voided_at else k.get_status_display()
    return f"{status} (renewal)" if k.renewal else status


KENNELS = [
    Column("Year", "license_year"),
    Column("Kennel", lambda k: str(k.premises), link=to("kennel")),
    Column("Owner", "owner.name"),
    Column("Status", _kennel_status),
    Column("Fee", "fee"),
    Column("Expires", "expires_on"),
]

MULTIPLE_DOG = [
    Column("Year", "license_year"),
    Column("License", "serial", link=to("multiple-dog-license")),
    Column("Keeper", "holder.name"),
    Column("Dogs", "dogs_authorized"),
    Column("Status", lambda x: ("revoked" if x.revocation else "void") if x.voided_at else "in force"),
]


def _message_status(m):
    if m.sent_at:
        return f"sent {dates.shown(m.sent_at)}"
    if m.dead_at:
        return f"undeliverable after {m.attempts} attempts: {m.last_error}"
    return f"queued, {m.attempts} attempts failed: {m.last_error}" if m.attempts else "queued"


OUTBOX = [
    Column("Queued", "created_at"),
    Column("To", "to"),
    Column("Subject", "subject"),
    Column("Status", _message_status, cell="licensing/cells/message_status.html"),
]

RENEWALS = [
    Column("Year", "license_year"),
    Column("Run", "started_at"),
    Column("Notices", "notices_created"),
    Column("Emailed", "emails_queued"),
    Column("By", lambda r: str(r.started_by) if r.started_by_id else "dogtag renewals"),
    Column(
        "Printed",
        lambda r: f"{r.chunks_done} of {r.chunks_total}" if r.chunks_total else "nothing to print",
        cell="licensing/cells/renewal_printed.html",
    ),
    Column("PDF", lambda r: bool(r.pdf), cell="licensing/cells/renewal_pdf.html"),
]

TAGS_TO_RETURN = [Column("Serial", "serial"), Column("Status", lambda t: t.get_status_display())]


def kennels(request, slug) -> Report:
    m = municipality_for(request, slug)
    if kennel_law.provision(m) is None:
        raise Http404("This municipality's law requires no kennel license.")
    licenses = KennelLicense.objects.filter(municipality=m).select_related("owner", "premises")
    licenses = licenses.order_by("-license_year", "premises__street", "pk")
    rows = table("Kennel licenses", KENNELS, licenses, row_class=_void)
    return Report("Kennel licenses", str(m), [rows], municipality=m)


def multiple_dogs_of(request, slug) -> Report:
    m = municipality_for(request, slug)
    if multiple_dogs.provision(m) is None:
        raise Http404("This municipality's law has no multiple-dog license.")
    licenses = License.objects.filter(municipality=m, kind=License.Kind.MULTIPLE_DOG).select_related("holder")
    rows = table("Issued", MULTIPLE_DOG, licenses.order_by("-license_year", "serial"), row_class=_void)
    return Report("Multiple-dog licenses", str(m), [rows], municipality=m)


def outbox(request, slug) -> Report:
    m = municipality_for(request, slug)
    messages = Message.objects.filter(municipality=m).defer("attachment", "html").order_by("-created_at", "-pk")
    rows = table("Messages", OUTBOX, messages, empty="Nothing sent yet.")
    return Report("Outbox", str(m), [rows], municipality=m)


def renewals(request, slug) -> Report:
    m = municipality_for(request, slug)
    chunks = Prefetch("chunks", RenewalChunk.objects.only("pk", "run_id", "number", "done_at", "pdf"))
    runs = RenewalRun.objects.filter(municipality=m).select_related("started_by").prefetch_related(chunks)
    runs = runs.order_by("-started_at")
    rows = table("Renewal runs", RENEWALS, runs, empty="No renewal run yet.")
    return Report("Renewal runs", str(m), [rows], municipality=m)


def tag_return(request, slug, year) -> Report:
    m = municipality_for(request, slug)
    rows = table(f"Tags to return for {year}", TAGS_TO_RETURN, tags_to_return(m, year), empty="Nothing to return.")
    return Report(f"Tags to return, {year}", str(m), [rows], municipality=m)


def tags(request, slug) -> Report:
    m = municipality_for(request, slug)
    by_status = {s.name.lower(): Count("pk", filter=Q(status=s)) for s in Tag.Status}
    years = Tag.objects.filter(municipality=m).values("license_year").annotate(**by_status).order_by("-license_year")
    counts = table(
        "Tags by license year",
        [
            Column(
                "License year", "license_year", link=lambda r: reverse("tag-return", args=[m.slug, r["license_year"]])
            ),
            Column("In stock", "in_stock"),
            Column("Issued", "issued"),
            Column("Voided", "voided"),
            Column("Lost", "lost"),
            Column(
                "Tag roll",
                lambda r: f"tag-roll-{m.slug}-{r['license_year']}.pdf",
                link=lambda r: reverse("tag-roll", args=[m.slug, r["license_year"]]),
            ),
        ],
        years,
        empty="No tags received yet.",
    )
    lots = table(
        "Lots received from the county clerk",
        [
            Column("Lot", str),
            Column("Received", "received_on"),
            Column("By", lambda lot: str(lot.received_by)),
        ],
        TagLot.objects.filter(municipality=m).select_related("received_by").order_by("-received_on", "-pk"),
    )
    return Report("Tags", str(m), [counts, lots], municipality=m)


FEES = [
    Column("From", "effective_on"),
    Column("Amount", "amount"),
    Column("Set by", "authority"),
    Column("Entered by", lambda e: str(e.created_by)),
    Column("Entered on", lambda e: e.created_at.date()),
    Column("Void", lambda e: e.void_reason if e.voided_at else "", cell="licensing/cells/fee_void.html"),
]


def fees(request, slug) -> Report:
    """The local fee schedule, one table per amount the ordinance leaves to the municipality."""
    m = municipality_for(request, slug)
    entries = FeeScheduleEntry.objects.filter(municipality=m).select_related("created_by")
    entries = entries.order_by("effective_on", "pk")
    amounts = delegated_amounts(law.pack_of(m))
    schedule = [(key, fee_label(key), "Not set: nothing that needs it can be issued.") for key in amounts]
    # Charges are set by resolution, not by the ordinance (licensing/charges.py).
    schedule += [(key, label.capitalize(), "Not set: no charge.") for key, label in CHARGES.items()]
    schedule = [
        table(title, FEES, entries.filter(key=key), empty=empty, row_class=_void, key=f"{key}-")
        for key, title, empty in schedule
    ]
    return Report("Fee schedule", str(m), schedule, municipality=m)


def _late_fee(row):
    late = row["late"]
    return None if late is None else ("not set" if late.not_set else late.value.amount)


UNLICENSED = [
    Column("Animal", lambda r: r["animal"].name, link=lambda r: reverse("license-counter", args=[r["animal"].pk])),
    Column("Species", lambda r: r["animal"].get_species_display()),
    Column("License due by", lambda r: r["due_by"] or r["note"]),
    Column("Late fee now", _late_fee, cell="licensing/cells/late_fee.html"),
]


def unlicensed(request, slug) -> Report:
    m = municipality_for(request, slug)
    on = today()
    year = int(request.GET.get("year") or license_year_of(law.pack_of(m), on))
    rows = table(
        f"Unlicensed for {year}", UNLICENSED, unlicensed_rows(m, year, on), empty="Every licensable animal is licensed."
    )
    report = Report("Unlicensed", f"{m}, as of {dates.shown(on)}", [rows], municipality=m)
    report.year, report.on = year, on
    return report
