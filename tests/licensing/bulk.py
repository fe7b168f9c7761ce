"""Many licensed dogs at once, written in bulk (no actions, no audit): the renewal run's tests
need hundreds of animals, not the path that registers them one by one."""

from datetime import date
from decimal import Decimal

from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Ownership, Person


def licensed_dogs(municipality, clerk, n: int, *, year: int, emailed=lambda i: True, first=0):
    people = Person.objects.bulk_create(
        Person(
            municipality=municipality,
            name=f"Owner {i:05d}",
            street=f"{i} Elm St",
            city="Benton",
            postal_code="53803",
            email=f"owner{i}@example.org" if emailed(i) else "",
        )
        for i in range(first, first + n)
    )
    animals = Animal.objects.bulk_create(
        Animal(
            municipality=municipality,
            name=f"Dog {i:05d}",
            sex="female",
            altered=i % 2 == 0,
            breed="Mix",
            color="brown",
            birth_date=date(2019 + i % 5, 1 + i % 12, 1),
        )
        for i in range(first, first + n)
    )
    Ownership.objects.bulk_create(
        Ownership(municipality=municipality, animal=a, person=p, started_on=date(2020, 1, 1))
        for a, p in zip(animals, people, strict=True)
    )
    License.objects.bulk_create(
        License(
            municipality=municipality,
            license_year=year,
            serial=50_000 + first + i,
            animal=a,
            holder=p,
            issued_on=date(year, 2, 1),
            expires_on=date(year + 1, 3, 31),
            tax=Decimal("5.00"),
            late_fee=Decimal("0.00"),
            issued_by=clerk,
            owner_name=p.name,
            owner_address=p.street,
            animal_name=a.name,
            species="dog",
            county=municipality.county,
        )
        for i, (a, p) in enumerate(zip(animals, people, strict=True))
    )
    return animals
