"""Complaints: barking becomes a violation the moment the second formal written complaint falls
within four weeks (Benton § 115-11, Webster § 98-12); Cedarburg's at-large procedure and petition."""

import io
from datetime import date

from django.urls import reverse
from pypdf import PdfReader

from dogtag.enforcement.models import Case, Complaint
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase


def pdf_text(response) -> str:
    reader = PdfReader(io.BytesIO(response.content))
    return " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)


class ComplaintTests(EnforcementTestCase):
    def complain(self, slug, dog, filed_on, kind="barking", formal="on", **extra):
        data = {
            "kind": kind,
            "complainant_name": "Nell Neighbor",
            "complainant_address": "11 Elm St",
            "animal": dog.pk,
            "observed_on": filed_on,
            "observed_time": "2:00 AM",
            "place": "9 Elm St",
            "filed_on": filed_on,
            **extra,
        }
        if formal:
            data["formal_written"] = formal
        self.assert_posted(self.post("complaint-new", slug, data))
        return Complaint.objects.latest("pk")

    def test_it_finds_a_benton_barking_violation_when_the_second_complaint_is_filed_on_day_28(self):
        _, _, dog = self.owner_and_dog("benton", "Yapper")
        self.login(self.clerks["benton"])
        with on(date(2026, 3, 2)):
            first = self.complain("benton", dog, "2026-03-02")
            self.assertFalse(first.finding["value"]["violation"])
        with on(date(2026, 3, 15)):
            informal = self.complain("benton", dog, "2026-03-15", formal=None)
            self.assertFalse(informal.finding["value"]["violation"])
        with on(date(2026, 3, 30)):
            # § 115-11: "two formal, written complaints ... within a four-week period": March 2 and March 30.
            second = self.complain("benton", dog, "2026-03-30")
            self.assertTrue(second.finding["value"]["violation"])
            self.assertEqual(second.case_id, first.case_id)
            page = self.client.get(reverse("case", args=[second.case_id])).content.decode()
            self.assertIn("Violation", page)
            self.assertIn("§ 115-11", page)
        self.assertEqual(Case.objects.filter(kind="complaint").count(), 1)

    def test_it_finds_no_webster_violation_when_the_second_complaint_comes_on_day_29(self):
        _, _, dog = self.owner_and_dog("webster", "Howler")
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            self.complain("webster", dog, "2026-03-02")
        with on(date(2026, 3, 31)):
            second = self.complain("webster", dog, "2026-03-31")
            self.assertFalse(second.finding["value"]["violation"])
            self.assertEqual(second.finding["citations"][0]["section"], "§ 98-12")
        with on(date(2026, 4, 20)):
            third = self.complain("webster", dog, "2026-04-20")
            self.assertEqual(third.finding["value"]["complaints_from"], "2026-03-31")

    def test_it_refuses_a_complaint_about_nobody(self):
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            r = self.post(
                "complaint-new",
                "webster",
                {"kind": "feces", "complainant_name": "N", "observed_on": "2026-03-02", "place": "park"},
            )
            self.refused(r, "Name the animal or its owner, or describe the animal.")
            r = self.post(
                "complaint-new",
                "webster",
                {
                    "kind": "feces",
                    "complainant_name": "N",
                    "observed_on": "2026-03-05",
                    "place": "park",
                    "animal_description": "poodle",
                },
            )
            self.refused(r, "after the complaint was filed")
        self.assertFalse(Complaint.objects.exists())

    def test_it_walks_cedarburgs_at_large_procedure_to_the_petition(self):
        owner, _, dog = self.owner_and_dog("cedarburg", "Roamer")
        self.login(self.chief)
        with on(date(2026, 4, 1)):
            complaint = self.complain("cedarburg", dog, "2026-04-01", kind="at-large", formal=None)
            # § 7-1-6(c)(2): "The Police Department shall notify the owner of that dog, in writing"
            self.assertEqual(complaint.finding["value"]["next_step"], "police_written_notice")
            notice = self.client.get(reverse("complaint-notice-pdf", args=[complaint.pk]))
            self.assertIn("was observed at large at 9 Elm St", pdf_text(notice))
            r = self.post("complaint-next-step", complaint.pk, {"observed_again_on": "2026-04-03"})
            self.refused(r, "Record the written notice")
            self.assert_posted(self.post("complaint-next-step", complaint.pk, {"police_notice_on": "2026-04-02"}))
        with on(date(2026, 4, 10)):
            self.assert_posted(self.post("complaint-next-step", complaint.pk, {"observed_again_on": "2026-04-10"}))
            complaint.refresh_from_db()
            self.assertEqual(complaint.finding["value"]["next_step"], "petition_city_attorney")
            text = pdf_text(self.client.get(reverse("complaint-petition-pdf", args=[complaint.pk])))
        # The items § 7-1-6(c)(2) lists, each filled in.
        for item in (
            "Name and address of complainant(s)",
            "Description of dog(s) and address of owner",
            "Dates and times violations were noted",
            "Date reported to Police Department",
        ):
            self.assertIn(item, text)
        for fact in (
            "Nell Neighbor, 11 Elm St",
            "Roamer",
            owner.name,
            "April 1, 2026 2:00 AM",
            "April 10, 2026",
            "Police notice to the owner: April 2, 2026",
            "§ 7-1-6(c)(2)",
        ):
            self.assertIn(fact, text)

    def test_it_finds_a_sampson_barking_violation_only_after_the_written_notice(self):
        _, _, dog = self.owner_and_dog("sampson", "Bellow")
        self.login(self.clerks["sampson"])
        with on(date(2026, 5, 4)):
            complaint = self.complain("sampson", dog, "2026-05-04")
            self.assertFalse(complaint.finding["value"]["violation"])
            self.assertEqual(complaint.finding["citations"][0]["section"], "Ord. 3-2007 Section 5D")
        with on(date(2026, 5, 12)):
            self.assert_posted(self.post("complaint-next-step", complaint.pk, {"police_notice_on": "2026-05-08"}))
            r = self.post("complaint-next-step", complaint.pk, {"observed_again_on": "2026-05-08"})
            self.refused(r, "The repeat comes after the written notice of May 8, 2026")
            # Section 5D: barking "after receipt of written notice from the Town Board"
            self.assert_posted(self.post("complaint-next-step", complaint.pk, {"observed_again_on": "2026-05-11"}))
            complaint.refresh_from_db()
            self.assertTrue(complaint.finding["value"]["violation"])
            page = self.client.get(reverse("case", args=[complaint.case_id])).content.decode()
            self.assertIn("noise on May 11, 2026 after the written notice received May 8, 2026", page)
