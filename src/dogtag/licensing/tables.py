"""The clerk's lists as tables, each over every row (the CSV and PDF of a list are complete; the
page shows its first rows)."""

from django.db.models import Count

from dogtag.lib.tables import Column, Report, Table, table
from dogtag.lib.web import municipality_for
from dogtag.licensing import law
from dogtag.licensing.models import FeeScheduleEntry, KennelLicense, License, RenewalRun, Tag, TagLot
from dogtag.licensing.owed import fee_label
from dogtag.licensing.unlicensed import unlicensed_rows
from dogtag.outbox.models import Message
from dogtag.registry.models import today
from dogtag.rules.licensing import license_year_of

# --- queries the pages share with their tables -----------------------------------------------------


def kennel_licenses(municipality):
    return (
        KennelLicense.objects.filter(municipality=municipality)
        .select_related("owner", "premises")
        .order_by("-license_year", "premises__street", "pk")
    )


def multiple_dog_licenses(municipality):
    return (
        License.objects.filter(municipality=municipality, kind=License.Kind.MULTIPLE_DOG)
        .select_related("holder")
        .order_by("-license_year", "serial")
    )


def tags_to_return(municipality, year: int):
    """Unused and voided tags to return to the county clerk by December 31 (s. 174.07(3)(b))."""
    return (
        Tag.objects.filter(municipality=municipality, license_year=year)
        .exclude(status=Tag.Status.ISSUED)
        .order_by("status", "serial")
    )


def tag_counts(municipality) -> dict[int, dict[str, int]]:
    counts = (
        Tag.objects.filter(municipality=municipality)
        .values("license_year", "status")
        .annotate(n=Count("pk"))
        .order_by("-license_year")
    )
    years: dict[int, dict[str, int]] = {}
    for row in counts:
        years.setdefault(row["license_year"], {})[row["status"].replace("-", "_")] = row["n"]
    return years


def outbox_messages(municipality):
    return Message.objects.filter(municipality=municipality).defer("attachment", "html").order_by("-created_at", "-pk")


def renewal_runs(municipality):
    return RenewalRun.objects.filter(municipality=municipality).select_related("started_by").order_by("-started_at")


# --- tables ---------------------------------------------------------------------------------------


def _kennel_status(k):
    status = "void" if k.voided_at else k.get_status_display()
    return f"{status} (renewal)" if k.renewal else status


KENNELS = [
    Column("Year", "license_year"),
    Column("Kennel", lambda k: str(k.premises)),
    Column("Owner", "owner.name"),
    Column("Status", _kennel_status),
    Column("Fee", "fee"),
    Column("Expires", "expires_on"),
]

MULTIPLE_DOG = [
    Column("Year", "license_year"),
    Column("License", "serial"),
    Column("Keeper", "holder.name"),
    Column("Dogs", "dogs_authorized"),
    Column("Status", lambda x: ("revoked" if x.revocation else "void") if x.voided_at else "in force"),
]


def _message_status(m):
    if m.sent_at:
        return f"sent {m.sent_at.isoformat(timespec='minutes')}"
    if getattr(m, "dead_at", None):
        return f"undeliverable after {m.attempts} attempts: {m.last_error}"
    return f"queued, {m.attempts} attempts failed: {m.last_error}" if m.attempts else "queued"


OUTBOX = [
    Column("Queued", lambda m: m.created_at.isoformat(timespec="minutes")),
    Column("To", "to"),
    Column("Subject", "subject"),
    Column("Status", _message_status),
]

RENEWALS = [
    Column("Year", "license_year"),
    Column("Run", lambda r: r.started_at.isoformat(timespec="minutes")),
    Column("Notices", "notices_created"),
    Column("Emailed", "emails_queued"),
    Column("By", lambda r: str(r.started_by) if r.started_by_id else "dogtag renewals"),
]

TAGS_TO_RETURN = [Column("Serial", "serial"), Column("Status", lambda t: t.get_status_display())]


def kennels(request, slug) -> Report:
    m = municipality_for(request, slug)
    return Report("Kennel licenses", str(m), [table("Kennel licenses", KENNELS, kennel_licenses(m))])


def multiple_dogs(request, slug) -> Report:
    m = municipality_for(request, slug)
    rows = table("Multiple-dog licenses", MULTIPLE_DOG, multiple_dog_licenses(m))
    return Report("Multiple-dog licenses", str(m), [rows])


def outbox(request, slug) -> Report:
    m = municipality_for(request, slug)
    return Report("Outbox", str(m), [table("Messages", OUTBOX, outbox_messages(m))])


def renewals(request, slug) -> Report:
    m = municipality_for(request, slug)
    return Report("Renewal runs", str(m), [table("Renewal runs", RENEWALS, renewal_runs(m))])


def tag_return(request, slug, year) -> Report:
    m = municipality_for(request, slug)
    rows = table(f"Tags to return for {year}", TAGS_TO_RETURN, tags_to_return(m, year))
    return Report(f"Tags to return, {year}", str(m), [rows])


def tags(request, slug) -> Report:
    m = municipality_for(request, slug)
    counts = Table("Tags by license year", ["License year", "In stock", "Issued", "Voided", "Lost"])
    counts.rows = [
        [year, c.get("in_stock", 0), c.get("issued", 0), c.get("voided", 0), c.get("lost", 0)]
        for year, c in tag_counts(m).items()
    ]
    lots = table(
        "Lots received from the county clerk",
        [
            Column("Lot", str),
            Column("Received", "received_on"),
            Column("By", lambda lot: str(lot.received_by)),
        ],
        TagLot.objects.filter(municipality=m).select_related("received_by").order_by("-received_on", "-pk"),
    )
    return Report("Tags", str(m), [counts, lots])


def fees(request, slug) -> Report:
    m = municipality_for(request, slug)
    entries = FeeScheduleEntry.objects.filter(municipality=m).select_related("created_by")
    entries = entries.order_by("key", "effective_on")
    rows = table(
        "Local fee schedule",
        [
            Column("Amount", lambda e: fee_label(e.key)),
            Column("From", "effective_on"),
            Column("Amount set", "amount"),
            Column("Set by", "authority"),
            Column("Entered", lambda e: f"{e.created_by}, {e.created_at.date().isoformat()}"),
            Column("Void", lambda e: e.void_reason if e.voided_at else ""),
        ],
        entries,
    )
    return Report("Fee schedule", str(m), [rows])


def unlicensed(request, slug) -> Report:
    m = municipality_for(request, slug)
    on = today()
    year = int(request.GET.get("year") or license_year_of(law.pack_of(m), on))

    def late_fee(row):
        late = row["late"]
        return None if late is None else ("not set" if late.not_set else late.value["amount"])

    rows = table(
        f"Unlicensed for {year}",
        [
            Column("Animal", lambda r: r["animal"].name),
            Column("Species", lambda r: r["animal"].get_species_display()),
            Column("License due by", lambda r: r["due_by"] or r["note"]),
            Column("Late fee now", late_fee),
        ],
        unlicensed_rows(m, year, on),
    )
    return Report("Unlicensed", f"{m}, as of {on.isoformat()}", [rows])
