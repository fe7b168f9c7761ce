"""A new forfeiture schedule as an amendment (Webster § 98-20's $100 to $500 for §§ 98-15 to
98-19 and 98-23): a range whose minimum is above its maximum, or a violation the state statute
prices, is refused naming the violation and the section; the preview re-prices the year's
citations, its totals the sum of the one-by-one answers; adopted, it is the law from its effective
date and not before (the apps and `dogtag rules ask`)."""

import io
import json
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.urls import reverse

from dogtag import rules
from dogtag.cli import municipal_rulings
from dogtag.enforcement import actions as enforcement
from dogtag.enforcement import law
from dogtag.enforcement.models import Citation
from dogtag.licensing.law import local_amounts
from dogtag.registry import actions as registry
from dogtag.registry import amending, rulings
from dogtag.registry.actions import adopt_amendment, draft_amendment, void_amendment
from dogtag.registry.models import Amendment
from dogtag.reports import amendment_preview
from dogtag.rules import cli, packs
from tests.base import BaseTestCase, on, text

YEAR = 2026
WORDS = (
    "Section 98-20 is amended to read: Any person violating §§ 98-15, 98-16, 98-17, 98-18, 98-19 or 98-23 "
    "shall be subject to a forfeiture of not less than $150 and not more than $600."
)
# (violation, day): three under the amended schedule, three under schedules it leaves alone
CITED = [
    ("98-15", date(YEAR, 2, 3)),
    ("98-15", date(YEAR, 5, 4)),
    ("98-23", date(YEAR, 7, 8)),
    ("98-6 running at large", date(YEAR, 3, 9)),
    ("98-6 running at large", date(YEAR, 6, 10)),
    ("98-1", date(YEAR, 9, 1)),
]


def draft(municipality, user, violation="98-15", minimum="150.00", maximum="600.00", **kw):
    fields = {
        "kind": "forfeiture_schedule",
        "title": "Raise the forfeitures of § 98-20",
        "section": "§ 98-20",
        "words": WORDS,
        "effective_on": date(2027, 1, 1),
        **kw,
    }
    figures = {"violation": violation, "minimum": Decimal(minimum), "maximum": Decimal(maximum)}
    with on(date(2026, 12, 1)):
        return draft_amendment(municipality, acting_user=user, figures=figures, **fields)


