"""Text that people type is escaped exactly once: never in a plain-text email or its subject,
once in the HTML part and once on the outbox page."""

import io
from datetime import date

from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from dogtag.licensing import actions
from dogtag.outbox.models import Message
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, on, vaccinate
from tests.licensing.base import BENTON_FEES, set_fees

NAME, DOG = "Pat O'Brien", 'Mittens & "Boots"'


class EscapingTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        set_fees(cls.clerk, cls.benton, BENTON_FEES)
        actions.receive_tag_lot(
            acting_user=cls.clerk, municipality=cls.benton, license_year=2026, first_serial=1, last_serial=9
        )
        registry.update_person(cls.owner, acting_user=cls.clerk, name=NAME)
        with on(date(2026, 2, 2)):
            dog = registry.register_animal(
                acting_user=cls.clerk,
                municipality=cls.benton,
                owner=cls.owner,
                name=DOG,
                sex="male",
                birth_date=date(2020, 1, 1),
            )
            vaccinate(dog, cls.vet, "R-M", date(2025, 6, 1), date(2028, 6, 1))
            actions.issue_license(dog, acting_user=cls.clerk, payment={"method": "cash", "amount": "10.00"})

    @on(date(2026, 12, 1))
    def test_an_email_and_the_outbox_show_names_as_typed(self):
        with self.captureOnCommitCallbacks(execute=True):
            call_command("renewals", "2027", "--municipality", "benton", stdout=io.StringIO(), stderr=io.StringIO())
        message = Message.objects.get(subject__contains="Mittens")
        self.assertEqual(message.subject, f"2027 license renewal for {DOG} — Village of Benton")
        self.assertIn(f"Dear {NAME},", message.text)
        self.assertIn(f"{DOG}'s license", message.text)
        self.assertIn("Mittens &amp; &quot;Boots&quot;", message.html)
        self.assertNotIn("&amp;amp;", message.html)
        sent = next(m for m in mail.outbox if "Mittens" in m.subject)
        self.assertIn(f"Dear {NAME},", sent.body)
        self.login(self.clerk)
        r = self.client.get(reverse("outbox", args=["benton"]))
        self.assertContains(r, "Mittens &amp; &quot;Boots&quot;")
        self.assertNotContains(r, "&amp;amp;")
        self.assertNotContains(r, "&amp;quot;")
