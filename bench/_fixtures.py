"""Bulk records for the benchmarks, written by SQL (INSERT ... SELECT over a series: PostgreSQL's
generate_series, a recursive CTE on SQLite), without the ORM, actions or audit events: a
benchmark measures the pages, not the loading, and a million rows load in seconds.

`insert_series(model, n, {column: SQL over i})` fills the columns it is given from the row number
`i` (0 .. n-1) and every other column with the model field's default, so a field added later
does not break the benchmarks; ids are given explicitly (the next free ones) and returned, so rows
of another table can point at them (`first_id + i`).
"""

from __future__ import annotations

import os
import secrets
import sys
import time
from datetime import date

# A benchmark runs the app as production does (DEBUG off), which wants a secret key of its own
# and the address residents would use.
os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_urlsafe(40))
os.environ.setdefault("DOGTAG_BASE_URL", "http://127.0.0.1")


def ensure_postgres_database(url: str | None = None):
    """A PostgreSQL run creates its (throwaway) database when it does not exist yet."""
    url = url if url is not None else os.environ.get("DATABASE_URL", "")
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


# --- SQL over a series of row numbers ----------------------------------------------------------


def vendor() -> str:
    from django.db import connection

    return connection.vendor


def day(base: date | str, days_sql: str) -> str:
    """SQL for the date `days_sql` days after `base`."""
    base = base.isoformat() if isinstance(base, date) else base
    if vendor() == "postgresql":
        return f"(DATE '{base}' + CAST(({days_sql}) AS integer))"
    return f"date('{base}', '+' || ({days_sql}) || ' days')"


def text(*parts: str) -> str:
    """SQL concatenation: text("'Owner '", "i") -> 'Owner ' || i."""
    if vendor() == "postgresql":
        return "(" + " || ".join(f"CAST({p} AS text)" if not p.startswith("'") else p for p in parts) + ")"
    return "(" + " || ".join(parts) + ")"


def insert_series(model, n: int, columns: dict[str, str], *, where: str | None = None) -> int:
    """Insert `n` rows numbered i = 0 .. n-1 (those where `where` holds); returns the first id."""
    from django.db import connection, models
    from django.utils import timezone

    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {connection.ops.quote_name(table)}")
        first_id = cursor.fetchone()[0]
        names, values, params = ["id"], [f"{first_id} + i"], []
        for field in model._meta.concrete_fields:
            if field.column == "id":
                continue
            names.append(field.column)
            if field.column in columns:
                values.append(columns[field.column].replace("%", "%%"))  # the query has parameters
                continue
            if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
                default = timezone.now() if isinstance(field, models.DateTimeField) else timezone.localdate()
            else:
                default = field.get_default()
            if default is None and not field.null:
                raise ValueError(f"insert_series({model.__name__}): say what goes in {field.column}")
            values.append(f"CAST(%s AS {field.db_type(connection)})")
            params.append(field.get_db_prep_save(default, connection))
        unknown = set(columns) - set(names)
        if unknown:
            raise ValueError(f"insert_series({model.__name__}): no column {', '.join(sorted(unknown))}")
        quoted = ", ".join(connection.ops.quote_name(c) for c in names)
        select = f"SELECT {', '.join(values)} FROM s" + (f" WHERE {where.replace('%', '%%')}" if where else "")
        if connection.vendor == "postgresql":
            sql = (
                f"INSERT INTO {connection.ops.quote_name(table)} ({quoted}) "
                f"{select.replace(' FROM s', ' FROM generate_series(0, %s) AS s(i)', 1)}"
            )
            where_params = params + [n - 1]
        else:
            sql = (
                f"WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < %s) "
                f"INSERT INTO {connection.ops.quote_name(table)} ({quoted}) {select}"
            )
            where_params = [n] + params
        if n > 0:
            cursor.execute(sql, where_params)
        if connection.vendor == "postgresql":
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT COALESCE(MAX(id), 1) FROM {connection.ops.quote_name(table)}))"
            )
    return first_id


def analyze():
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # a live database has statistics; a fresh bulk load does not yet


# --- the registry --------------------------------------------------------------------------------


