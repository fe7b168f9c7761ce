"""The permits' lists as tables (hen permits of a municipality, the vicious-dog permits of a
declaration), every row in the CSV."""

from django.urls import reverse

from dogtag.accounts.scope import get_for_user
from dogtag.enforcement.models import Declaration
from dogtag.lib.tables import Column, Report, table
from dogtag.lib.web import municipality_for
from dogtag.permits.models import HenPermit

HEN_PERMITS = HenPermit.objects.select_related("applicant", "premises", "municipality")


def hen_permits_of(municipality, status=None):
    permits = HEN_PERMITS.filter(municipality=municipality).order_by("-applied_on", "-pk")
    return permits.filter(status=status) if status in HenPermit.Status.values else permits


def _fee(p):
    return f"{p.fee:.2f} ({p.fee_kind})" if p.fee is not None else ""


HENS = [
    Column(
        "Permit",
        lambda p: f"#{p.pk}" + (f" renews #{p.renewal_of_id}" if p.renewal_of_id else ""),
        link=lambda p: reverse("hen-permit", args=[p.pk]),
    ),
    Column("Applied", "applied_on"),
    Column("Applicant", lambda p: str(p.applicant)),
    Column("Parcel", lambda p: str(p.premises)),
    Column("Hens", "hens"),
    Column("Status", lambda p: p.get_status_display()),
    Column("Revoked on", "revoked_on"),
    Column("Fee", _fee),
    Column("Expires", "expires_on"),
]

VICIOUS = [
    Column("Permit", lambda p: f"#{p.pk}" + (f" renews #{p.renewal_of_id}" if p.renewal_of_id else "")),
    Column("Holder", lambda p: str(p.holder)),
    Column("Issued", "issued_on"),
    Column("Expires", "expires_on", cell="permits/cells/vicious_expires.html"),
    Column("Fee", "fee", cell="permits/cells/vicious_fee.html"),
    Column("Insurance or bond", "insurance"),
]


def hen_permits(request, slug) -> Report:
    m = municipality_for(request, slug)
    rows = table("Hen permits", HENS, hen_permits_of(m, request.GET.get("status")), empty="No hen permits.")
    return Report("Hen permits", str(m), [rows], municipality=m)


def vicious_dog_permits_of(declaration):
    permits = declaration.vicious_dog_permits.select_related("holder", "issued_by", "declaration").order_by("pk")
    return table("Vicious-dog permits", VICIOUS, permits, empty="No vicious-dog permit has been issued.")


def vicious_dog_permits(request, pk) -> Report:
    qs = Declaration.objects.select_related("case", "animal", "municipality")
    declaration = get_for_user(request.user, qs, pk)
    report = Report(
        "Vicious-dog permits",
        str(declaration.animal),
        [vicious_dog_permits_of(declaration)],
        municipality=declaration.municipality,
    )
    report.declaration = declaration
    return report
