"""An adopted amendment is the source of the figures it sets: its resolution number and date stand
beside the section it amends in every answer that reads them (`rules ask`, the API, the why-box),
from its effective date; earlier answers name no amendment."""

import io
import json
from datetime import date
from decimal import Decimal

from dogtag.cli import municipal_rulings
from dogtag.licensing import law
from dogtag.registry import rulings
from dogtag.registry.actions import adopt_amendment, draft_amendment
from dogtag.rules import cli
from tests.base import BaseTestCase, on, vaccinate
from tests.licensing.base import BENTON_FEES, receive_tags, set_fees

TAX_WORDS = (
    "Section 173-1 is amended to read: the license tax for a spayed female or neutered male dog "
    "shall be $12.00 and for an unspayed or unneutered dog $22.00."
)
DOG = {"born_on": "2020-01-01", "altered": True}
BY = "Board resolution 2027-04 of February 10, 2027"


class AmendmentAsSourceTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(2026, 12, 1)):
            set_fees(cls.clerk, cls.benton, BENTON_FEES)
            amendment = draft_amendment(
                cls.benton,
                acting_user=cls.clerk,
                kind="license_tax",
                title="Raise the license tax",
                section="§ 173-1",
                words=TAX_WORDS,
                effective_on=date(2027, 3, 1),
                figures={"altered": Decimal("12.00"), "unaltered": Decimal("22.00")},
            )
        with on(date(2027, 2, 11)):
            adopt_amendment(amendment, acting_user=cls.clerk, resolution="2027-04", voted_on=date(2027, 2, 10))

    def setUp(self):
        rulings.forget(self.benton.pk)
        self.benton.refresh_from_db()

    def test_the_engines_answer_cites_the_resolution_beside_the_section_from_its_effective_date(self):
        amended = law.ask(self.benton, "license_tax", DOG, date(2027, 3, 1))
        self.assertEqual(amended.value.amount, Decimal("12.00"))
        self.assertIn(("§ 173-1", BY), [(c.section, c.amended_by) for c in amended.citations])
        before = law.ask(self.benton, "license_tax", DOG, date(2027, 2, 28))
        self.assertEqual([c for c in before.citations if c.amended_by], [])

    def test_rules_ask_and_the_api_name_the_resolution(self):
        out = io.StringIO()
        argv = ["rules", "ask", "benton", "license_tax", "--on", "2027-03-01", "--facts", "-"]
        code = cli.main(argv, stdin=io.StringIO(json.dumps(DOG)), stdout=out, municipal=municipal_rulings)
        self.assertEqual(code, 0)
        cited = json.loads(out.getvalue())["citations"]
        self.assertIn(BY, [c.get("amended_by") for c in cited if c["section"] == "§ 173-1"])
        body = {"jurisdiction": "benton", "question": "license_tax", "on": "2027-03-01", "facts": DOG}
        response = self.client.post("/api/v1/rules/ask", body, content_type="application/json")
        self.assertEqual(response.status_code, 200, response.content)
        self.assertIn(BY, [c.get("amended_by") for c in response.json()["citations"] if c["section"] == "§ 173-1"])
        body["on"] = "2027-02-28"
        response = self.client.post("/api/v1/rules/ask", body, content_type="application/json")
        self.assertNotIn("amended_by", json.dumps(response.json()))

    def test_a_license_issued_under_the_amendment_names_it_on_its_page(self):
        from dogtag.licensing.actions import issue_license
        from dogtag.licensing.facts import read_facts
        from dogtag.licensing.owed import what_is_owed

        day = date(2027, 3, 2)
        with on(day):
            receive_tags(self, 1001, 1100, 2027)
            vaccinate(self.dog, self.vet, "R-2002", date(2027, 1, 10), date(2030, 1, 10))
            owed = what_is_owed(read_facts(self.dog, day))
            self.assertTrue(owed.can_issue, owed.refusals)
            self.assertIn(owed.tax, (Decimal("12.00"), Decimal("22.00")))
            license = issue_license(
                self.dog, acting_user=self.clerk, payment={"amount": str(owed.total), "method": "cash"}, on=day
            )
            self.login(self.clerk)
            r = self.client.get(f"/licenses/{license.pk}/")
        self.assertContains(r, f'<span class="amended">as amended by <span lang="en">{BY}</span></span>', html=False)

    def test_the_why_box_names_the_resolution_beside_the_section(self):
        from django.template.loader import render_to_string

        decision = law.ask(self.benton, "license_tax", DOG, date(2027, 3, 1))
        html = render_to_string("dogtag/_why.html", {"citations": decision.citations})
        self.assertIn(f'<span class="amended">as amended by <span lang="en">{BY}</span></span>', html)
        earlier = law.ask(self.benton, "license_tax", DOG, date(2027, 2, 28))
        self.assertNotIn("as amended by", render_to_string("dogtag/_why.html", {"citations": earlier.citations}))
