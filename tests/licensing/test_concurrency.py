"""500 licenses issued at once against one lot of 500 tags: every license has its own tag,
no tag is issued twice, and the stock count is exact — on SQLite and PostgreSQL; and a clerk's
issue does not wait for another clerk's tag."""

import json
import multiprocessing
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, close_old_connections, connection, connections, transaction

from dogtag.licensing import actions
from dogtag.licensing.actions.tags import move_counter_to, take_tag
from dogtag.licensing.models import License, Tag
from dogtag.registry.models import Animal, Municipality, Ownership, Person, RabiesVaccination
from tests.base import make_user, on
from tests.licensing.base import BENTON_FEES, set_fees

pytestmark = pytest.mark.django_db(transaction=True)
LICENSES = 500
ON = date(2026, 2, 10)


def build():
    import io

    from django.core.management import call_command

    call_command("demo", stdout=io.StringIO())
    benton = Municipality.objects.get(slug="benton")
    from dogtag.accounts.models import Role

    clerk = make_user("counter", (benton, Role.CLERK))
    set_fees(clerk, benton, BENTON_FEES)
    actions.receive_tag_lot(
        acting_user=clerk,
        municipality=benton,
        license_year=2026,
        first_serial=1,
        last_serial=LICENSES,
        received_on=date(2026, 1, 2),
    )
    owner = Person.objects.create(
        municipality=benton, name="Kennel Keeper", street="1 Farm Rd", city="Benton", postal_code="53803"
    )
    animals = Animal.objects.bulk_create(
        Animal(
            municipality=benton, name=f"Dog {i}", sex="female", birth_date=date(2023, 1, 1), breed="Mix", color="black"
        )
        for i in range(LICENSES)
    )
    Ownership.objects.bulk_create(
        Ownership(municipality=benton, animal=a, person=owner, started_on=date(2023, 1, 1)) for a in animals
    )
    RabiesVaccination.objects.bulk_create(
        RabiesVaccination(
            municipality=benton,
            animal=a,
            certificate_serial=f"R{a.pk}",
            owner_name="K",
            owner_address="1 Farm Rd",
            animal_name=a.name,
            sex="female",
            altered=False,
            breed="Mix",
            color="black",
            vaccinated_on=date(2025, 6, 1),
            vaccine_type="k",
            vaccine_serial="L",
            expires_on=date(2028, 6, 1),
            veterinarian_name="V",
            veterinarian_address="A",
            veterinarian_phone="P",
            rabies_tag_number=f"T{a.pk}",
        )
        for a in animals
    )
    return clerk, [a.pk for a in animals]


def issue(clerk_id, animal_ids):
    clerk = get_user_model().objects.get(pk=clerk_id)
    try:
        with on(ON):
            for pk in animal_ids:
                actions.issue_license(
                    Animal.objects.select_related("municipality").get(pk=pk),
                    acting_user=clerk,
                    payment={"method": "cash", "amount": "10.00"},
                )
    finally:
        close_old_connections()
        connection.close()


def issue_in_process(clerk_id, animal_ids):
    connections.close_all()  # a forked child must not share the parent's socket
    issue(clerk_id, animal_ids)


def assert_every_tag_issued_once():
    licenses = License.objects.filter(voided_at=None)
    assert licenses.count() == LICENSES
    assert len(set(licenses.values_list("serial", flat=True))) == LICENSES
    issued = Tag.objects.filter(status=Tag.Status.ISSUED)
    assert issued.count() == LICENSES
    assert len(set(issued.values_list("license_id", flat=True))) == LICENSES
    assert Tag.objects.filter(status=Tag.Status.IN_STOCK).count() == 0
    assert sorted(licenses.values_list("serial", flat=True)) == list(range(1, LICENSES + 1))


def test_eight_clerks_issue_500_licenses_at_once():
    clerk, ids = build()
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda chunk: issue(clerk.pk, chunk), [ids[i::8] for i in range(8)]))
    assert_every_tag_issued_once()


def test_two_processes_issue_500_licenses_at_once():
    clerk, ids = build()
    connections.close_all()
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=issue_in_process, args=(clerk.pk, ids[i::2])) for i in range(2)]
    for p in processes:
        p.start()
    for p in processes:
        p.join(timeout=300)
        assert p.exitcode == 0
    assert_every_tag_issued_once()


FRESH_PROCESS = """
import json, sys
import django
django.setup()
from concurrent.futures import ThreadPoolExecutor
from tests.licensing.test_concurrency import issue

clerk, ids = json.loads(sys.argv[1])
errors = []

def clerk_at_the_counter(chunk):
    try:
        issue(clerk, chunk)
    except Exception as e:
        errors.append(f"{type(e).__name__}: {e}")

with ThreadPoolExecutor(max_workers=8) as pool:
    list(pool.map(clerk_at_the_counter, [ids[i::8] for i in range(8)]))
print(json.dumps(errors))
"""


def database_url() -> str:
    """The test database as a DATABASE_URL, for a process started by the test."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def test_eight_clerks_in_a_freshly_started_process_issue_500_licenses_at_once():
    """As a new server process's threads would: nothing issued in that process before the burst."""
    clerk, ids = build()
    connections.close_all()
    env = {**os.environ, "DATABASE_URL": database_url(), "SQLITE_BUSY_TIMEOUT": "120"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    r = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS, json.dumps([clerk.pk, ids])],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert r.returncode == 0, r.stderr[-3000:]
    assert json.loads(r.stdout.splitlines()[-1]) == []
    assert_every_tag_issued_once()


def test_a_clerk_takes_the_next_tag_while_another_clerks_issue_holds_one():
    """On PostgreSQL the second clerk does not wait. SQLite lets one transaction write at a time:
    there the second clerk's issue waits its turn (refused, nothing written, once its busy timeout
    runs out) and then takes the next tag."""
    build()
    benton = Municipality.objects.get(slug="benton")
    holding, done = threading.Event(), threading.Event()

    def other_clerk():
        try:
            with transaction.atomic():
                move_counter_to(take_tag(benton, 2026))  # tag 1, and the counter's row, held
                holding.set()
                done.wait(timeout=30)
        finally:
            connection.close()

    other = threading.Thread(target=other_clerk)
    other.start()
    try:
        assert holding.wait(timeout=30)
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA busy_timeout = 200")
            with pytest.raises(OperationalError, match="locked"), transaction.atomic():
                take_tag(benton, 2026)
            done.set()
            other.join(timeout=30)
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '2s'")  # waiting for the other clerk fails the test
            tag = take_tag(benton, 2026)
            assert tag.serial == 2
            done.set()
            other.join(timeout=30)
            move_counter_to(tag)
    finally:
        done.set()
        other.join(timeout=30)
        connection.close()  # the busy timeout set above goes with the connection
    assert list(Tag.objects.filter(status=Tag.Status.ISSUED).order_by("serial").values_list("serial", flat=True)) == [
        1,
        2,
    ]
