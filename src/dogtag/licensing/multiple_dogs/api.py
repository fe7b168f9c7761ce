"""Multiple-dog licenses under /api/v1/: the same actions as the clerk's pages, scoped by municipality."""

from django.shortcuts import get_object_or_404
from ninja import ModelSchema, Router, Schema, Status

from dogtag.accounts.scope import get_for_user, municipality_for
from dogtag.lib.api_types import Citations, PaymentIn
from dogtag.licensing.actions.roles import CLERKS, REVOKERS
from dogtag.licensing.models import License
from dogtag.licensing.multiple_dogs import actions as multiple_dog_licenses
from dogtag.registry.models import Animal, Person

router = Router(tags=["multiple-dog and kennel licenses"])


class MultipleDogIn(Schema):
    keeper_id: int
    dogs: int
    animal_ids: list[int] = []
    inspection_consent: bool = False
    payment: PaymentIn | None = None


class MultipleDogOut(ModelSchema):
    tags: list[int]
    citations: Citations  # a JSON list on the model, which ModelSchema would declare an object
    animal_ids: list[int]

    class Meta:
        model = License
        fields = [
            "id",
            "license_year",
            "serial",
            "holder",
            "issued_on",
            "expires_on",
            "tax",
            "dogs_authorized",
            "inspection_consent_on",
            "voided_at",
            "void_reason",
            "revocation",
            "citations",
        ]

    @staticmethod
    def resolve_tags(obj):
        return [t.serial for t in obj.tags.all()]

    @staticmethod
    def resolve_animal_ids(obj):
        return [a.pk for a in obj.covered_animals.all()]


class RevokeIn(Schema):
    category: str  # checked by the action, which names the choices and the section
    reason: str


@router.post("/municipalities/{slug}/multiple-dog-licenses", response={201: MultipleDogOut})
def issue_multiple_dog_license(request, slug: str, payload: MultipleDogIn):
    municipality = municipality_for(request.auth, slug, CLERKS)
    keeper = get_object_or_404(Person, pk=payload.keeper_id, municipality=municipality)
    animals = [get_object_or_404(Animal, pk=pk, municipality=municipality) for pk in payload.animal_ids]
    fields = payload.dict(exclude={"keeper_id", "animal_ids"})  # dogs, inspection_consent, payment
    license = multiple_dog_licenses.issue_multiple_dog_license(
        acting_user=request.auth, municipality=municipality, keeper=keeper, animals=animals, **fields
    )
    return Status(201, license)


@router.get("/multiple-dog-licenses/{pk}", response=MultipleDogOut)
def get_multiple_dog_license(request, pk: int):
    return get_for_user(request.auth, License.objects.filter(kind=License.Kind.MULTIPLE_DOG), pk)


@router.post("/multiple-dog-licenses/{pk}/revoke", response=MultipleDogOut)
def revoke_multiple_dog_license(request, pk: int, payload: RevokeIn):
    license = get_for_user(request.auth, License.objects.filter(kind=License.Kind.MULTIPLE_DOG), pk, REVOKERS)
    return multiple_dog_licenses.revoke_multiple_dog_license(license, acting_user=request.auth, **payload.dict())
