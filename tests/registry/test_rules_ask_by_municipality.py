"""`dogtag rules ask` and POST /api/v1/rules/ask asked for a municipality (by its slug) answer by
its rulings in force on the day asked; asked for a rule pack, by the pack as written (issue 25 §3)."""

import io
import json
from datetime import date

from dogtag.accounts.models import Role
from dogtag.cli import municipal_rulings
from dogtag.registry import rulings
from dogtag.registry.actions import record_ruling
from dogtag.registry.models import Municipality
from dogtag.rules import cli
from tests.base import BaseTestCase, make_user, on

# Benton § 115-11: two complaints 28 days apart (a violation on Dogtag's reading, not on the other).
FACTS = {"complaints": [{"filed_on": "2026-12-03"}, {"filed_on": "2026-12-31"}]}
ASKED_ON = "2026-12-31"


class AskedForAMunicipality(BaseTestCase):
    def setUp(self):
        rulings.forget(self.benton.pk)

    def rule_other_way(self, effective_on: date):
        admin = make_user("benton-admin", (self.benton, Role.ADMINISTRATOR))
        with on(date(2026, 6, 25)):
            record_ruling(
                self.benton,
                acting_user=admin,
                reading="nuisance.barking_complaints",
                adopted="other",
                instrument="attorney_opinion",
                attorney="Jane Roe",
                number="OP-2026-11",
                ruled_on=date(2026, 6, 20),
                effective_on=effective_on,
                note="",
            )
        rulings.forget(self.benton.pk)

    def cli(self, jurisdiction: str, asked_on: str = ASKED_ON) -> dict:
        out = io.StringIO()
        argv = ["rules", "ask", jurisdiction, "barking_nuisance", "--on", asked_on, "--facts", "-"]
        code = cli.main(argv, stdin=io.StringIO(json.dumps(FACTS)), stdout=out, municipal=municipal_rulings)
        self.assertEqual(code, 0)
        return json.loads(out.getvalue())

    def api(self, jurisdiction: str, asked_on: str = ASKED_ON) -> dict:
        body = {"jurisdiction": jurisdiction, "question": "barking_nuisance", "on": asked_on, "facts": FACTS}
        response = self.client.post("/api/v1/rules/ask", body, content_type="application/json")
        self.assertEqual(response.status_code, 200, response.content)
        return response.json()

    def test_without_a_ruling_the_municipality_answers_as_its_pack_pending(self):
        for answer in (self.cli("benton"), self.api("benton")):
            self.assertTrue(answer["value"]["violation"])
            reading = next(r for r in answer["readings"] if r["section"] == "§ 115-11")
            self.assertEqual(reading["status"], "pending")

    def test_the_municipality_answers_by_its_ruling_from_its_effective_day_and_the_pack_as_written(self):
        self.rule_other_way(effective_on=date(2026, 7, 1))
        for ask in (self.cli, self.api):
            with self.subTest(ask.__name__):
                ruled = ask("benton")
                self.assertFalse(ruled["value"]["violation"])
                reading = next(r for r in ruled["readings"] if r["section"] == "§ 115-11")
                self.assertEqual(reading["status"], "ruled")
                self.assertEqual(reading["ruled_by"], "attorney's opinion OP-2026-11 (Jane Roe) of July 1, 2026")
                # Asked for a day before the ruling took effect: the reading then in force.
                before = ask("benton", "2026-06-30")
                self.assertEqual(next(r for r in before["readings"] if r["section"] == "§ 115-11")["status"], "pending")
                # Asked for the rule pack itself: the law as written, every reading on its default.
                self.assertTrue(ask("wi-benton")["value"]["violation"])

    def test_another_municipality_has_none_of_benton_s_rulings_and_an_unknown_slug_none(self):
        self.rule_other_way(effective_on=date(2026, 7, 1))
        self.assertEqual(Municipality.objects.get(pk=self.benton.pk).rulings_version, 1)
        self.assertEqual(rulings.of_municipality("webster")[1], [])
        self.assertIsNone(rulings.of_municipality("nowhere"))

    def test_a_name_that_is_neither_a_pack_nor_a_municipality_is_refused_by_name(self):
        err = io.StringIO()
        import contextlib

        with contextlib.redirect_stderr(err):
            code = cli.main(
                ["rules", "ask", "nowhere", "barking_nuisance", "--on", ASKED_ON, "--facts", "-"],
                stdin=io.StringIO(json.dumps(FACTS)),
                stdout=io.StringIO(),
                municipal=municipal_rulings,
            )
        self.assertEqual(code, 2)
        self.assertIn("no rule pack or municipality 'nowhere'", err.getvalue())
        body = {"jurisdiction": "nowhere", "question": "barking_nuisance", "on": ASKED_ON, "facts": FACTS}
        response = self.client.post("/api/v1/rules/ask", body, content_type="application/json")
        self.assertEqual(response.status_code, 422)
        self.assertIn("jurisdiction", response.json()["errors"])
