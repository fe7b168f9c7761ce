from datetime import date

from django.shortcuts import get_object_or_404
from ninja import Field, ModelSchema, Router, Schema, Status
from pydantic import create_model

from dogtag.accounts.scope import get_for_user, municipalities, municipality_for, scoped
from dogtag.lib.api_pages import paged
from dogtag.registry import actions
from dogtag.registry.models import Animal, Municipality, Ownership, Person, Premises, RabiesVaccination

router = Router(tags=["registry"])


def patch_of(schema: type[Schema], *, exclude=()) -> type[Schema]:
    """The same fields, each optional: a PATCH changes only what it sends. A field that cannot be
    empty keeps refusing null (a NOT NULL column); one that can be cleared takes it."""
    fields = {n: (f.annotation, None) for n, f in schema.model_fields.items() if n not in exclude}
    return create_model(schema.__name__.removesuffix("In") + "Patch", __base__=Schema, **fields)


def _fields(payload: Schema) -> dict:
    return payload.dict(exclude_unset=True)


def _with_fks(data: dict, municipality_id: int) -> dict:
    """Turn `premises_id`/`owner_id` into rows, looked up only inside the record's municipality."""
    if data.get("premises_id") is not None:
        data["premises"] = get_object_or_404(Premises, pk=data.pop("premises_id"), municipality_id=municipality_id)
    elif "premises_id" in data:
        data["premises"] = data.pop("premises_id")
    if "owner_id" in data:
        data["owner"] = get_object_or_404(Person, pk=data.pop("owner_id"), municipality_id=municipality_id)
    return data


class MunicipalityOut(ModelSchema):
    class Meta:
        model = Municipality
        fields = ["id", "slug", "name", "kind", "county", "rule_pack"]


class PersonIn(Schema):
    kind: Person.Kind = Person.Kind.INDIVIDUAL
    name: str
    street: str
    city: str
    state: str = "WI"
    postal_code: str
    phone: str = ""
    email: str = ""


PersonPatch = patch_of(PersonIn)


class PersonOut(ModelSchema):
    municipality: str = Field(..., alias="municipality.slug")

    class Meta:
        model = Person
        fields = ["id", *actions.PERSON_FIELDS]


class PremisesIn(Schema):
    street: str
    use: Premises.Use
    parcel_number: str = ""


PremisesPatch = patch_of(PremisesIn)


class PremisesOut(ModelSchema):
    municipality: str = Field(..., alias="municipality.slug")

    class Meta:
        model = Premises
        fields = ["id", *actions.PREMISES_FIELDS]


class AnimalIn(Schema):
    owner_id: int
    owner_role: Ownership.Role = Ownership.Role.OWNER
    owned_from: date | None = None
    species: Animal.Species = Animal.Species.DOG
    name: str
    breed: str = ""
    color: str = ""
    sex: Animal.Sex
    altered: bool = False
    altered_evidence: str = ""
    birth_date: date | None = None
    birth_date_estimated: bool = False
    acquired_on: date | None = None
    brought_in_on: date | None = None
    microchip: str = ""
    status: Animal.Status = Animal.Status.ACTIVE
    working_status: Animal.WorkingStatus = Animal.WorkingStatus.NONE
    premises_id: int | None = None


AnimalPatch = patch_of(AnimalIn, exclude=("owner_id", "owner_role", "owned_from"))


class AnimalOut(ModelSchema):
    municipality: str = Field(..., alias="municipality.slug")
    premises_id: int | None

    class Meta:
        model = Animal
        fields = ["id", *(f for f in actions.ANIMAL_FIELDS if f != "premises")]


class OwnershipIn(Schema):
    person_id: int
    role: Ownership.Role = Ownership.Role.OWNER
    started_on: date


class OwnershipEnd(Schema):
    ended_on: date


class OwnershipOut(ModelSchema):
    class Meta:
        model = Ownership
        fields = ["id", "animal", "person", "role", "started_on", "ended_on"]


class VaccinationIn(Schema):
    certificate_serial: str
    vaccinated_on: date
    vaccine_type: str
    vaccine_serial: str
    expires_on: date
    veterinarian_name: str
    veterinarian_address: str
    veterinarian_phone: str
    rabies_tag_number: str
    owner_name: str | None = None
    owner_address: str | None = None
    animal_name: str | None = None
    sex: Animal.Sex | None = None
    altered: bool | None = None
    breed: str | None = None
    color: str | None = None


VaccinationPatch = patch_of(VaccinationIn)


class DuplicateTagOut(Schema):
    tag_number: str
    issued_on: date


class VaccinationOut(ModelSchema):
    duplicate_tags: list[DuplicateTagOut]

    class Meta:
        model = RabiesVaccination
        fields = ["id", "animal", *actions.VACCINATION_FIELDS, "voided_at", "void_reason"]


class VoidIn(Schema):
    reason: str


class DuplicateTagIn(Schema):
    tag_number: str
    issued_on: date | None = None


@router.get("/municipalities", response=list[MunicipalityOut])
@paged("name", "pk")
def list_municipalities(request):
    return municipalities(request.auth)


@router.get("/people", response=list[PersonOut])
@paged("name", "pk")
def list_people(request, municipality: str | None = None, q: str = ""):
    people = scoped(request.auth, Person.objects.select_related("municipality")).filter(name__icontains=q)
    return people.filter(municipality__slug=municipality) if municipality else people


@router.post("/municipalities/{slug}/people", response={201: PersonOut})
def create_person(request, slug: str, payload: PersonIn):
    return Status(
        201,
        actions.create_person(
            acting_user=request.auth, municipality=municipality_for(request.auth, slug), **_fields(payload)
        ),
    )


