"""Citations: the offense number from the person's history and the engine's forfeiture."""

from datetime import date
from decimal import Decimal

from django.urls import reverse

from dogtag.enforcement.models import Citation
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase
from tests.enforcement.test_complaints import pdf_text
from tests.licensing.base import set_fees


class CitationTests(EnforcementTestCase):
    def cite(self, slug, person, violation, day, **data):
        body = {
            "person": person.pk,
            "violation": violation,
            "description": "dog at large",
            "violated_on": day,
            "days": 1,
            **data,
        }
        return self.post("citation-new", slug, body)

    def test_it_escalates_webster_section_98_6_by_offense_number(self):
        owner, _, dog = self.owner_and_dog("webster", "Repeat")
        self.login(self.chief)
        # § 98-6: "$50 plus court costs for the first offense and $60, $70, $80 and $90 ... for each subsequent"
        for n, (day, amount) in enumerate(
            [("2026-01-05", "50.00"), ("2026-02-05", "60.00"), ("2026-03-05", "70.00")], start=1
        ):
            with on(date.fromisoformat(day)):
                self.assert_posted(self.cite("webster", owner, "98-6 running at large", day, animal=dog.pk))
                c = Citation.objects.latest("pk")
                self.assertEqual((c.offense_number, c.forfeiture, c.plus_costs), (n, Decimal(amount), True))
        with on(date(2026, 4, 5)):
            r = self.cite("webster", owner, "98-6 running at large", "2026-04-05", forfeiture="50.00")
            self.refused(r, "For offense 4 of § 98-6 running at large the forfeiture is $80.00 to $80.00", "§ 98-6")
            # Voiding the third does not erase the history before it, but it no longer counts.
            third = Citation.objects.get(offense_number=3)
            self.assert_posted(self.post("citation-void", third.pk, {"reason": "wrong dog"}))
            self.assert_posted(self.cite("webster", owner, "98-6 running at large", "2026-04-05"))
            self.assertEqual(Citation.objects.latest("pk").offense_number, 3)
            # Which of the three prices of a dog at large governs is a reading: the citation shows it.
            r = self.client.get(reverse("case", args=[Citation.objects.latest("pk").case_id]))
            self.assertContains(r, "Dogtag's reading")
            self.assertContains(r, "a dog at large also violates ch. 174")
            text = pdf_text(self.client.get(reverse("citation-pdf", args=[Citation.objects.latest("pk").pk])))
            self.assertIn("$70.00 plus court costs", text)
            self.assertIn("§ 98-6", text)

    def test_it_refuses_what_the_text_leaves_without_a_figure(self):
        owner, _, _ = self.owner_and_dog("webster", "Quiet")
        b_owner, _, _ = self.owner_and_dog("benton", "Loud")
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            # § 98-20 sets a range for §§ 98-7 to 98-14 only "for subsequent violations"
            r = self.cite("webster", owner, "98-12", "2026-03-01")
            self.refused(r, "no forfeiture for offense number 1")
            # ... which is Dogtag's reading: the officer sees the other one and what it would change.
            self.assertContains(r, "the other reading: ")
            self.assertContains(r, "could be cited, at $100 to $500")
            # Benton § 1-3 is not in the transcription: the clerk must set the range first.
            self.refused(self.cite("benton", b_owner, "115-5C", "2026-03-01"), "forfeiture — minimum” is not set")
            # A section of another ordinance (Webster's § 98-6) is named as not Benton's, not a server error.
            refusal = self.cite("benton", b_owner, "98-6", "2026-03-01")
            self.refused(refusal, "no forfeiture for violation", "known: 115-")
            set_fees(
                self.clerks["benton"],
                self.places["benton"],
                {"forfeiture.minimum": "25.00", "forfeiture.maximum": "200.00"},
                effective_on=date(2026, 1, 1),
            )
            # § 115-5D(1): "A separate offense shall be deemed committed on each day"
            self.assert_posted(
                self.cite(
                    "benton", b_owner, "115-5C", "2026-03-01", days=3, forfeiture="40.00", court_date="2026-04-15"
                )
            )
            c = Citation.objects.latest("pk")
            self.assertEqual((c.minimum, c.maximum, c.days), (Decimal("25.00"), Decimal("200.00"), 3))
            self.assertEqual(self.deadline(c.case, "court").due_on, date(2026, 4, 15))
            self.refused(self.cite("webster", owner, "98-6 running at large", "2026-03-01", days=2), "separate offense")
        self.assertEqual(Citation.objects.count(), 1)

    def test_it_keeps_a_cured_citation_and_closes_it_when_paid(self):
        owner, _, dog = self.owner_and_dog("river-hills", "Unlicensed")
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            # § 2.14(8): "not less than Ten ($10.00) Dollars nor more than Two Thousand"
            self.refused(
                self.cite("river-hills", owner, "2.14(3)[g]", "2026-03-01", forfeiture="5.00"),
                "$10.00 to $2000.00",
                "§ 2.14(8)",
            )
            self.assert_posted(self.cite("river-hills", owner, "2.14(3)[g]", "2026-03-01", forfeiture="100.00"))
            c = Citation.objects.get()
        with on(date(2026, 3, 4)):
            self.assert_posted(
                self.post("citation-cure", c.pk, {"cured_on": "2026-03-04", "cure_note": "2026 license 17 issued"})
            )
            self.assert_posted(self.post("citation-paid", c.pk, {"paid_on": "2026-03-04"}))
        c.refresh_from_db()
        self.assertEqual((c.cured_on, c.paid_on, c.voided_at), (date(2026, 3, 4), date(2026, 3, 4), None))
        self.assertEqual(c.case.closed_on, date(2026, 3, 4))


class StatuteCitedTests(EnforcementTestCase):
    def test_a_statute_violated_is_cited_as_the_statute_without_a_section_sign(self):
        owner, _, dog = self.owner_and_dog("benton", "Untagged")
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            r = self.post(
                "citation-new",
                "benton",
                {"person": owner.pk, "animal": dog.pk, "violation": "s. 174.042", "description": "unlicensed",
                 "violated_on": "2026-03-01", "days": 1},
            )  # fmt: skip
            self.assert_posted(r)
            citation = Citation.objects.latest("pk")
            self.assertEqual(citation.case.title, f"s. 174.042: {owner}")
            page = self.client.get(reverse("case", args=[citation.case_id]))
            self.assertContains(page, "s. 174.042: unlicensed")
            text = pdf_text(self.client.get(reverse("citation-pdf", args=[citation.pk])))
            for shown in (page.content.decode(), text, str(citation)):
                self.assertIn("s. 174.042", shown)
                self.assertNotIn("§ s.", shown)
