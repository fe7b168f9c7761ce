"""A printable warning letter for a case's first barking complaint: the owner's address, what was
heard where and when, and the ordinance's own words; none for a later complaint or another kind."""

from datetime import date

from django.urls import reverse

from dogtag.enforcement.models import Complaint
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase
from tests.enforcement.test_complaints import pdf_text


class WarningLetterTests(EnforcementTestCase):
    def complain(self, slug, dog, filed_on, kind="barking"):
        data = {"kind": kind, "complainant_name": "Nell Neighbor", "animal": dog.pk, "observed_on": filed_on,
                "observed_time": "2:00 AM", "place": "9 Elm St", "filed_on": filed_on,
                "formal_written": "on"}  # fmt: skip
        self.assert_posted(self.post("complaint-new", slug, data))
        return Complaint.objects.latest("pk")

    def test_the_first_barking_complaint_has_a_warning_letter_quoting_the_ordinance(self):
        owner, _, dog = self.owner_and_dog("benton", "Yapper")
        self.login(self.clerks["benton"])
        with on(date(2026, 3, 2)):
            first = self.complain("benton", dog, "2026-03-02")
            page = self.client.get(reverse("case", args=[first.case_id]))
            self.assertContains(page, reverse("complaint-warning-pdf", args=[first.pk]))
            letter = pdf_text(self.client.get(reverse("complaint-warning-pdf", args=[first.pk])))
        self.assertIn("Warning: a complaint about a barking dog", letter)
        self.assertIn(owner.name, letter)
        self.assertIn(owner.street, letter)
        self.assertIn("on March 2, 2026 at about 2:00 AM your dog, Yapper, barked at 9 Elm St", letter)
        self.assertIn("§ 115-11", letter)
        self.assertIn(" ".join(first.finding["citations"][0]["quote"].split()), letter)
        with on(date(2026, 3, 9)):
            second = self.complain("benton", dog, "2026-03-09")
            # A second complaint (here: the violation) has no warning letter; the first keeps its own.
            self.assertEqual(self.client.get(reverse("complaint-warning-pdf", args=[second.pk])).status_code, 404)
            page = self.client.get(reverse("case", args=[first.case_id]))
            self.assertNotContains(page, reverse("complaint-warning-pdf", args=[second.pk]))

    def test_an_at_large_complaint_has_no_barking_warning_letter(self):
        _, _, dog = self.owner_and_dog("cedarburg", "Roamer")
        self.login(self.clerks["cedarburg"])
        with on(date(2026, 3, 2)):
            c = self.complain("cedarburg", dog, "2026-03-02", kind="at-large")
            self.assertEqual(self.client.get(reverse("complaint-warning-pdf", args=[c.pk])).status_code, 404)
