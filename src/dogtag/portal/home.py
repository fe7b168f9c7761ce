"""A municipality's home: what its clerk and its officers reach for first (the waiting
applications, the tags left, the day's deposit; overdue deadlines, today's examinations, this
week's hearings) and, for a new municipality, the setup steps still missing, each with its link.

It lives with the portal, above licensing and enforcement, because it reads them and the
portal's own records (the applications waiting, the office's contact)."""

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.db.models import Sum
from django.db.models.functions import TruncDate
from django.shortcuts import render
from django.urls import reverse

from dogtag.accounts.models import Membership, Role
from dogtag.accounts.scope import has_role, municipality_for
from dogtag.audit.models import AuditEvent
from dogtag.enforcement.models import Deadline, Hearing
from dogtag.lib.dates import today
from dogtag.licensing import law
from dogtag.licensing.models import FeeScheduleEntry, License, Payment, Refund, Tag
from dogtag.licensing.owed import fee_label
from dogtag.portal.models import Application, MunicipalityContact
from dogtag.registry.models import Animal, Person, RabiesVaccination
from dogtag.rules.decision import ZERO
from dogtag.rules.delegations import delegated_amounts
from dogtag.rules.licensing import license_year_of

CLERKS = (Role.CLERK, Role.ADMINISTRATOR)
OFFICERS = (Role.OFFICER, Role.ADMINISTRATOR)


@dataclass
class Step:
    label: str
    done: bool
    detail: str
    url: str
    link: str


def setup_steps(municipality, on) -> list[Step]:
    """What a new municipality needs before its counter can issue a license and its portal and
    found-dog page can say whom to call."""
    pack = law.pack_of(municipality)
    year = license_year_of(pack, on)
    keys = set(delegated_amounts(pack))
    set_keys = set(
        FeeScheduleEntry.objects.filter(municipality=municipality, voided_at=None, key__in=keys).values_list(
            "key", flat=True
        )
    )
    missing = sorted(keys - set_keys)
    contact = MunicipalityContact.objects.filter(municipality=municipality).first()
    roles = set(Membership.objects.filter(municipality=municipality).values_list("role", flat=True))
    staff_missing = [
        label for role, label in ((Role.CLERK, "a clerk"), (Role.OFFICER, "an officer")) if role not in roles
    ]
    slug = municipality.slug
    return [
        Step(
            "Fee schedule",
            not missing,
            "Every amount the ordinance leaves to the municipality is set."
            if not missing
            else "Not set yet: " + ", ".join(fee_label(k) for k in missing) + ".",
            reverse("fees", args=[slug]),
            "Set the fee schedule",
        ),
        Step(
            "License tags",
            Tag.objects.filter(municipality=municipality, license_year=year).exists(),
            f"The {year} tags from the county clerk are recorded.",
            reverse("tags", args=[slug]),
            f"Record the {year} tag lot",
        ),
        Step(
            "Office hours and contact",
            bool(contact and contact.clerk_phone and contact.clerk_hours and contact.office_address),
            "The portal and the found-dog page show the clerk's address, hours and phone.",
            reverse("municipality-contact", args=[slug]),
            "Enter the office's address, hours and phone",
        ),
        Step(
            "Officers and clerks",
            not staff_missing,
            "The municipality has a clerk and an officer."
            if not staff_missing
            else f"No one serves as {' or '.join(staff_missing)} yet: the administrator adds them.",
            reverse("admin:accounts_membership_changelist"),
            "Add people (administrator)",
        ),
    ]


def clerk_today(municipality, on) -> dict:
    pack = law.pack_of(municipality, on)
    year = license_year_of(pack, on)
    in_stock = Tag.objects.filter(municipality=municipality, status=Tag.Status.IN_STOCK)
    licensed_now = License.objects.filter(municipality=municipality, license_year=year + 1, voided_at=None)
    received = (
        Payment.objects.filter(municipality=municipality, voided_at=None)
        .annotate(day=TruncDate("received_at"))
        .filter(day=on)
        .aggregate(s=Sum("amount"))["s"]
        or ZERO
    )
    refunded = (
        Refund.objects.filter(municipality=municipality)
        .annotate(day=TruncDate("refunded_at"))
        .filter(day=on)
        .aggregate(s=Sum("amount"))["s"]
        or ZERO
    )
    return {
        "waiting": Application.objects.filter(municipality=municipality, status=Application.Status.SUBMITTED).count(),
        "renewals_due": License.objects.filter(municipality=municipality, license_year=year, voided_at=None)
        .exclude(animal__in=licensed_now.values("animal"))
        .count(),
        "year": year,
        "tags_left": in_stock.filter(license_year=year).count(),
        "next_tags_left": in_stock.filter(license_year=year + 1).count(),
        "deposit": received - refunded,
    }


# The officer's "this week" on the home page: today and the six days after (a screen's span, not the law's).
THIS_WEEK = timedelta(days=6)


def officer_today(municipality, on) -> dict:
    open_deadlines = Deadline.objects.open().filter(case__municipality=municipality)
    return {
        "overdue": open_deadlines.filter(due_on__lt=on).count(),
        "examinations": open_deadlines.filter(key__startswith="examination", due_on=on).select_related("case"),
        "hearings": Hearing.objects.filter(
            municipality=municipality, held_on=None, scheduled_on__range=(on, on + THIS_WEEK)
        ).select_related("declaration__case"),
    }


@login_required
def municipality(request, slug):
    municipality = municipality_for(request.user, slug)
    on = today()
    is_clerk = has_role(request.user, municipality.pk, CLERKS)
    is_officer = has_role(request.user, municipality.pk, OFFICERS)
    steps = setup_steps(municipality, on) if is_clerk else []
    context = {
        "municipality": municipality,
        "on": on,
        "counts": {
            "people": Person.objects.filter(municipality=municipality).count(),
            "animals": Animal.objects.filter(municipality=municipality, status=Animal.Status.ACTIVE).count(),
            "certificates": RabiesVaccination.objects.filter(municipality=municipality, voided_at=None).count(),
        },
        "steps": steps,
        "is_administrator": has_role(request.user, municipality.pk, (Role.ADMINISTRATOR,)),
        "setup_done": all(s.done for s in steps),
        "clerk": clerk_today(municipality, on) if is_clerk else None,
        "officer": officer_today(municipality, on) if is_officer else None,
        "recent": AuditEvent.objects.filter(municipality=municipality).select_related("actor")[:15],
    }
    return render(request, "portal/municipality.html", context)
