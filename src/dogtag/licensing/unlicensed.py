"""Who has not licensed: the query behind the unlicensed page and the reports' unlicensed and late list."""

from dogtag.licensing import law
from dogtag.licensing.models import License
from dogtag.registry.models import Animal


def unlicensed_rows(municipality, year: int, on):
    """Active licensable animals without a license for `year`, with the late fee owed on `on`."""
    licensed = License.objects.filter(license_year=year, voided_at=None).values("animal_id")
    animals = (
        Animal.objects.filter(
            municipality=municipality,
            status=Animal.Status.ACTIVE,
            species__in=law.pack_of(municipality).licensing.species.species,
        )
        .exclude(pk__in=licensed)
        .order_by("name")
    )
    local = law.local_amounts(municipality)
    rows = []
    for animal in animals:
        facts = law.animal_facts(animal, year)
        if facts is None:
            rows.append({"animal": animal, "due_by": None, "late": None, "note": "birth date unknown"})
            continue
        required = law.ask(municipality, "license_required", facts, on, local)
        if not required.value.required or required.value.licensable_on > on:
            continue
        late = law.ask(municipality, "late_fee", facts, on, local)
        rows.append({"animal": animal, "due_by": required.value.due_by, "late": late, "note": ""})
    return rows
