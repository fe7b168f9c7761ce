"""Every time shown to a person is the municipality's (America/Chicago), in words: the day's close
on screen, as CSV and as PDF, the renewal runs, the outbox and the history (issue 29, bug 2)."""

from datetime import date, datetime

import time_machine
from django.urls import reverse

from dogtag.licensing import actions
from tests.base import CHICAGO, BaseTestCase, text
from tests.enforcement.test_complaints import pdf_text
from tests.licensing.base import benton_license, benton_renewal_run

# 9:21 AM in Benton is 15:21 in UTC.
AT = datetime(2026, 2, 10, 9, 21, 47, tzinfo=CHICAGO)


class LocalTimeTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with time_machine.travel(AT, tick=False):
            cls.fee, cls.license = benton_license(cls, on=date(2026, 2, 10))

    def setUp(self):
        self.login(self.clerk)
        self.clock = time_machine.travel(AT, tick=False)
        self.clock.start()
        self.addCleanup(self.clock.stop)

    def assert_local(self, body, *, words=True):
        self.assertNotIn("15:21", body)
        self.assertNotIn("2026-02-10T", body)
        if words:
            self.assertIn("9:21 AM", body)

    def test_the_days_close_shows_payment_times_in_benton_in_words(self):
        url = reverse("report-day-close", args=["benton"])
        self.assert_local(self.client.get(url, {"day": "2026-02-10"}).content.decode())
        self.assert_local(pdf_text(self.client.get(url, {"day": "2026-02-10", "format": "pdf"})))
        csv = text(self.client.get(url, {"day": "2026-02-10", "format": "csv"}))
        self.assert_local(csv, words=False)
        self.assertIn("09:21", csv)

    def test_renewal_runs_and_the_outbox_show_local_times_in_words(self):
        benton_renewal_run(self)
        self.assert_local(self.client.get(reverse("renewals", args=["benton"])).content.decode())
        self.assert_local(self.client.get(reverse("outbox", args=["benton"])).content.decode())

    def test_the_history_shows_a_changed_time_in_words(self):
        actions.void_license(self.license, acting_user=self.clerk, reason="entered twice")
        body = self.client.get(reverse("municipality", args=["benton"])).content.decode()
        self.assertIn("February 10, 2026, 9:21 AM", body)
        self.assert_local(body)
