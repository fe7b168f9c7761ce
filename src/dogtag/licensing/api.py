from datetime import date, datetime
from decimal import Decimal

from django.http import Http404, HttpResponse
from ninja import Router, Schema

from dogtag.accounts.scope import get_for_user, municipality_ids, scoped, served
from dogtag.lib.api_pages import paged
from dogtag.lib.api_types import PaymentIn
from dogtag.licensing import actions
from dogtag.licensing.facts import animal_to_license, read_facts
from dogtag.licensing.models import License, RenewalRun, Tag
from dogtag.licensing.owed import what_is_owed
from dogtag.licensing.tag_lookup import CONTENT_TYPE, LICENSE_FIELDS, answer, license_json
from dogtag.registry.models import Animal, today

router = Router(tags=["licensing"])


class RuleCitationOut(Schema):
    """A rule pack's citation (not a citation an officer writes: enforcement's CitationOut)."""

    jurisdiction: str
    section: str
    quote: str


class LineOut(Schema):
    label: str
    amount: Decimal
    citations: list[RuleCitationOut]


class RefusalOut(Schema):
    field: str
    message: str


class FeePreviewOut(Schema):
    license_year: int
    lines: list[LineOut]
    total: Decimal
    late_fee_trigger: str
    free_license: bool
    expires_on: date | None
    can_issue: bool
    refusals: list[RefusalOut]


class TagOut(Schema):
    serial: int
    license_year: int
    status: str


class LicenseOut(Schema):
    id: int
    municipality: str
    license_year: int
    serial: int
    animal_id: int | None
    animal_name: str
    owner_name: str
    owner_address: str
    issued_on: date
    expires_on: date
    tax: Decimal
    late_fee: Decimal
    late_fee_trigger: str
    free_license: bool
    county: str
    voided_at: datetime | None
    void_reason: str
    tags: list[TagOut]
    citations: list[RuleCitationOut]

    @staticmethod
    def resolve_municipality(obj):
        return obj.municipality.slug


class IssueIn(Schema):
    payment: PaymentIn | None = None
    tag_serial: int | None = None


class ReasonIn(Schema):
    reason: str


class RefundIn(Schema):
    method: str
    amount: Decimal
    check_number: str = ""


class VoidIn(ReasonIn):
    refund: RefundIn | None = None


class ReplaceTagIn(Schema):
    tag_serial: int | None = None
    payment: PaymentIn | None = None  # when the fee schedule sets a replacement-tag charge


class RenewalRunOut(Schema):
    id: int
    license_year: int
    started_at: datetime
    finished_at: datetime | None
    notices_created: int
    emails_queued: int
    chunks_total: int


@router.get("/animals/{pk}/fee-preview", response=FeePreviewOut)
def fee_preview(request, pk: int, on: date | None = None):
    """What the animal owes for its license on a day (today by default), each line with its citations."""
    owed = what_is_owed(read_facts(get_for_user(request.auth, Animal.objects, pk), on or today()))
    return {**owed.__dict__, "total": owed.total, "can_issue": owed.can_issue}


@router.post("/animals/{pk}/licenses", response={201: LicenseOut})
def issue_license(request, pk: int, payload: IssueIn):
    animal = served(request.auth, animal_to_license(pk), actions.CLERKS)
    license = actions.issue_license(animal, acting_user=request.auth, **payload.dict())
    # A license just issued has one tag, the one it took: its serial, year and status are the license's.
    tags = [{"serial": license.serial, "license_year": license.license_year, "status": Tag.Status.ISSUED}]
    values = {name: getattr(license, name) for name in LICENSE_FIELDS}
    body = answer({"id": license.pk, "municipality": license.municipality.slug, **values}, tags)
    return HttpResponse(body, CONTENT_TYPE, status=201)


@router.get("/licenses/{pk}", response=LicenseOut)
def get_license(request, pk: int):
    return get_for_user(request.auth, License.objects.select_related("municipality"), pk)


@router.post("/licenses/{pk}/void", response=LicenseOut)
def void_license(request, pk: int, payload: VoidIn):
    """Void a license; `refund` records the money handed back, without it the payment is voided too."""
    license = get_for_user(request.auth, License.objects.select_related("payment"), pk, actions.CLERKS)
    return actions.void_license(license, acting_user=request.auth, **payload.dict())


@router.post("/licenses/{pk}/replace-tag", response=LicenseOut)
def replace_tag(request, pk: int, payload: ReplaceTagIn):
    license = get_for_user(request.auth, License.objects, pk, actions.CLERKS)
    actions.replace_tag(license, acting_user=request.auth, **payload.dict())
    return license


@router.get("/municipalities/{slug}/tags/{year}/{serial}", response=LicenseOut)
def tag_lookup(request, slug: str, year: int, serial: int):
    """The license a tag serial was issued to, in a municipality the user serves: one query
    (licensing/tag_lookup.py), answered in front of Django by dogtag/lean.py with the same bytes."""
    found = license_json(slug, year, serial, municipality_ids(request.auth))
    if found is None:
        raise Http404("No such tag among the municipalities you serve.")
    return HttpResponse(found, content_type=CONTENT_TYPE)


@router.get("/renewal-runs", response=list[RenewalRunOut])
@paged("-started_at", "-pk")
def renewal_runs(request, municipality: str | None = None):
    runs = scoped(request.auth, RenewalRun.objects)
    return runs.filter(municipality__slug=municipality) if municipality else runs


@router.get("/renewal-runs/{pk}", response=RenewalRunOut)
def renewal_run(request, pk: int):
    return get_for_user(request.auth, RenewalRun.objects, pk)
