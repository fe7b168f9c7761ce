"""Before a renewal run the clerk sees who would be notified: the count by channel (email, paper)
and the recipients in printed order, a page at a time; then confirms, and the run commits exactly
those notices (issue 29: renewals ran with one button and no preview)."""

from datetime import date

from django.urls import reverse

from dogtag.licensing.models import RenewalNotice, RenewalRun
from dogtag.portal.models import ReminderOptOut
from dogtag.registry.models import Person
from tests.base import BaseTestCase, on
from tests.licensing.base import counter_ready
from tests.licensing.bulk import licensed_dogs


@on(date(2026, 12, 1))
class RenewalPreviewTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        counter_ready(cls, 1, 9)
        # 30 dogs licensed for 2026: every third owner without an email address, one opted out.
        licensed_dogs(cls.benton, cls.clerk, 30, year=2026, emailed=lambda i: i % 3 != 0)
        ReminderOptOut.objects.create(municipality=cls.benton, person=Person.objects.get(name="Owner 00001"))

    def preview(self, **params):
        self.login(self.clerk)
        return self.client.get(reverse("renewals-preview", args=["benton"]), params)

    def test_the_renewals_page_leads_to_the_preview_not_straight_to_a_run(self):
        self.login(self.clerk)
        page = self.client.get(reverse("renewals", args=["benton"]))
        self.assertContains(page, reverse("renewals-preview", args=["benton"]))
        main = page.content.decode().split('<main id="main">')[1]
        self.assertNotIn("<form", main)  # no run started from here in one click

    def test_the_preview_counts_by_channel_lists_a_page_and_writes_nothing(self):
        r = self.preview()
        self.assertEqual((r.context["preview"].total, r.context["preview"].by_email), (30, 19))
        self.assertEqual(r.context["preview"].by_paper, 11)
        self.assertContains(r, "<strong>30 notices</strong>", html=True)
        rows = r.context["rows"]
        self.assertEqual([row["animal"] for row in rows][:2], ["Dog 00000", "Dog 00001"])
        self.assertEqual(len(rows), 25)
        self.assertEqual((rows[0]["by_email"], rows[1]["by_email"], rows[2]["by_email"]), (False, False, True))
        self.assertContains(r, "Page 1 of 2 (30 in all)")
        second = self.preview(page=2).context["rows"]
        self.assertEqual([row["animal"] for row in second], [f"Dog {i:05d}" for i in range(25, 30)])
        self.assertFalse(RenewalRun.objects.exists())
        self.assertFalse(RenewalNotice.objects.exists())

    def test_confirming_starts_the_run_with_the_notices_previewed(self):
        preview = self.preview().context["preview"]
        self.assertContains(self.preview(), f'action="{reverse("renewals", args=["benton"])}"')
        with self.captureOnCommitCallbacks(execute=False):
            self.client.post(reverse("renewals", args=["benton"]))
        run = RenewalRun.objects.get()
        self.assertEqual((run.notices_created, run.emails_queued), (preview.total, preview.by_email))
        self.assertEqual(self.preview().context["preview"].total, 0)  # a second run would add none

    def test_another_municipalitys_clerk_cannot_preview_it(self):
        self.login(self.outsider)
        self.assertEqual(self.client.get(reverse("renewals-preview", args=["benton"])).status_code, 404)
