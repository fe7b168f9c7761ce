"""The reports. Each aggregates in the database (one query per table, never one per row) for one
municipality, and asks the rule engine for every legal figure (the remittance's split, the
household and kennel limits), once per distinct group of facts rather than once per license."""

from collections import defaultdict
from datetime import timedelta

from django.db.models import Count, Exists, F, OuterRef, Q, Sum
from django.db.models.functions import Coalesce, TruncDate
from django.urls import reverse

from dogtag.enforcement.models import (
    BiteReport,
    Case,
    Citation,
    Complaint,
    Deadline,
    Declaration,
    Impoundment,
    QuarantineOrder,
)
from dogtag.lib.tables import Column, Report, Table, table
from dogtag.licensing import law
from dogtag.licensing.models import License, Payment, Refund, Tag, TagLot
from dogtag.licensing.owed import limits_crossed
from dogtag.registry.models import Animal, RabiesVaccination
from dogtag.rules.decision import ZERO


def _period(p) -> str:
    return f"{p['start']:%B %-d, %Y} to {p['end']:%B %-d, %Y}"


def _label(choices, value) -> str:
    return dict(choices.choices).get(value, value or "—")


def licenses_issued(m, p) -> Report:
    """Licenses issued in the period by kind, with tax, late fees and exemptions (free licenses)."""
    issued = License.objects.filter(municipality=m, issued_on__range=(p["start"], p["end"]))
    rows = (
        issued.filter(voided_at=None)
        .values("kind", "species", "altered", "free_license")
        .annotate(
            n=Count("pk"),
            tax=Coalesce(Sum("tax"), ZERO),
            late=Coalesce(Sum("late_fee"), ZERO),
            late_n=Count("pk", filter=Q(late_fee__gt=0)),
        )
        .order_by("kind", "species", "-free_license", "altered")
    )
    table = Table("Licenses issued", ["Kind", "Species", "Class", "Licenses", "Tax", "Late fees charged", "Late fees"])
    totals = [0, ZERO, 0, ZERO]
    for r in rows:
        klass = "free (exempt from tax)" if r["free_license"] else ("spayed/neutered" if r["altered"] else "intact")
        table.rows.append(
            [_label(License.Kind, r["kind"]), r["species"] or "—", klass, r["n"], r["tax"], r["late_n"], r["late"]]
        )
        totals = [totals[0] + r["n"], totals[1] + r["tax"], totals[2] + r["late_n"], totals[3] + r["late"]]
    table.totals = ["Total", "", "", *totals]
    voided = issued.exclude(voided_at=None).aggregate(n=Count("pk"), tax=Coalesce(Sum("tax"), ZERO))
    notes = [f"{voided['n']} license(s) issued in the period were voided later (${voided['tax']} tax); not counted."]
    return Report("Licenses issued", _period(p), [table], notes)


