"""An amendment drafted as an overlay on the municipality's rule pack: refused outside the state's
limits with the section, adopted once the Board has voted, the municipality's law from its
effective date (the apps, `dogtag rules ask` by slug and the API) and not before; voided, gone."""

import io
import json
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError

from dogtag.audit.models import AuditEvent
from dogtag.cli import municipal_rulings
from dogtag.licensing import law
from dogtag.registry import rulings
from dogtag.registry.actions import adopt_amendment, draft_amendment, void_amendment
from dogtag.registry.models import Amendment, Municipality
from dogtag.rules import cli
from tests.base import BaseTestCase, on

TAX_WORDS = (
    "Section 173-1 is amended to read: the license tax for a spayed female or neutered male dog "
    "shall be $12.00 and for an unspayed or unneutered dog $22.00."
)
DOG = {"born_on": "2020-01-01", "altered": True}


class Amendments(BaseTestCase):
    def setUp(self):
        rulings.forget(self.benton.pk)

    def draft_tax(self, altered="12.00", unaltered="22.00", effective_on=date(2027, 3, 1), **kw):
        with on(date(2026, 12, 1)):
            return draft_amendment(
                self.benton,
                acting_user=self.clerk,
                kind="license_tax",
                title="Raise the license tax",
                section="§ 173-1",
                words=TAX_WORDS,
                effective_on=effective_on,
                figures={"altered": Decimal(altered), "unaltered": Decimal(unaltered)},
                **kw,
            )

    def adopt(self, amendment, voted_on=date(2027, 2, 10)):
        with on(date(2027, 2, 11)):
            adopt_amendment(amendment, acting_user=self.clerk, resolution="2027-04", voted_on=voted_on)
        self.benton.refresh_from_db()

    def tax_on(self, day):
        return law.ask(self.benton, "license_tax", DOG, day).value.amount

    def test_a_late_fee_above_the_states_is_refused_with_its_section_and_nothing_is_saved(self):
        with self.assertRaises(ValidationError) as caught, on(date(2026, 12, 1)):
            draft_amendment(
                self.webster,
                acting_user=self.webster_clerk,
                kind="late_fee",
                title="Double the late fee",
                section="§ 98-3C",
                words="A late fee of $10.00 shall be assessed.",
                effective_on=date(2027, 1, 1),
                figures={"late_fee": Decimal("10.00")},
            )
        message = " ".join(caught.exception.message_dict["late_fee"])
        self.assertIn("s. 174.05(5)", message)
        self.assertIn("the state fixes a late fee of $5.00, not $10.00", message)
        self.assertFalse(Amendment.objects.exists())

    def test_an_intact_tax_not_above_the_altered_tax_is_refused_under_s_174_05_3(self):
        with self.assertRaises(ValidationError) as caught:
            self.draft_tax(altered="22.00", unaltered="12.00")
        self.assertIn("s. 174.05(3)", " ".join(sum(caught.exception.message_dict.values(), [])))

    def test_a_figure_not_in_the_amendments_words_is_refused(self):
        with self.assertRaises(ValidationError) as caught, on(date(2026, 12, 1)):
            draft_amendment(
                self.benton,
                acting_user=self.clerk,
                kind="kennel_threshold",
                title="Kennels",
                section="",
                words="",
                effective_on=None,
                figures={},
            )
        self.assertEqual(set(caught.exception.message_dict), {"section", "words", "effective_on", "more_than"})

    def test_a_resident_or_another_municipalitys_clerk_may_not_draft(self):
        from django.core.exceptions import PermissionDenied

        for user in (self.resident, self.outsider, self.webster_clerk):
            with self.subTest(user.username), self.assertRaises(PermissionDenied), on(date(2026, 12, 1)):
                draft_amendment(
                    self.benton,
                    acting_user=user,
                    kind="license_tax",
                    title="x",
                    section="§ 173-1",
                    words=TAX_WORDS,
                    effective_on=date(2027, 3, 1),
                    figures={"altered": Decimal("12.00"), "unaltered": Decimal("22.00")},
                )

    def test_a_draft_changes_no_answer_adoption_changes_answers_from_its_effective_date_only(self):
        before = (self.tax_on(date(2027, 2, 28)), self.tax_on(date(2027, 3, 1)))
        amendment = self.draft_tax()
        self.assertEqual((self.tax_on(date(2027, 2, 28)), self.tax_on(date(2027, 3, 1))), before)
        self.adopt(amendment)
        self.assertEqual(self.tax_on(date(2027, 2, 28)), before[0])
        self.assertEqual(self.tax_on(date(2027, 3, 1)), Decimal("12.00"))
        decision = law.ask(self.benton, "license_tax", DOG, date(2027, 3, 1))
        self.assertIn("§ 173-1", [c.section for c in decision.citations])
        actions = AuditEvent.objects.filter(object_id=str(amendment.pk), action__startswith="amendment.").values_list(
            "action", flat=True
        )
        self.assertEqual(sorted(actions), ["amendment.adopt", "amendment.draft"])
        self.assertEqual(Municipality.objects.get(pk=self.benton.pk).rulings_version, 1)

    def test_rules_ask_by_slug_and_the_api_see_the_adopted_amendment_the_pack_id_does_not(self):
        self.adopt(self.draft_tax())
        rulings.forget(self.benton.pk)

        def cli_ask(jurisdiction, day):
            out = io.StringIO()
            argv = ["rules", "ask", jurisdiction, "license_tax", "--on", day, "--facts", "-"]
            code = cli.main(argv, stdin=io.StringIO(json.dumps(DOG)), stdout=out, municipal=municipal_rulings)
            self.assertEqual(code, 0)
            return json.loads(out.getvalue())["value"]["amount"]

        def api_ask(jurisdiction, day):
            body = {
                "jurisdiction": jurisdiction,
                "question": "license_tax",
                "on": day,
                "facts": DOG,
                "local_amounts": {"license_tax.altered": {"2020-01-01": "10.00"}},
            }
            response = self.client.post("/api/v1/rules/ask", body, content_type="application/json")
            self.assertEqual(response.status_code, 200, response.content)
            return response.json()["value"]["amount"]

        self.assertEqual(cli_ask("benton", "2027-03-01"), "12.00")
        self.assertEqual(api_ask("benton", "2027-03-01"), "12.00")
        self.assertEqual(api_ask("benton", "2027-02-28"), "10.00")
        self.assertEqual(api_ask("wi-benton", "2027-03-01"), "10.00")

    def test_a_vote_after_the_effective_date_or_a_second_adoption_is_refused(self):
        amendment = self.draft_tax()
        with self.assertRaises(ValidationError) as caught, on(date(2027, 4, 1)):
            adopt_amendment(amendment, acting_user=self.clerk, resolution="2027-04", voted_on=date(2027, 3, 2))
        self.assertIn("voted_on", caught.exception.message_dict)
        self.adopt(amendment)
        with self.assertRaises(ValidationError), on(date(2027, 2, 12)):
            adopt_amendment(amendment, acting_user=self.clerk, resolution="2027-05", voted_on=date(2027, 2, 10))

    def test_voiding_an_adopted_amendment_restores_the_law_on_every_day(self):
        before = self.tax_on(date(2027, 3, 1))
        amendment = self.draft_tax()
        self.adopt(amendment)
        with on(date(2027, 2, 12)):
            void_amendment(amendment, acting_user=self.clerk, reason="recorded in error")
        self.benton.refresh_from_db()
        self.assertEqual(self.tax_on(date(2027, 3, 1)), before)
        self.assertTrue(Amendment.objects.filter(pk=amendment.pk, voided_at__isnull=False).exists())
