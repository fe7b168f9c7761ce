"""Kennel licenses under /api/v1/: the same actions as the clerk's pages, scoped by municipality."""

from datetime import date

from django.shortcuts import get_object_or_404
from ninja import ModelSchema, Router, Schema, Status

from dogtag.accounts.scope import get_for_user, municipality_for, scoped
from dogtag.lib.api_pages import paged
from dogtag.lib.api_types import Citations, PaymentIn
from dogtag.licensing.actions import CLERKS
from dogtag.licensing.api import ReasonIn
from dogtag.licensing.kennels import actions as kennel_licenses
from dogtag.licensing.kennels.rules import APPLICATION_FIELDS
from dogtag.licensing.models import Inspection, KennelLicense
from dogtag.registry.models import Person, Premises

router = Router(tags=["multiple-dog and kennel licenses"])


class KennelIn(ModelSchema):
    license_year: int | None = None

    class Meta:
        model = KennelLicense
        fields = APPLICATION_FIELDS


class InspectionOut(ModelSchema):
    class Meta:
        model = Inspection
        fields = ["id", "inspector", "inspector_name", "inspected_on", "findings", "corrected_on"]


class KennelOut(ModelSchema):
    inspections: list[InspectionOut]
    citations: Citations

    class Meta:
        model = KennelLicense
        fields = [
            "id",
            "license_year",
            *APPLICATION_FIELDS,
            *("status", "renewal", "fee", "issued_on", "expires_on", "dogs_kept", "refusal_reason"),
            *("voided_at", "void_reason", "citations"),
        ]


class InspectionIn(Schema):
    inspector: str  # checked by the action, which names who may inspect
    inspector_name: str
    inspected_on: date
    findings: str = ""


class CorrectionIn(Schema):
    corrected_on: date


class ApproveIn(Schema):
    payment: PaymentIn | None = None


@router.get("/kennels", response=list[KennelOut])
@paged("-license_year", "-pk")
def list_kennels(request, municipality: str | None = None):
    found = scoped(request.auth, KennelLicense.objects.prefetch_related("inspections"))
    return found.filter(municipality__slug=municipality) if municipality else found


@router.post("/municipalities/{slug}/kennels", response={201: KennelOut})
def apply_for_kennel_license(request, slug: str, payload: KennelIn):
    municipality = municipality_for(request.auth, slug, CLERKS)
    fields = payload.dict()
    fields["owner"] = get_object_or_404(Person, pk=fields["owner"], municipality=municipality)
    fields["premises"] = get_object_or_404(Premises, pk=fields["premises"], municipality=municipality)
    kennel = kennel_licenses.apply_for_kennel_license(acting_user=request.auth, municipality=municipality, **fields)
    return Status(201, kennel)


@router.get("/kennels/{pk}", response=KennelOut)
def get_kennel(request, pk: int):
    return get_for_user(request.auth, KennelLicense.objects, pk)


@router.post("/kennels/{pk}/inspections", response={201: KennelOut})
def record_inspection(request, pk: int, payload: InspectionIn):
    kennel = get_for_user(request.auth, KennelLicense.objects, pk, CLERKS)
    kennel_licenses.record_inspection(kennel, acting_user=request.auth, **payload.dict())
    return Status(201, kennel)


@router.post("/kennel-inspections/{pk}/corrected", response=KennelOut)
def record_correction(request, pk: int, payload: CorrectionIn):
    inspection = get_for_user(request.auth, Inspection.objects.select_related("kennel_license"), pk, CLERKS)
    kennel_licenses.record_correction(inspection, acting_user=request.auth, corrected_on=payload.corrected_on)
    return inspection.kennel_license


@router.post("/kennels/{pk}/approve", response=KennelOut)
def approve_kennel_license(request, pk: int, payload: ApproveIn):
    kennel = get_for_user(request.auth, KennelLicense.objects, pk, CLERKS)
    return kennel_licenses.approve_kennel_license(kennel, acting_user=request.auth, **payload.dict())


@router.post("/kennels/{pk}/refuse", response=KennelOut)
def refuse_kennel_application(request, pk: int, payload: ReasonIn):
    kennel = get_for_user(request.auth, KennelLicense.objects, pk, CLERKS)
    return kennel_licenses.refuse_kennel_application(kennel, acting_user=request.auth, reason=payload.reason)


@router.post("/kennels/{pk}/void", response=KennelOut)
def void_kennel_license(request, pk: int, payload: ReasonIn):
    kennel = get_for_user(request.auth, KennelLicense.objects, pk, CLERKS)
    return kennel_licenses.void_kennel_license(kennel, acting_user=request.auth, reason=payload.reason)
