"""The portal's quote is the counter's decision on the register's facts, with the application's
certificate (not yet saved) given as one of them: it counts, and nothing is written."""

import re
from datetime import date

from dogtag.licensing.facts import read_facts
from dogtag.licensing.owed import what_is_owed
from dogtag.outbox.models import Message
from dogtag.portal.models import Application
from dogtag.portal.quote import proposed_animal, quote
from dogtag.registry.models import RabiesVaccination
from tests.base import BaseTestCase, on
from tests.licensing.base import benton_license, benton_renewal_run

DAY = date(2026, 12, 2)


class QuoteTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(2026, 2, 10)):
            cls.fee, cls.license = benton_license(cls)
        with on(date(2026, 12, 1)):
            benton_renewal_run(cls)

    def renewal(self):
        text = Message.objects.get(kind="renewal-notice").text
        self.client.get(re.search(r"https?://[^/\s]+(/renew/\S+/)", text).group(1))
        return Application.objects.get()

    @on(DAY)
    def test_the_applications_certificate_counts_without_being_saved(self):
        app = self.renewal()  # R-1001, a first shot of June 2025: current through May 31, 2026
        self.assertIn("vaccination", [r.field for r in quote(app, DAY).refusals])
        app.data = {
            **app.data,
            "certificate_serial": "R-2002",
            "vaccinated_on": "2026-11-30",
            "expires_on": "2029-11-30",
        }
        saved = RabiesVaccination.objects.count()
        owed = quote(app, DAY)
        self.assertEqual([r.field for r in owed.refusals], [])
        self.assertEqual((owed.license_year, owed.vaccination.certificate_serial), (2027, "R-2002"))
        self.assertEqual(RabiesVaccination.objects.count(), saved)

    @on(DAY)
    def test_the_decision_reads_nothing_once_the_facts_are_read(self):
        app = self.renewal()
        facts = read_facts(proposed_animal(app), DAY, app.license_year)
        self.assertEqual([v.certificate_serial for v in facts.certificates], ["R-1001"])
        with self.assertNumQueries(0):
            owed = what_is_owed(facts)
        self.assertIn("vaccination", [r.field for r in owed.refusals])