def bulk_animals(municipality, n, *, vaccinated: str | None = "1 = 1", city="Benton", postal_code="53803"):
    """`n` dogs, two to an owner, each with a certificate running to mid-2028 where the SQL
    condition `vaccinated` (over i) holds. Returns the first animal's id (animal i is first + i)."""
    from dogtag.registry.models import Animal, Ownership, Person, RabiesVaccination

    started = time.perf_counter()
    m = municipality.pk
    first_person = insert_series(
        Person,
        n // 2 + 1,
        {
            "municipality_id": str(m),
            "name": text("'Owner '", "i"),
            "street": text("i", "' Main St'"),
            "city": f"'{city}'",
            "postal_code": f"'{postal_code}'",
            "match_key": text("'owner '", "i", "'|'", "i", "' main st'"),  # registry/names.py's person_key
        },
    )
    first_animal = insert_series(
        Animal,
        n,
        {
            "municipality_id": str(m),
            "name": text("'Dog '", "i"),
            "sex": "'male'",
            "breed": "'Mix'",
            "color": "'black'",
            "birth_date": day("2018-01-01", "(i % 7) * 365 + (i % 12) * 30"),
        },
    )
    insert_series(
        Ownership,
        n,
        {
            "municipality_id": str(m),
            "animal_id": f"{first_animal} + i",
            "person_id": f"{first_person} + i / 2",
            "started_on": "'2019-01-01'",
        },
    )
    if vaccinated:
        insert_series(
            RabiesVaccination,
            n,
            {
                "municipality_id": str(m),
                "animal_id": f"{first_animal} + i",
                "certificate_serial": text("'R'", f"{first_animal} + i"),
                "owner_name": "'o'",
                "owner_address": "'a'",
                "animal_name": text("'Dog '", "i"),
                "sex": "'male'",
                "altered": "(1 = 0)",
                "breed": "'Mix'",
                "color": "'black'",
                "vaccinated_on": "'2026-06-01'",
                "vaccine_type": "'k'",
                "vaccine_serial": "'L'",
                "expires_on": "'2028-06-01'",
                "veterinarian_name": "'V'",
                "veterinarian_address": "'A'",
                "veterinarian_phone": "'P'",
                "rabies_tag_number": text("'T'", f"{first_animal} + i"),
            },
            where=vaccinated,
        )
    if vendor() == "postgresql":
        analyze()
    print(f"populated {n:,} animals in {municipality} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return first_animal


def bulk_licenses(municipality, first_animal: int, n: int, *, year: int, issued_by_id: int):
    """A license and its issued tag (serial i + 1) for animals first_animal .. first_animal + n - 1,
    and the tag lot they came from. Returns the first license's id."""
    from dogtag.licensing.models import License, Tag, TagLot
    from dogtag.registry.models import Ownership

    started = time.perf_counter()
    m = municipality.pk
    lot = insert_series(
        TagLot,
        1,
        {
            "municipality_id": str(m),
            "license_year": str(year),
            "first_serial": "1",
            "last_serial": str(n),
            "received_on": f"'{year}-01-02'",
            "received_by_id": str(issued_by_id),
        },
    )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT MIN(person_id) FROM {Ownership._meta.db_table} WHERE animal_id = %s", [first_animal])
        first_person = cursor.fetchone()[0]
    first_license = insert_series(
        License,
        n,
        {
            "municipality_id": str(m),
            "license_year": str(year),
            "serial": "i + 1",
            "animal_id": f"{first_animal} + i",
            "holder_id": f"{first_person} + i / 2",
            "issued_on": f"'{year}-02-01'",
            "expires_on": f"'{year}-12-31'",
            "tax": "'10.00'",
            "late_fee": "'0.00'",
            "issued_by_id": str(issued_by_id),
            "owner_name": text("'Owner '", "i / 2"),
            "owner_address": text("i / 2", "' Main St'"),
            "animal_name": text("'Dog '", "i"),
            "species": "'dog'",
            "sex": "'male'",
            "breed": "'Mix'",
            "color": "'black'",
            "county": f"'{municipality.county}'",
        },
    )
    insert_series(
        Tag,
        n,
        {
            "municipality_id": str(m),
            "lot_id": str(lot),
            "license_year": str(year),
            "serial": "i + 1",
            "status": f"'{Tag.Status.ISSUED}'",
            "license_id": f"{first_license} + i",
        },
    )
    if vendor() == "postgresql":
        analyze()
    print(
        f"populated {n:,} licenses and tags in {municipality} in {time.perf_counter() - started:.1f} s", file=sys.stderr
    )
    return first_license


def in_process_pages():
    """Settings for timing pages through Django's test client in this process: the client's host,
    plain HTTP, mail kept in memory, static files named as they are (production's hashed names need
    a collectstatic first). Not the test environment (`setup_test_environment`): it has every
    template render, each include of each row too, send a signal on which the client copies the
    whole context, work no server does."""
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.SECURE_SSL_REDIRECT = False
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
