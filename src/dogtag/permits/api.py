"""Permits under /api/v1/: Cedarburg hen permits and River Hills vicious-dog permits, through the
same actions as the clerk's pages, scoped by municipality (another municipality's record is 404)."""

import base64
import binascii
from datetime import date

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import ModelSchema, Router, Schema, Status

from dogtag.accounts.scope import get_for_user, municipality_for
from dogtag.enforcement.models import Declaration
from dogtag.lib.api_pages import paged
from dogtag.lib.api_types import Citations, Paid, PaymentIn
from dogtag.permits import actions
from dogtag.permits.models import HenPermit, ViciousDogPermit
from dogtag.registry.models import Person, Premises

router = Router(tags=["permits"])


class HenPermitOut(ModelSchema):
    municipality: str
    reasons: list[str]  # a JSON list on the model, which ModelSchema would declare an object
    site_plan: str | None
    pdf_url: str | None
    url: str

    class Meta:
        model = HenPermit
        fields = [
            "id",
            "applicant",
            "premises",
            "applied_on",
            "zoning",
            "applicant_is_tenant",
            "owners_of_record",
            "all_owners_signed",
            "premises_registration",
            "hens",
            "roosters",
            "renewal_of",
            "changes",
            "status",
            "reasons",
            "fee",
            "fee_kind",
            "expires_on",
            "decision",
            "revoked_on",
            "revocation_reason",
            "revocation",
        ]

    @staticmethod
    def resolve_municipality(obj):
        return obj.municipality.slug

    @staticmethod
    def resolve_site_plan(obj):
        return reverse("hen-permit-site-plan", args=[obj.pk]) if obj.site_plan else None

    @staticmethod
    def resolve_pdf_url(obj):
        return reverse("hen-permit-pdf", args=[obj.pk]) if obj.status == HenPermit.Status.ISSUED else None

    @staticmethod
    def resolve_url(obj):
        return reverse("hen-permit", args=[obj.pk])


class FileIn(Schema):
    filename: str
    content_base64: str


class HenPermitIn(Schema):
    applicant_id: int
    premises_id: int
    zoning: str
    owners_of_record: str
    hens: int
    roosters: int = 0
    all_owners_signed: bool = False
    premises_registration: str = ""
    applicant_is_tenant: bool = False
    site_plan: FileIn | None = None
    renewal_of_id: int | None = None
    changes: bool = False
    applied_on: date | None = None
    payment: PaymentIn | None = None


class RenewIn(Schema):
    renewed_on: date | None = None
    payment: PaymentIn | None = None


class RevokeIn(Schema):
    reason: str
    revoked_on: date | None = None


class ViciousDogPermitOut(ModelSchema):
    holder_name: str
    citations: Citations
    notes: list[str]

    class Meta:
        model = ViciousDogPermit
        fields = [
            "id",
            "declaration",
            "holder",
            "issued_on",
            "expires_on",
            "renewal_of",
            "fee",
            "insurance",
            "insurance_statement_signed",
        ]

    @staticmethod
    def resolve_holder_name(obj):
        return obj.holder.name

    @staticmethod
    def resolve_citations(obj):
        return obj.decision.get("citations", [])

    @staticmethod
    def resolve_notes(obj):
        return obj.decision.get("notes", [])


class ViciousDogPermitIn(Schema):
    insurance: str
    insurance_statement_signed: bool = False
    fee_paid: Paid
    issued_on: date | None = None


class ViciousDogRenewIn(Schema):
    insurance: str
    insurance_statement_signed: bool = False
    fee_paid: Paid
    renewed_on: date | None = None


def _upload(file: FileIn | None):
    if file is None:
        return None
    try:
        content = base64.b64decode(file.content_base64, validate=True)
    except (binascii.Error, ValueError) as e:
        raise ValidationError({"site_plan": "content_base64 is not base64."}) from e
    return SimpleUploadedFile(file.filename, content)


def _hen_permits(request):
    return HenPermit.objects.select_related("municipality", "applicant", "premises")


@router.get("/municipalities/{slug}/hen-permits", response=list[HenPermitOut])
@paged("-applied_on", "-pk")
def list_hen_permits(request, slug: str, status: str | None = None):
    municipality = municipality_for(request.auth, slug)
    found = _hen_permits(request).filter(municipality=municipality)
    return found.filter(status=status) if status else found


@router.post("/municipalities/{slug}/hen-permits", response={201: HenPermitOut})
def decide_hen_permit(request, slug: str, payload: HenPermitIn):
    """Apply: the permit issues, or is refused with every reason, as one decision."""
    municipality = municipality_for(request.auth, slug, actions.ISSUERS)
    fields = payload.dict()
    fields["applicant"] = get_object_or_404(Person, pk=fields.pop("applicant_id"), municipality=municipality)
    fields["premises"] = get_object_or_404(Premises, pk=fields.pop("premises_id"), municipality=municipality)
    renewal_of = fields.pop("renewal_of_id")
    fields["renewal_of"] = (
        get_object_or_404(HenPermit, pk=renewal_of, municipality=municipality) if renewal_of is not None else None
    )
    fields["site_plan"] = _upload(payload.site_plan)
    permit = actions.decide_hen_permit(acting_user=request.auth, municipality=municipality, **fields)
    return Status(201, permit)


@router.get("/hen-permits/{pk}", response=HenPermitOut)
def get_hen_permit(request, pk: int):
    return get_for_user(request.auth, _hen_permits(request), pk)


@router.post("/hen-permits/{pk}/renew", response={201: HenPermitOut})
def renew_hen_permit(request, pk: int, payload: RenewIn):
    """§ 7-1-26(d)(7) without changes: the renewal fee; with changes, apply anew with renewal_of_id."""
    permit = get_for_user(request.auth, _hen_permits(request), pk, actions.ISSUERS)
    payment = payload.payment.dict() if payload.payment else None
    renewal = actions.renew_hen_permit(permit, acting_user=request.auth, renewed_on=payload.renewed_on, payment=payment)
    return Status(201, renewal)


@router.post("/hen-permits/{pk}/revoke", response=HenPermitOut)
def revoke_hen_permit(request, pk: int, payload: RevokeIn):
    permit = get_for_user(request.auth, _hen_permits(request), pk, actions.ISSUERS)
    return actions.revoke_hen_permit(
        permit, acting_user=request.auth, reason=payload.reason, revoked_on=payload.revoked_on
    )


def _declaration(request, pk, roles=None):
    qs = Declaration.objects.select_related("case", "municipality")
    return get_for_user(request.auth, qs, pk, *([roles] if roles else []))


@router.get("/declarations/{pk}/vicious-dog-permits", response=list[ViciousDogPermitOut])
@paged("-issued_on", "-pk")
def list_vicious_dog_permits(request, pk: int):
    return _declaration(request, pk).vicious_dog_permits.select_related("holder")


@router.post("/declarations/{pk}/vicious-dog-permits", response={201: ViciousDogPermitOut})
def issue_vicious_dog_permit(request, pk: int, payload: ViciousDogPermitIn):
    declaration = _declaration(request, pk, actions.ISSUERS)
    return Status(201, actions.issue_vicious_dog_permit(declaration, acting_user=request.auth, **payload.dict()))


@router.post("/declarations/{pk}/vicious-dog-permits/renew", response={201: ViciousDogPermitOut})
def renew_vicious_dog_permit(request, pk: int, payload: ViciousDogRenewIn):
    declaration = _declaration(request, pk, actions.ISSUERS)
    return Status(201, actions.renew_vicious_dog_permit(declaration, acting_user=request.auth, **payload.dict()))
