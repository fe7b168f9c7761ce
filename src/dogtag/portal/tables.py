"""The clerk's review queue as tables: applications waiting and those decided, every row in the CSV."""

from django.urls import reverse

from dogtag.lib.tables import Column, Report, table
from dogtag.lib.web import municipality_for
from dogtag.portal.models import Application


def waiting(municipality):
    return Application.objects.filter(municipality=municipality, status=Application.Status.SUBMITTED).order_by(
        "submitted_at", "pk"
    )


def decided(municipality):
    return Application.objects.filter(
        municipality=municipality, status__in=[Application.Status.APPROVED, Application.Status.REJECTED]
    ).order_by("-decided_at", "-pk")


APPLICATIONS = [
    Column("Sent", "submitted_at"),
    Column("Dog", lambda a: a.data.get("animal_name", ""), link=lambda a: reverse("application-review", args=[a.pk])),
    Column("Owner", lambda a: a.data.get("name", "")),
    Column("Kind", lambda a: a.get_kind_display()),
    Column("Amount", "quoted_total"),
    Column("Payment", lambda a: a.get_payment_status_display()),
    Column("Status", lambda a: a.get_status_display()),
]


def queue(request, slug) -> Report:
    m = municipality_for(request, slug)
    return Report(
        "Applications",
        str(m),
        [
            table("Waiting for review", APPLICATIONS, waiting(m), empty="No applications are waiting."),
            table("Decided", APPLICATIONS, decided(m), empty="None decided yet."),
        ],
        municipality=m,
    )
