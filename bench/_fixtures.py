"""Bulk records for the benchmarks: people, animals, their owners and rabies certificates, in
batches, without actions or audit events (a benchmark measures the pages, not the loading)."""

import os
import sys
import time
from datetime import date


def ensure_postgres_database():
    """A PostgreSQL run creates its (throwaway) database when it does not exist yet."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import dj_database_url
        import psycopg

        c = dj_database_url.parse(url)
        with psycopg.connect(
            host=c["HOST"],
            port=c["PORT"] or 5432,
            user=c["USER"],
            password=c["PASSWORD"] or None,
            dbname="postgres",
            autocommit=True,
        ) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [c["NAME"]]).fetchone():
                conn.execute(f'CREATE DATABASE "{c["NAME"]}"')


def bulk_animals(municipality, n, *, vaccinated=lambda i: True, city="Benton", postal_code="53803"):
    """`n` dogs, two to an owner, each with a certificate running to mid-2028 where `vaccinated(i)`."""
    from django.db import connection

    from dogtag.registry.models import Animal, Ownership, Person, RabiesVaccination

    started = time.perf_counter()
    people = Person.objects.bulk_create(
        (
            Person(
                municipality=municipality, name=f"Owner {i}", street=f"{i} Main St", city=city, postal_code=postal_code
            )
            for i in range(n // 2 + 1)
        ),
        batch_size=5000,
    )
    animals = Animal.objects.bulk_create(
        (
            Animal(
                municipality=municipality,
                name=f"Dog {i}",
                sex="male",
                breed="Mix",
                color="black",
                birth_date=date(2018 + i % 7, 1 + i % 12, 1),
            )
            for i in range(n)
        ),
        batch_size=5000,
    )
    Ownership.objects.bulk_create(
        (
            Ownership(municipality=municipality, animal=a, person=people[i // 2], started_on=date(2019, 1, 1))
            for i, a in enumerate(animals)
        ),
        batch_size=5000,
    )
    RabiesVaccination.objects.bulk_create(
        (
            RabiesVaccination(
                municipality=municipality,
                animal=a,
                certificate_serial=f"R{a.pk}",
                owner_name="o",
                owner_address="a",
                animal_name=a.name,
                sex="male",
                altered=False,
                breed="Mix",
                color="black",
                vaccinated_on=date(2026, 6, 1),
                vaccine_type="k",
                vaccine_serial="L",
                expires_on=date(2028, 6, 1),
                veterinarian_name="V",
                veterinarian_address="A",
                veterinarian_phone="P",
                rabies_tag_number=f"T{a.pk}",
            )
            for i, a in enumerate(animals)
            if vaccinated(i)
        ),
        batch_size=5000,
    )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # a live database has statistics; a fresh bulk load does not yet
    print(f"populated {n:,} animals in {municipality} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return animals
