"""The licensing tests' shared setups: Benton's fee schedule, a lot of tags in stock, a license
issued, an API token at the counter. A test class builds on these instead of repeating them."""

import json
from datetime import date
from decimal import Decimal

from dogtag.accounts.actions import issue_api_token
from dogtag.licensing import actions
from tests.base import BaseTestCase

BENTON_FEES = {"license_tax.altered": "5.00", "license_tax.unaltered": "10.00", "late_fee": "5.00"}


def set_fees(clerk, municipality, fees: dict, effective_on=date(2023, 2, 15), authority="Res. 2023-01"):
    return [
        actions.set_fee(
            acting_user=clerk,
            municipality=municipality,
            key=key,
            amount=Decimal(amount),
            effective_on=effective_on,
            authority=authority,
        )
        for key, amount in fees.items()
    ]


def receive_tags(t, first: int, last: int, year=2026):
    """A lot of Benton's `year` tags, serials `first` to `last`, received from the county on January 2."""
    return actions.receive_tag_lot(
        acting_user=t.clerk,
        municipality=t.benton,
        license_year=year,
        first_serial=first,
        last_serial=last,
        received_on=date(year, 1, 2),
    )


def counter_ready(t, first: int, last: int, year=2026):
    """Benton's fee schedule set and a lot of tags in stock: the counter can issue."""
    fees = set_fees(t.clerk, t.benton, BENTON_FEES)
    receive_tags(t, first, last, year)
    return fees


class CounterApiTestCase(BaseTestCase):
    """The counter ready (tags 300 to 310) and the clerk's API token."""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        counter_ready(cls, 300, 310)
        cls.token = issue_api_token(acting_user=cls.clerk, user=cls.clerk, name="counter script")[1]

    def call(self, method, path, body=None):
        return self.client.generic(
            method,
            f"/api/v1{path}",
            json.dumps(body) if body is not None else "",
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {self.token}",
        )

    def api(self, path):
        return self.client.get(f"/api/v1{path}", HTTP_AUTHORIZATION=f"Bearer {self.token}")


def benton_license(t, on=date(2026, 2, 10)):
    """Benton's fee schedule set, a tag lot received (1001 to 1100), and Rex licensed on `on`."""
    fees = counter_ready(t, 1001, 1100, on.year)
    license = actions.issue_license(t.dog, acting_user=t.clerk, payment={"amount": "10.00", "method": "cash"}, on=on)
    return fees[0], license


def benton_renewal_run(t):
    """A 2027 renewal run for Benton, printed (after `benton_license`)."""
    from django.db import connection

    from dogtag.licensing.actions import start_renewal_run

    with t.captureOnCommitCallbacks(using=connection.alias, execute=True):
        run = start_renewal_run(acting_user=t.clerk, municipality=t.benton, license_year=t.license.license_year + 1)
    run.refresh_from_db()
    t.renewal_chunk = run.chunks.get()
    return run


def benton_reminder_letters(t):
    """Rex's 30-day renewal reminder printed as a letter (after `benton_license`)."""
    from datetime import timedelta

    from dogtag.licensing.models import RenewalReminder
    from tests.base import on

    day = t.license.expires_on - timedelta(days=30)
    with on(day):
        actions.sweep_renewal_reminders(day)
        RenewalReminder.objects.filter(municipality=t.benton).update(channel=RenewalReminder.Channel.PAPER)
        actions.deliver_renewal_reminders(day)
    t.reminder_letters = t.benton.reminderletters_set.get()
    return t.reminder_letters


def benton_replacement_tag(t):
    """Rex's lost tag replaced for the $3.00 charge the board set (after `benton_license`)."""
    actions.set_fee(acting_user=t.clerk, municipality=t.benton, key="replacement_tag", amount=Decimal("3.00"),
                    effective_on=date(2026, 1, 1), authority="Res. 2026-4")  # fmt: skip
    return actions.replace_tag(t.license, acting_user=t.clerk, payment={"method": "cash", "amount": "3.00"})