class ForfeitureAmendment(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(YEAR, 11, 20)):
            cls.person = registry.create_person(
                acting_user=cls.webster_clerk,
                municipality=cls.webster,
                name="Sam Cited",
                street="4 Elm St",
                city="Webster",
                postal_code="54893",
            )
            for violation, day in CITED:
                enforcement.issue_citation(
                    acting_user=cls.officer,
                    municipality=cls.webster,
                    person=cls.person,
                    violation=violation,
                    description="as observed",
                    violated_on=day,
                )

    def setUp(self):
        rulings.forget(self.webster.pk)

    def refusal(self, **kw) -> dict:
        with self.assertRaises(ValidationError) as caught:
            draft(self.webster, self.webster_clerk, **kw)
        self.assertFalse(Amendment.objects.exists())
        return caught.exception.message_dict

    def test_a_minimum_above_the_maximum_is_refused_naming_the_violation_and_section(self):
        message = " ".join(self.refusal(minimum="700.00", maximum="600.00")["minimum"])
        self.assertIn("violation 98-15, 98-16, 98-17, 98-18, 98-19, 98-23 (§ 98-20)", message)
        self.assertIn("not less than $700.00 nor more than $600.00", message)
        self.assertTrue(message.startswith("The amended law would not stand: the forfeiture for violation 98-15"))

    def test_a_violation_the_state_prices_or_no_schedule_names_is_refused(self):
        state = " ".join(self.refusal(violation="s. 174.02")["violation"])
        self.assertIn("priced by the state statute (s. 174.02)", state)
        unknown = " ".join(self.refusal(violation="99-1")["violation"])
        self.assertIn("prices violation '99-1'", unknown)
        self.assertIn("98-15", unknown)

    def one_by_one(self, amended: bool) -> tuple[Decimal, Decimal]:
        """Every citation's forfeiture asked alone, under the law in force or as amended."""
        q = rules.get_question("forfeiture")
        amendment = Amendment.objects.get()
        extra = [amendment_preview.engine_amendment(amendment, date(YEAR, 1, 1))] if amended else []
        low = high = Decimal("0.00")
        for c in Citation.objects.filter(municipality=self.webster):
            pack = packs.pack_on(self.webster.rule_pack, c.violated_on, [*rulings.law_of(self.webster.pk), *extra])
            facts = q.facts(violation=c.violation, offense_number=c.offense_number, days=c.days)
            value = q.answer(pack, facts, c.violated_on, local_amounts(self.webster)).value
            low, high = low + value.total_minimum, high + value.total_maximum
        return low, high

    def test_the_preview_reprices_the_years_citations_its_totals_the_sum_of_one_by_one_answers(self):
        amendment = draft(self.webster, self.webster_clerk)
        result = amendment_preview.compare(self.webster, amendment, YEAR)
        self.assertEqual(result["citations"], len(CITED))
        now, then = self.one_by_one(amended=False), self.one_by_one(amended=True)
        self.assertEqual((Decimal(result["minimum"][0]), Decimal(result["maximum"][0])), now)
        self.assertEqual((Decimal(result["minimum"][1]), Decimal(result["maximum"][1])), then)
        self.assertEqual(then[0] - now[0], 3 * Decimal("50.00"))
        self.assertEqual((result["more"], result["less"], result["same"]), (3, 0, 3))
        self.assertEqual(sorted(r[2] for r in result["affected"]), ["98-15", "98-15", "98-23"])
        self.assertEqual({r[9] for r in result["affected"]}, {"50.00"})
        self.assertEqual(result["not_priced"], [0, 0])

    def test_adopted_it_is_the_law_from_its_effective_date_and_not_before(self):
        def asked(day):
            value = law.ask(self.webster, "forfeiture", {"violation": "98-15"}, day).value
            return value.minimum, value.maximum

        def cli_ask(day):
            out = io.StringIO()
            argv = ["rules", "ask", "webster", "forfeiture", "--on", day, "--facts", "-"]
            code = cli.main(argv, stdin=io.StringIO('{"violation": "98-15"}'), stdout=out, municipal=municipal_rulings)
            self.assertEqual(code, 0)
            value = json.loads(out.getvalue())["value"]
            return value["minimum"], value["maximum"]

        amendment = draft(self.webster, self.webster_clerk)
        self.assertEqual(asked(date(2027, 1, 1)), (Decimal("100.00"), Decimal("500.00")))  # a draft changes nothing
        with on(date(2026, 12, 15)):
            adopt_amendment(
                amendment, acting_user=self.webster_clerk, resolution="2026-31", voted_on=date(2026, 12, 14)
            )
        rulings.forget(self.webster.pk)
        self.assertEqual(asked(date(2026, 12, 31)), (Decimal("100.00"), Decimal("500.00")))
        self.assertEqual(asked(date(2027, 1, 1)), (Decimal("150.00"), Decimal("600.00")))
        self.assertEqual(cli_ask("2026-12-31"), ("100.00", "500.00"))
        self.assertEqual(cli_ask("2027-01-01"), ("150.00", "600.00"))
        # the amended schedule names the resolution; a schedule it left alone does not
        amended = law.ask(self.webster, "forfeiture", {"violation": "98-15"}, date(2027, 1, 1))
        self.assertIn("2026-31", amended.citations[0].amended_by or "")
        kept = law.ask(self.webster, "forfeiture", {"violation": "98-1"}, date(2027, 1, 1))
        self.assertIsNone(kept.citations[0].amended_by)
        self.assertEqual(kept.value.minimum, Decimal("100.00"))

    def test_two_schedules_amended_each_keeps_the_other_and_a_void_undoes_only_its_own(self):
        def asked(violation, day=date(2027, 7, 1)):
            return law.ask(self.webster, "forfeiture", {"violation": violation}, day).value.minimum

        first = draft(self.webster, self.webster_clerk)
        words = "Anyone who violates § 98-1 shall be subject to a forfeiture of not less than $120 nor more than $550."
        figures = {"violation": "98-1", "minimum": "120.00", "maximum": "550.00"}
        second = draft(self.webster, self.webster_clerk, words=words, effective_on=date(2027, 6, 1), **figures)
        with on(date(2026, 12, 15)):
            for n, a in enumerate((first, second)):
                adopt_amendment(a, acting_user=self.webster_clerk, resolution=f"2026-4{n}", voted_on=date(2026, 12, 14))
        rulings.forget(self.webster.pk)
        self.assertEqual((asked("98-15"), asked("98-1")), (Decimal("150.00"), Decimal("120.00")))
        self.assertEqual(asked("98-1", date(2027, 5, 31)), Decimal("100.00"))
        with on(date(2026, 12, 16)):
            void_amendment(first, acting_user=self.webster_clerk, reason="recorded against the wrong schedule")
        rulings.forget(self.webster.pk)
        self.assertEqual((asked("98-15"), asked("98-1")), (Decimal("100.00"), Decimal("120.00")))

    def test_the_page_draft_preview_pdf_and_csv(self):
        self.login(self.webster_clerk)
        data = {
            "kind": "forfeiture_schedule",
            "title": "Raise the forfeitures of § 98-20",
            "section": "§ 98-20",
            "words": WORDS,
            "effective_on": "2027-01-01",
            "violation": "98-15",
            "minimum": "150.00",
            "maximum": "600.00",
        }
        with on(date(2026, 12, 1)):
            response = self.client.post(reverse("amendment-new", args=["webster"]), data)
        amendment = Amendment.objects.get()
        self.assertRedirects(response, reverse("amendment", args=[amendment.pk]))
        with on(date(2026, 12, 1)), self.captureOnCommitCallbacks(execute=True):
            self.client.post(reverse("amendment-preview", args=[amendment.pk]), {"year": str(YEAR)})
        page = text(self.client.get(reverse("amendment", args=[amendment.pk])))
        for words in (
            "Forfeiture, not less than</dt><dd>$150.00",
            "6 citations of 2026",
            "Affected citations",
            "Sam Cited",
        ):
            self.assertIn(words, page)
        csv = self.client.get(reverse("amendment", args=[amendment.pk]), {"format": "csv"})
        body = b"".join(csv.streaming_content).decode()
        self.assertIn("Citations that would cost more or less", body)
        self.assertIn("98-23", body)
        pdf = self.client.get(reverse("amendment", args=[amendment.pk]), {"format": "pdf"})
        self.assertTrue(pdf.content.startswith(b"%PDF"))

    def test_a_bad_range_on_the_page_is_a_field_error(self):
        self.login(self.webster_clerk)
        data = {"kind": "forfeiture_schedule", "title": "T", "section": "§ 98-20", "words": WORDS}
        data |= {"effective_on": "2027-01-01", "violation": "98-15", "minimum": "600.00", "maximum": "150.00"}
        with on(date(2026, 12, 1)):
            response = self.client.post(reverse("amendment-new", args=["webster"]), data)
        self.assertEqual(response.status_code, 200)
        self.assertContains(response, "the minimum is above the maximum")
        self.assertFalse(Amendment.objects.exists())


