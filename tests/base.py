"""Named users in clear roles, shared by the Django tests (healthchecks' BaseTestCase)."""

import io
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import time_machine
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import TestCase
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_totp.models import TOTPDevice

from dogtag.accounts.models import Membership, Role
from dogtag.accounts.second_factor import second_factor_required
from dogtag.registry import actions
from dogtag.registry.models import Municipality

PASSWORD = "correct horse battery"
CHICAGO = ZoneInfo("America/Chicago")


def text(response) -> str:
    """A response's body as text, streamed (a CSV export) or not."""
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def on(day: date, hour: int = 12):
    """Freeze time at noon, Chicago time, on `day` (a decorator or context manager)."""
    return time_machine.travel(datetime.combine(day, time(hour), CHICAGO), tick=False)


def make_user(username, *roles):
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    for municipality, role in roles:
        Membership.objects.create(user=user, municipality=municipality, role=role)
    return user


def vaccinate(animal, vet, serial, vaccinated_on, expires_on, **fields):
    """Record a rabies certificate with plausible clinic details."""
    details = {
        "vaccine_type": "killed virus",
        "vaccine_serial": "LOT-1",
        "veterinarian_name": "Dr. Vera Vet",
        "veterinarian_address": "1 Clinic Rd",
        "veterinarian_phone": "608-555-0100",
        "rabies_tag_number": f"RT-{serial}",
        "breed": animal.breed or "Mixed",
        "color": animal.color or "brown",
        **fields,
    }
    return actions.record_vaccination(
        animal,
        acting_user=vet,
        certificate_serial=serial,
        vaccinated_on=vaccinated_on,
        expires_on=expires_on,
        **details,
    )


class Fixtures:
    """Benton and Webster with a clerk each, a county officer serving both, a veterinarian,
    a resident (no role), an outsider serving only Cedarburg, and a dog in Benton."""

    @classmethod
    def build(cls, target):
        call_command("demo", stdout=io.StringIO())
        t = target
        t.benton = Municipality.objects.get(slug="benton")
        t.webster = Municipality.objects.get(slug="webster")
        t.cedarburg = Municipality.objects.get(slug="cedarburg")
        t.clerk = make_user("alice", (t.benton, Role.CLERK))
        t.webster_clerk = make_user("walter", (t.webster, Role.CLERK))
        t.officer = make_user("otto", (t.benton, Role.OFFICER), (t.webster, Role.OFFICER))
        t.vet = make_user("vera", (t.benton, Role.VETERINARIAN))
        t.resident = make_user("rita")
        t.outsider = make_user("oscar", (t.cedarburg, Role.CLERK))
        t.owner = actions.create_person(
            acting_user=t.clerk,
            municipality=t.benton,
            name="Pat Owner",
            street="12 Main St",
            city="Benton",
            postal_code="53803",
            email="pat@example.org",
        )
        t.premises = actions.create_premises(
            acting_user=t.clerk, municipality=t.benton, street="12 Main St", use="single-family"
        )
        t.dog = actions.register_animal(
            acting_user=t.clerk,
            municipality=t.benton,
            owner=t.owner,
            name="Rex",
            breed="Beagle",
            color="tricolor",
            sex="male",
            birth_date=date(2024, 3, 1),
            acquired_on=date(2024, 5, 1),
            microchip="985112000000001",
            premises=t.premises,
        )
        t.vaccination = actions.record_vaccination(
            t.dog,
            acting_user=t.vet,
            certificate_serial="R-1001",
            vaccinated_on=date(2025, 6, 1),
            vaccine_type="killed virus, 3-year",
            vaccine_serial="LOT-77",
            expires_on=date(2028, 6, 1),
            veterinarian_name="Dr. Vera Vet",
            veterinarian_address="1 Clinic Rd, Benton WI",
            veterinarian_phone="608-555-0100",
            rabies_tag_number="RT-555",
        )


def login(client, user):
    """Log in; a user who must give a second factor (an administrator) is given one, verified,
    as the verify page would (tests/accounts/test_login_security.py tests that page itself)."""
    client.force_login(user)
    if second_factor_required(user):
        device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
        device = device or TOTPDevice.objects.create(user=user, name="Test authenticator", confirmed=True)
        session = client.session
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()


class BaseTestCase(TestCase):
    @classmethod
    def setUpTestData(cls):
        Fixtures.build(cls)

    def login(self, user):
        login(self.client, user)


def audit_chain_statements(events: int) -> int:
    """Statements the audit chain adds to an action that writes `events` audit rows: on SQLite
    `audit.chain.append` reads the chain's head and moves it (two per event); on PostgreSQL the
    insert trigger does both inside the INSERT."""
    from django.db import connection

    return 0 if connection.vendor == "postgresql" else 2 * events