def payments(m, p) -> Report:
    """Payments received in the period by method (the cash drawer's close when the period is one day)."""
    paid = Payment.objects.filter(municipality=m, voided_at=None).annotate(day=TruncDate("received_at"))
    paid = paid.filter(day__range=(p["start"], p["end"]))
    by_method = Table("By method", ["Method", "Payments", "Amount"])
    totals = [0, ZERO]
    for r in paid.values("method").annotate(n=Count("pk"), amount=Sum("amount")).order_by("method"):
        by_method.rows.append([_label(Payment.Method, r["method"]), r["n"], r["amount"]])
        totals = [totals[0] + r["n"], totals[1] + r["amount"]]
    by_method.totals = ["Total", *totals]
    tables = [by_method]
    if p["start"] == p["end"]:
        close = Table(
            "The day's close: each payment", ["Received", "Method", "Check or card", "Payer", "Amount", "Received by"]
        )
        for r in paid.order_by("received_at").values_list(
            "received_at", "method", "check_number", "card_reference", "payer__name", "amount", "received_by__username"
        ):
            close.rows.append([r[0], _label(Payment.Method, r[1]), r[2] or r[3], r[4] or "—", r[5], r[6]])
        close.totals = ["Total", "", "", "", totals[1], ""]
        tables.append(close)
    else:
        by_day = Table("By day", ["Day", "Cash", "Check", "Card", "Total"])
        days = defaultdict(lambda: defaultdict(lambda: ZERO))
        for r in paid.values("day", "method").annotate(amount=Sum("amount")).order_by("day"):
            days[r["day"]][r["method"]] = r["amount"]
        for day, methods in days.items():
            by_day.rows.append([day, methods["cash"], methods["check"], methods["card"], sum(methods.values(), ZERO)])
        tables.append(by_day)
    # The card convenience fee is the municipality's own charge: received, but kept out of the
    # license money above and out of the remittance (it is never license tax).
    fees = paid.filter(convenience_fee__gt=0).aggregate(n=Count("pk"), amount=Coalesce(Sum("convenience_fee"), ZERO))
    if fees["n"]:
        convenience = Table("Card convenience fees (the municipality's own charge; not license tax)",
                            ["Payments", "Amount"])  # fmt: skip
        convenience.rows.append([fees["n"], fees["amount"]])
        tables.append(convenience)
    refunded = Refund.objects.filter(municipality=m).annotate(day=TruncDate("refunded_at"))
    refunded = refunded.filter(day__range=(p["start"], p["end"]))
    refunds = Table("Refunds on voided licenses", ["Refunded", "Method", "Check", "Payee", "License", "Amount", "By"])
    for r in refunded.order_by("refunded_at").values_list(
        "day", "refunded_at", "method", "check_number", "payment__payer__name", "license__serial", "amount",
        "refunded_by__first_name", "refunded_by__last_name", "refunded_by__username",
    ):  # fmt: skip
        when = r[1] if p["start"] == p["end"] else r[0]  # a time is shown in the municipality's zone
        by = f"{r[7]} {r[8]}".strip() or r[9]
        refunds.rows.append([when, _label(Payment.Method, r[2]), r[3], r[4] or "—", r[5] or "—", r[6], by])
    refund_total = sum((r[5] for r in refunds.rows), ZERO)
    refunds.totals = ["Total", "", "", "", "", refund_total, ""]
    tables.append(refunds)
    notes = [f"Received ${totals[1]}, refunded ${refund_total}: net ${totals[1] - refund_total}."]
    if fees["n"]:
        notes.append(f"Card convenience fees received besides: ${fees['amount']:.2f}, not counted above.")
    title = "The day's close" if p["start"] == p["end"] else "Payments by method"
    return Report(title, _period(p), tables, notes)


