"""Owners report a pet lost, found again, deceased or moved away (issue 30 §3): on the portal
through the signed link their renewal gives them, or at the counter through the clerk."""

from datetime import date

from dogtag.audit.models import AuditEvent
from dogtag.lib import links
from dogtag.licensing.actions import report_animal
from dogtag.licensing.models import Tag
from dogtag.licensing.renewals import NoticePreview
from dogtag.registry.models import Animal, AnimalReport
from tests.base import BaseTestCase, on
from tests.licensing.base import benton_license


@on(date(2026, 2, 10))
class OwnerReportTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(2026, 2, 10)):
            cls.fee, cls.license = benton_license(cls)
        cls.pet_path = f"/pet/{links.pet_token(cls.dog.pk)}/"

    def report(self, kind, day="2026-02-09", note=""):
        return self.client.post(self.pet_path, {"kind": kind, "happened_on": day, "note": note})

    def test_the_owner_reports_rex_lost_and_then_found_and_the_lookup_follows(self):
        r = self.report("lost", note="Ran off near the park")
        self.assertRedirects(r, self.pet_path)
        self.dog.refresh_from_db()
        self.assertEqual(self.dog.status, Animal.Status.MISSING)
        page = self.client.get(self.pet_path)
        self.assertContains(page, "reported lost")
        self.assertContains(page, "Reported lost on February 9, 2026")
        found = self.client.get("/found/", {"q": "RT-555"})
        self.assertContains(found, "Its owner has reported Rex lost.")
        self.assertNotContains(found, "Pat Owner")
        self.assertEqual(self.report("found", day="2026-02-10").status_code, 302)
        self.dog.refresh_from_db()
        self.assertEqual(self.dog.status, Animal.Status.ACTIVE)
        self.assertNotContains(self.client.get("/found/", {"q": "RT-555"}), "reported Rex lost")
        reports = list(AnimalReport.objects.filter(animal=self.dog).order_by("pk"))
        self.assertEqual(
            [(r.kind, r.by_owner, r.reported_by) for r in reports], [("lost", True, None), ("found", True, None)]
        )
        self.assertEqual(AuditEvent.objects.filter(action="animal.report").count(), 2)

    def renewal_notice_names(self) -> list[str]:
        """The animals a 2027 renewal run started on December 1, 2026 would notify (its own query)."""
        preview = NoticePreview(self.benton, 2027, date(2026, 12, 1))
        return [row["animal"] for row in preview[0 : len(preview)]]

    def test_deceased_stops_notices_retires_the_tag_and_keeps_the_history(self):
        tag = self.license.current_tag
        self.assertIn(self.dog.name, self.renewal_notice_names())  # while at home, Rex is due one
        self.assertEqual(self.report("died").status_code, 302)
        self.dog.refresh_from_db()
        self.license.refresh_from_db()
        tag.refresh_from_db()
        self.assertEqual(self.dog.status, Animal.Status.DIED)
        self.assertEqual(tag.status, Tag.Status.VOIDED)
        self.assertIsNone(self.license.voided_at)  # the license stands, paid for as it was
        self.assertTrue(
            AuditEvent.objects.filter(action="license.retire_tags", object_id=str(self.license.pk)).exists()
        )
        self.assertContains(self.client.get("/found/", {"q": str(tag.serial)}), "No dog with tag")
        # The renewal run notices active animals only: no notice for Rex.
        self.assertNotIn(self.dog.name, self.renewal_notice_names())
        page = self.client.get(self.pet_path)
        self.assertContains(page, "Nothing more can be reported online")
        self.assertContains(page, "Deceased on February 9, 2026")

    def test_a_report_that_does_not_fit_the_record_is_refused_and_changes_nothing(self):
        before = AuditEvent.objects.count()
        r = report_animal  # the action itself, as the API or a test would call it
        with self.assertRaisesMessage(Exception, "Rex is not reported lost (recorded as at home)"):
            r(self.dog, kind="found", happened_on=date(2026, 2, 9), by_owner=True)
        page = self.report("lost", day="2026-03-01")
        self.assertContains(page, "The date March 1, 2026 is in the future", status_code=200)
        page = self.report("lost", day="2024-01-01")
        self.assertContains(page, "before Rex&#x27;s birth date March 1, 2024")
        page = self.report("", day="2026-02-09")
        self.assertContains(page, "This field is required")
        self.assertEqual(AuditEvent.objects.count(), before)
        self.dog.refresh_from_db()
        self.assertEqual(self.dog.status, Animal.Status.ACTIVE)

    def test_a_forged_link_opens_nothing(self):
        self.assertEqual(self.client.get("/pet/not-a-token/").status_code, 404)
        other = links.unsubscribe_token(self.dog.pk)  # signed, but for another purpose
        self.assertEqual(self.client.get(f"/pet/{other}/").status_code, 404)

    def test_the_clerk_records_a_move_at_the_counter_and_both_pages_show_it(self):
        self.login(self.clerk)
        r = self.client.post(f"/animals/{self.dog.pk}/report/", {"kind": "moved-away", "happened_on": "2026-02-01",
                                                                  "note": "Moved to Madison"})  # fmt: skip
        self.assertRedirects(r, f"/animals/{self.dog.pk}/")
        report = AnimalReport.objects.get()
        self.assertEqual((report.reported_by, report.by_owner), (self.clerk, False))
        self.dog.refresh_from_db()
        self.assertEqual(self.dog.status, Animal.Status.MOVED_AWAY)
        for page in (f"/animals/{self.dog.pk}/", f"/people/{self.owner.pk}/"):
            r = self.client.get(page)
            self.assertContains(r, "Moved away")
            self.assertContains(r, "February 1, 2026")
            self.assertContains(r, "Moved to Madison")

    def test_only_the_municipalitys_clerks_record_a_report(self):
        self.login(self.webster_clerk)
        r = self.client.post(f"/animals/{self.dog.pk}/report/", {"kind": "lost", "happened_on": "2026-02-09"})
        self.assertEqual(r.status_code, 404)
        self.login(self.officer)
        r = self.client.post(f"/animals/{self.dog.pk}/report/", {"kind": "lost", "happened_on": "2026-02-09"})
        self.assertIn(r.status_code, (403, 404))
        self.assertFalse(AnimalReport.objects.exists())

    def test_a_renewal_links_the_owner_to_their_pets_page(self):
        from dogtag.portal.actions import start_renewal

        application = start_renewal(self.dog, 2027)
        r = self.client.get(f"/apply/a/{application.token}/")
        self.assertContains(r, self.pet_path)
