"""The year-end list of tags to return (s. 174.07(3)(b)), stored by the worker's daily task on
the date the rule pack sets, once."""

import csv
import io
from datetime import date

from django.core.files.storage import default_storage
from django.urls import reverse
from pypdf import PdfReader

from dogtag.audit.models import AuditEvent
from dogtag.licensing import actions, tasks
from dogtag.licensing.models import Tag, TagReturnList
from tests.base import BaseTestCase, on, text


class TagReturnListTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        actions.receive_tag_lot(
            acting_user=cls.clerk,
            municipality=cls.benton,
            license_year=2026,
            first_serial=1,
            last_serial=4,
            received_on=date(2026, 1, 2),
        )
        Tag.objects.filter(municipality=cls.benton, serial=2).update(status=Tag.Status.VOIDED)

    def test_the_tags_page_counts_each_years_tags_by_status(self):
        self.login(self.clerk)
        r = self.client.get(reverse("tags", args=["benton"]), {"format": "csv"})
        rows = list(csv.reader(io.StringIO(text(r))))
        self.assertEqual(
            rows[1:3],
            [
                ["License year", "In stock", "Issued", "Voided", "Lost", "Tag roll"],
                ["2026", "3", "0", "1", "0", "tag-roll-benton-2026.pdf"],
            ],
        )
        r = self.client.get(reverse("tags", args=["benton"]))
        self.assertContains(r, f'href="{reverse("tag-return", args=["benton", 2026])}"')

    def test_nothing_is_stored_before_the_return_date(self):
        with on(date(2026, 12, 30)):
            tasks.store_tag_return_lists()
        self.assertFalse(TagReturnList.objects.filter(municipality=self.benton, license_year=2026).exists())

    def test_it_is_stored_once_on_december_31_and_served_to_the_clerk(self):
        with on(date(2026, 12, 31), hour=5):
            self.assertIn("benton 2026", tasks.store_tag_return_lists())
            self.assertNotIn("benton 2026", tasks.store_tag_return_lists())  # once
        stored = TagReturnList.objects.get(municipality=self.benton, license_year=2026)
        self.assertEqual((stored.return_by, stored.tags), (date(2026, 12, 31), 4))
        with default_storage.open(stored.pdf, "rb") as f:
            text = PdfReader(f).pages[0].extract_text()
        self.assertIn("returned to the Lafayette\nCounty Clerk", text)
        self.assertIn("174.07(3)(b)", text)
        self.assertEqual(
            AuditEvent.objects.filter(action="tags.return_list_stored", object_id=str(stored.pk)).count(), 1
        )
        self.login(self.clerk)
        page = self.client.get(reverse("tag-return", args=["benton", 2026]))
        self.assertContains(page, reverse("tag-return-list", args=[stored.pk]))
        self.assertEqual(
            self.client.get(reverse("tag-return-list", args=[stored.pk]))["Content-Type"], "application/pdf"
        )

    def test_a_worker_down_on_the_day_stores_it_the_next_morning(self):
        with on(date(2027, 1, 1), hour=5):
            tasks.store_tag_return_lists()
        self.assertTrue(TagReturnList.objects.filter(municipality=self.benton, license_year=2026).exists())