class BentonFeeSchedule(BaseTestCase):
    """Benton's forfeitures are fee-schedule amounts (§ 115-20 and § 1-3 are not transcribed): an
    adopted schedule takes the place of the entries only it read, from its effective date."""

    WORDS = "Section 115-20 is amended: a violation of § 115-3 is subject to a forfeiture of $50 to $300."

    def draft(self, violation):
        fields = {"kind": "forfeiture_schedule", "title": "Forfeitures", "section": "§ 115-20", "words": self.WORDS}
        figures = {"violation": violation, "minimum": Decimal("50.00"), "maximum": Decimal("300.00")}
        with on(date(2026, 12, 1)):
            return draft_amendment(
                self.benton, acting_user=self.clerk, effective_on=date(2027, 1, 1), figures=figures, **fields
            )

    def test_the_fee_schedule_entries_it_takes_the_place_of_are_those_no_other_schedule_reads(self):
        pack = packs.load_pack(self.benton.rule_pack)
        kind = "forfeiture_schedule"
        own = self.draft("115-3")
        keys = amending.fee_schedule_keys(pack, kind, own.provisions)
        self.assertEqual(keys, ("license_forfeiture.minimum", "license_forfeiture.maximum"))
        shared = self.draft("115-5")  # § 1-3's schedule reads the same entries: they still apply
        self.assertEqual(amending.fee_schedule_keys(pack, kind, shared.provisions), ())
        with on(date(2026, 12, 15)):
            adopt_amendment(own, acting_user=self.clerk, resolution="2026-50", voted_on=date(2026, 12, 14))
        rulings.forget(self.benton.pk)
        self.login(self.clerk)
        with on(date(2027, 1, 2)):
            body = " ".join(self.client.get("/m/benton/fees/").content.decode().split())
        self.assertIn("a forfeiture of not less than $50.00 nor more than $300.00 for violation 115-3", body)
        value = law.ask(self.benton, "forfeiture", {"violation": "115-3A(1)"}, date(2027, 1, 1)).value
        self.assertEqual((value.minimum, value.maximum), (Decimal("50.00"), Decimal("300.00")))