@router.get("/people/{pk}", response=PersonOut)
def get_person(request, pk: int):
    return get_for_user(request.auth, Person.objects, pk)


@router.patch("/people/{pk}", response=PersonOut)
def update_person(request, pk: int, payload: PersonPatch):
    person = get_for_user(request.auth, Person.objects, pk, actions.REGISTRARS)
    return actions.update_person(person, acting_user=request.auth, **_fields(payload))


@router.get("/premises", response=list[PremisesOut])
@paged("street", "pk")
def list_premises(request, municipality: str | None = None, q: str = ""):
    premises = scoped(request.auth, Premises.objects.select_related("municipality")).filter(street__icontains=q)
    return premises.filter(municipality__slug=municipality) if municipality else premises


@router.post("/municipalities/{slug}/premises", response={201: PremisesOut})
def create_premises(request, slug: str, payload: PremisesIn):
    return Status(
        201,
        actions.create_premises(
            acting_user=request.auth, municipality=municipality_for(request.auth, slug), **_fields(payload)
        ),
    )


@router.get("/premises/{pk}", response=PremisesOut)
def get_premises(request, pk: int):
    return get_for_user(request.auth, Premises.objects, pk)


@router.patch("/premises/{pk}", response=PremisesOut)
def update_premises(request, pk: int, payload: PremisesPatch):
    premises = get_for_user(request.auth, Premises.objects, pk, actions.REGISTRARS)
    return actions.update_premises(premises, acting_user=request.auth, **_fields(payload))


@router.get("/animals", response=list[AnimalOut])
@paged("name", "pk")
def list_animals(request, municipality: str | None = None, q: str = "", microchip: str = ""):
    animals = scoped(request.auth, Animal.objects.select_related("municipality")).filter(name__icontains=q)
    if microchip:
        animals = animals.filter(microchip=microchip)
    return animals.filter(municipality__slug=municipality) if municipality else animals


@router.post("/municipalities/{slug}/animals", response={201: AnimalOut})
def register_animal(request, slug: str, payload: AnimalIn):
    municipality = municipality_for(request.auth, slug)
    fields = _with_fks(_fields(payload), municipality.pk)
    return Status(201, actions.register_animal(acting_user=request.auth, municipality=municipality, **fields))


@router.get("/animals/{pk}", response=AnimalOut)
def get_animal(request, pk: int):
    return get_for_user(request.auth, Animal.objects, pk)


@router.patch("/animals/{pk}", response=AnimalOut)
def update_animal(request, pk: int, payload: AnimalPatch):
    animal = get_for_user(request.auth, Animal.objects, pk, actions.REGISTRARS)
    return actions.update_animal(
        animal, acting_user=request.auth, **_with_fks(_fields(payload), animal.municipality_id)
    )


@router.get("/animals/{pk}/ownerships", response=list[OwnershipOut])
@paged("-started_on", "-pk")
def list_ownerships(request, pk: int):
    return get_for_user(request.auth, Animal.objects, pk).ownerships.all()


@router.post("/animals/{pk}/ownerships", response={201: OwnershipOut})
def add_ownership(request, pk: int, payload: OwnershipIn):
    animal = get_for_user(request.auth, Animal.objects, pk, actions.REGISTRARS)
    person = get_object_or_404(Person, pk=payload.person_id, municipality_id=animal.municipality_id)
    return Status(
        201,
        actions.add_ownership(
            animal, acting_user=request.auth, person=person, role=payload.role, started_on=payload.started_on
        ),
    )


@router.post("/ownerships/{pk}/end", response=OwnershipOut)
def end_ownership(request, pk: int, payload: OwnershipEnd):
    ownership = get_for_user(request.auth, Ownership.objects, pk, actions.REGISTRARS)
    return actions.end_ownership(ownership, acting_user=request.auth, ended_on=payload.ended_on)


@router.get("/animals/{pk}/vaccinations", response=list[VaccinationOut])
@paged("-vaccinated_on", "-pk")
def list_vaccinations(request, pk: int):
    return get_for_user(request.auth, Animal.objects, pk).vaccinations.prefetch_related("duplicate_tags")


@router.post("/animals/{pk}/vaccinations", response={201: VaccinationOut})
def record_vaccination(request, pk: int, payload: VaccinationIn):
    animal = get_for_user(request.auth, Animal.objects, pk, actions.CERTIFIERS)
    fields = {k: v for k, v in _fields(payload).items() if v is not None}
    return Status(201, actions.record_vaccination(animal, acting_user=request.auth, **fields))


@router.get("/vaccinations/{pk}", response=VaccinationOut)
def get_vaccination(request, pk: int):
    return get_for_user(request.auth, RabiesVaccination.objects, pk)


@router.patch("/vaccinations/{pk}", response=VaccinationOut)
def update_vaccination(request, pk: int, payload: VaccinationPatch):
    vaccination = get_for_user(request.auth, RabiesVaccination.objects, pk, actions.CERTIFIERS)
    return actions.update_vaccination(vaccination, acting_user=request.auth, **_fields(payload))


@router.post("/vaccinations/{pk}/void", response=VaccinationOut)
def void_vaccination(request, pk: int, payload: VoidIn):
    vaccination = get_for_user(request.auth, RabiesVaccination.objects, pk, actions.CERTIFIERS)
    return actions.void_vaccination(vaccination, acting_user=request.auth, reason=payload.reason)


@router.post("/vaccinations/{pk}/duplicate-tags", response={201: VaccinationOut})
def record_duplicate_rabies_tag(request, pk: int, payload: DuplicateTagIn):
    vaccination = get_for_user(request.auth, RabiesVaccination.objects, pk, actions.CERTIFIERS)
    actions.record_duplicate_rabies_tag(vaccination, acting_user=request.auth, **_fields(payload))
    return Status(201, vaccination)