def remittance(m, p) -> Report:
    """What the municipal treasurer pays the county treasurer, or the intergovernmental commission
    where the pack names it (s. 174.08(2)), for the licenses issued in
    the period: the state-minimum part of each tax, less what a part-time collecting official
    retains (s. 174.07(3)(c)); the additional local tax and the late fees stay local."""
    groups = (
        License.objects.filter(municipality=m, voided_at=None, issued_on__range=(p["start"], p["end"]))
        .values(
            "kind",
            "altered",
            "tax",
            "late_fee",
            "free_license",
            "license_year",
            "dogs_authorized",
            "animal__birth_date",
            "animal__species",
            "issued_on",
        )
        .annotate(n=Count("pk"))
    )
    facts_of = defaultdict(int)
    for g in groups:
        facts_of[
            (
                g["kind"],
                g["altered"],
                g["tax"],
                g["late_fee"],
                g["free_license"],
                g["license_year"],
                g["dogs_authorized"],
                g["animal__birth_date"],
                g["animal__species"] or "dog",  # a multiple-dog license has no one animal
                g["issued_on"],
            )
        ] += g["n"]
    parts = defaultdict(lambda: [0, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO])
    citations = {}
    # Whom the state part is paid (s. 174.08), with the law that names the payee.
    paid_to = law.ask(m, "license_remittance", {"tax": ZERO}, p["end"], {})
    payee = paid_to.value.payee
    citations.update({(c.jurisdiction, c.section, c.quote): c for c in paid_to.citations})
    for (kind, altered, tax, late, free, year, dogs, born, species, issued_on), n in facts_of.items():
        d = law.ask(
            m,
            "license_remittance",
            {
                "kind": kind,
                "species": species,
                "altered": altered,
                "tax": tax,
                "late_fee": late,
                "free_license": free,
                "born_on": born,
                "license_year": year,
                "dogs_authorized": dogs,
                "collector_full_time_salaried": not p.get("part_time_collector"),
            },
            issued_on,
            {},
        )
        v = d.value
        for c in d.citations:
            citations[(c.jurisdiction, c.section, c.quote)] = c
        klass = "free" if free else ("spayed/neutered" if altered else "intact")
        key = (kind, klass if species == "dog" else f"{klass} {species}", tax)
        row = parts[key]
        row[0] += n
        for i, name in enumerate(
            ("state_minimum", "local_additional", "late_fee_local", "collector_retained", "to_county"), start=1
        ):
            row[i] += getattr(v, name) * n
        row[6] += tax * n
    title = f"Remittance to {payee}"
    table = Table(
        title,
        [
            "Kind",
            "Class",
            "Tax each",
            "Licenses",
            "Tax collected",
            "State minimum part",
            "Additional local tax",
            "Late fees (local)",
            "Retained by the collecting official",
            f"To {payee}",
        ],
    )
    totals = [0, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO]
    for (kind, klass, tax), r in sorted(parts.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        n, state, local, late, retained, county, collected = r
        table.rows.append([_label(License.Kind, kind), klass, tax, n, collected, state, local, late, retained, county])
        totals = [a + b for a, b in zip(totals, [n, collected, state, local, late, retained, county], strict=True)]
    table.totals = ["Total", "", "", *totals]
    notes = [
        f"Pay {payee} ${totals[6]}; the municipality keeps ${totals[3] + totals[4]} "
        f"(additional local tax and late fees)" + (f" and the collecting official ${totals[5]}." if totals[5] else "."),
        "The collecting official is "
        + (
            "not a full-time salaried employee: the retained amount applies."
            if p.get("part_time_collector")
            else "a full-time salaried employee: nothing is retained (tick the box if not)."
        ),
    ]
    return Report(title, _period(p), [table], notes, list(citations.values()))


def county_clerk(m, p) -> Report:
    """The report of licenses issued, for the county clerk (s. 174.08)."""
    licenses = (
        License.objects.filter(municipality=m, issued_on__range=(p["start"], p["end"]))
        .order_by("license_year", "serial", "pk")
        .values_list(
            "license_year",
            "serial",
            "issued_on",
            "owner_name",
            "owner_address",
            "animal_name",
            "sex",
            "altered",
            "breed",
            "color",
            "tax",
            "voided_at",
        )
    )
    table = Table(
        "Licenses issued",
        [
            "Year",
            "Serial",
            "Issued",
            "Owner",
            "Address",
            "Dog",
            "Sex",
            "Spayed/neutered",
            "Breed",
            "Color",
            "Tax",
            "Voided",
        ],
    )
    for r in licenses:
        table.rows.append([*r[:11], "voided" if r[11] else ""])
    table.totals = [
        "Total",
        len(table.rows),
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        sum((r[10] for r in table.rows if not r[11]), ZERO),
        "",
    ]
    return Report("Report of licenses issued to the county clerk", f"{m.county} County — {_period(p)}", [table])


def tag_stock(m, p) -> Report:
    """Tags received, issued, voided, lost and unused for each license year."""
    received = dict(
        TagLot.objects.filter(municipality=m)
        .values("license_year")
        .annotate(n=Sum(F("last_serial") - F("first_serial") + 1))
        .values_list("license_year", "n")
    )
    counts = defaultdict(dict)
    for year, status, n in (
        Tag.objects.filter(municipality=m)
        .values("license_year", "status")
        .annotate(n=Count("pk"))
        .values_list("license_year", "status", "n")
    ):
        counts[year][status] = n
    table = Table(
        "Tag stock",
        [
            "License year",
            "Received",
            "Issued",
            "Voided",
            "Lost (replaced)",
            "Unused (in stock)",
            "To return by December 31",
        ],
    )
    links = []
    for year in sorted(set(received) | set(counts), reverse=True):
        c = counts[year]
        unused = c.get(Tag.Status.IN_STOCK, 0)
        back = unused + c.get(Tag.Status.VOIDED, 0) + c.get(Tag.Status.LOST, 0)
        table.rows.append(
            [
                year,
                received.get(year, 0),
                c.get(Tag.Status.ISSUED, 0),
                c.get(Tag.Status.VOIDED, 0),
                c.get(Tag.Status.LOST, 0),
                unused,
                back,
            ]
        )
        links.append(reverse("tag-return", args=[m.slug, year]))
    table.links = links
    return Report(
        "Tag stock",
        "every license year",
        [table],
        ["The first column links each year's return list for the county clerk (s. 174.07(3)(b))."],
    )


def unlicensed(m, p) -> Report:
    """Unlicensed and late animals (the licensing app's list, with its late fees)."""
    from dogtag.licensing.unlicensed import unlicensed_rows
    from dogtag.rules.licensing import license_year_of

    on = p["on"]
    year = p.get("year") or license_year_of(law.pack_of(m), on)

    def fee(r):
        late = r["late"]
        return None if late is None or late.not_set else late.value.amount

    columns = [
        Column("Animal", lambda r: r["animal"].name, link=lambda r: reverse("license-counter", args=[r["animal"].pk])),
        Column("Species", lambda r: r["animal"].species),
        Column("License due by", lambda r: r["due_by"] or r["note"]),
        Column("Late", lambda r: "late" if r["due_by"] is not None and r["due_by"] < on else ""),
        Column("Late fee now", fee),
    ]
    rows = table(f"Unlicensed for {year}", columns, unlicensed_rows(m, year, on), empty="Every animal is licensed.")
    return Report("Unlicensed and late animals", f"as of {on:%B %-d, %Y}", [rows])


def rabies_expiring(m, p) -> Report:
    """Active animals whose latest rabies certificate expires within the next `days` days."""
    on, days = p["on"], p["days"]
    later = RabiesVaccination.objects.filter(
        animal=OuterRef("animal"), voided_at=None, expires_on__gt=OuterRef("expires_on")
    )
    certs = (
        RabiesVaccination.objects.filter(
            municipality=m,
            voided_at=None,
            animal__status=Animal.Status.ACTIVE,
            expires_on__range=(on, on + timedelta(days=days)),
        )
        .exclude(Exists(later))
        .order_by("expires_on", "animal__name", "pk")
        .values(
            "animal_id",
            "animal__name",
            "owner_name",
            "owner_address",
            "certificate_serial",
            "expires_on",
            "veterinarian_name",
        )
    )
    columns = [
        Column("Animal", lambda c: c["animal__name"], link=lambda c: reverse("animal", args=[c["animal_id"]])),
        Column("Owner", lambda c: c["owner_name"]),
        Column("Owner's address", lambda c: c["owner_address"]),
        Column("Certificate", lambda c: c["certificate_serial"]),
        Column("Expires", lambda c: c["expires_on"]),
        Column("Days left", lambda c: (c["expires_on"] - on).days),
        Column("Veterinarian", lambda c: c["veterinarian_name"]),
    ]
    rows = table(f"Expiring in the next {days} days", columns, certs, empty="None expiring.")
    return Report("Rabies certificates expiring", f"{on:%B %-d, %Y} to {on + timedelta(days=days):%B %-d, %Y}", [rows])


def over_limit(m, p) -> Report:
    """Premises keeping more animals than the household limit allows, or enough dogs to need a
    kennel license (the engine's household_limit and kennel_license questions)."""
    pack = law.pack_of(m, p["on"])
    kept = defaultdict(list)
    for premises_id, street, species, born, acquired in Animal.objects.filter(
        municipality=m, status=Animal.Status.ACTIVE, premises__isnull=False
    ).values_list("premises_id", "premises__street", "species", "birth_date", "acquired_on"):
        kept[(premises_id, street)].append((species, born, acquired))
    table = Table("Over a limit", ["Premises", "Dogs", "Cats", "Finding"])
    links, citations = [], {}
    for (premises_id, street), animals in sorted(kept.items(), key=lambda kv: kv[0][1]):
        findings = [
            (warning, cites)
            for question, warning, cites in limits_crossed(pack, animals, p["on"])
            if question != "multiple_dog_license"
        ]
        citations.update({c.section: c for _, cites in findings for c in cites})
        if findings:
            dogs_n = sum(1 for s, _, _ in animals if s == "dog")
            cats_n = sum(1 for s, _, _ in animals if s == "cat")
            table.rows.append([street, dogs_n, cats_n, " ".join(warning for warning, _ in findings)])
            links.append(reverse("premises", args=[premises_id]))
    table.links = links
    notes = (
        []
        if (pack.household and pack.household.limit) or (pack.kennel and pack.kennel.required)
        else [f"{m}'s ordinance sets no household or kennel limit."]
    )
    return Report(
        "Animals over a household or kennel limit",
        f"as of {p['on']:%B %-d, %Y}",
        [table],
        notes,
        list(citations.values()),
    )


def animal_control(m, p) -> Report:
    """Complaints, impoundments and outcomes, bites and quarantines, declarations and their
    status, citations issued and paid, over the period."""
    start, end = p["start"], p["end"]

    def counted(title, columns, qs, field, choices):
        table = Table(title, columns)
        rows = qs.values(field).annotate(n=Count("pk")).order_by(field)
        for r in rows:
            table.rows.append([_label(choices, r[field]), r["n"]])
        table.totals = ["Total", sum(r[1] for r in table.rows)]
        return table

    complaints = counted(
        "Complaints by kind",
        ["Kind", "Complaints"],
        Complaint.objects.filter(municipality=m, filed_on__range=(start, end)),
        "kind",
        Complaint.Kind,
    )
    impounded = Impoundment.objects.filter(municipality=m, impounded_on__range=(start, end))
    impoundments = counted(
        "Impoundments by reason", ["Reason", "Impoundments"], impounded, "reason", Impoundment.Reason
    )
    outcomes = Table("Impoundment outcomes", ["Outcome", "Animals"])
    for r in impounded.values("disposition").annotate(n=Count("pk")).order_by("disposition"):
        outcomes.rows.append(
            [_label(Impoundment.Disposition, r["disposition"]) if r["disposition"] else "Still held", r["n"]]
        )
    bites = BiteReport.objects.filter(municipality=m, bitten_on__range=(start, end)).count()
    q = QuarantineOrder.objects.filter(municipality=m, ordered_at__date__range=(start, end)).aggregate(
        bite=Count("pk", filter=Q(kind=QuarantineOrder.Kind.BITE)),
        exposure=Count("pk", filter=Q(kind=QuarantineOrder.Kind.EXPOSURE)),
        released=Count("pk", filter=Q(released_on__isnull=False)),
        euthanized=Count("pk", filter=Q(euthanized_on__isnull=False)),
        positive=Count("pk", filter=Q(lab_result=QuarantineOrder.LabResult.POSITIVE)),
        negative=Count("pk", filter=Q(lab_result=QuarantineOrder.LabResult.NEGATIVE)),
    )
    quarantine = Table(
        "Bites and quarantines",
        ["", "Number"],
        [
            ["Bites reported", bites],
            ["Quarantines after a bite", q["bite"]],
            ["Quarantines after exposure", q["exposure"]],
            ["Released", q["released"]],
            ["Euthanized", q["euthanized"]],
            ["Laboratory: positive for rabies", q["positive"]],
            ["Laboratory: negative", q["negative"]],
        ],
    )
    declared = Table("Declarations", ["Classification", "Status", "Declarations"])
    for r in (
        Declaration.objects.filter(municipality=m, determined_on__range=(start, end))
        .values("classification", "status")
        .annotate(n=Count("pk"))
        .order_by("classification", "status")
    ):
        declared.rows.append(
            [_label(Declaration.Classification, r["classification"]), _label(Declaration.Status, r["status"]), r["n"]]
        )
    c = Citation.objects.filter(municipality=m, issued_on__range=(start, end)).aggregate(
        issued=Count("pk", filter=Q(voided_at=None)),
        forfeitures=Coalesce(Sum("forfeiture", filter=Q(voided_at=None)), ZERO),
        paid=Count("pk", filter=Q(voided_at=None, paid_on__isnull=False)),
        paid_amount=Coalesce(Sum("forfeiture", filter=Q(voided_at=None, paid_on__isnull=False)), ZERO),
        voided=Count("pk", filter=~Q(voided_at=None)),
    )
    citations = Table(
        "Citations",
        ["", "Citations", "Forfeitures"],
        [
            ["Issued", c["issued"], c["forfeitures"]],
            ["Paid", c["paid"], c["paid_amount"]],
            ["Unpaid", c["issued"] - c["paid"], c["forfeitures"] - c["paid_amount"]],
            ["Voided", c["voided"], None],
        ],
    )
    return Report("Animal control", _period(p), [complaints, impoundments, outcomes, quarantine, declared, citations])


def open_cases(municipality_ids, on):
    """Open cases by kind and overdue deadlines, for the dashboard."""
    cases = dict(
        Case.objects.filter(municipality_id__in=municipality_ids, closed_on=None)
        .values("kind")
        .annotate(n=Count("pk"))
        .values_list("kind", "n")
    )
    overdue = dict(
        Deadline.objects.open()
        .filter(municipality_id__in=municipality_ids, due_on__lt=on)
        .values("case__kind")
        .annotate(n=Count("pk"))
        .values_list("case__kind", "n")
    )
    return [[label, cases.get(kind, 0), overdue.get(kind, 0)] for kind, label in Case.Kind.choices]
