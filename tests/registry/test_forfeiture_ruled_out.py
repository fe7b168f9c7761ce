"""A violation a ruling took out of the only schedule that priced it is refused naming the schedule's
section and the ruling (who, its number, its day): in `dogtag rules ask`, POST /api/v1/rules/ask and
the officer's citation form alike (issue 25). Cedarburg § 7-1-25(a) as written prices § 7-1-26 (the
hen section); its other reading lists §§ 7-1-15 to 7-1-24 only."""

import contextlib
import io
import json
from datetime import date

from dogtag.accounts.models import Role
from dogtag.cli import municipal_rulings
from dogtag.enforcement.models import Citation
from dogtag.registry import rulings
from dogtag.registry.actions import record_ruling
from dogtag.rules import cli
from tests.base import make_user, on
from tests.enforcement.helpers import EnforcementTestCase

READING = "forfeitures.ordinance.3"
VIOLATION = "7-1-26(d)"
RULING = "attorney's opinion OP-2026-7 (Jane Roe) of July 1, 2026"
SAID = f"§ 7-1-25(a) as written covers it, but {RULING} adopted the other reading, which leaves it out"


class RefusedByARuling(EnforcementTestCase):
    def setUp(self):
        rulings.forget(self.cedarburg.pk)

    def rule_other_way(self):
        admin = make_user("cedarburg-admin", (self.cedarburg, Role.ADMINISTRATOR))
        with on(date(2026, 6, 25)):
            record_ruling(
                self.cedarburg,
                acting_user=admin,
                reading=READING,
                adopted="other",
                instrument="attorney_opinion",
                attorney="Jane Roe",
                number="OP-2026-7",
                ruled_on=date(2026, 6, 20),
                effective_on=date(2026, 7, 1),
                note="",
            )
        rulings.forget(self.cedarburg.pk)

    def cli(self, asked_on: str) -> tuple[int, str]:
        err, out = io.StringIO(), io.StringIO()
        argv = ["rules", "ask", "cedarburg", "forfeiture", "--on", asked_on, "--facts", "-"]
        with contextlib.redirect_stderr(err):
            code = cli.main(
                argv, stdin=io.StringIO(json.dumps({"violation": VIOLATION})), stdout=out, municipal=municipal_rulings
            )
        return code, err.getvalue() or out.getvalue()

    def api(self, asked_on: str):
        body = {
            "jurisdiction": "cedarburg",
            "question": "forfeiture",
            "on": asked_on,
            "facts": {"violation": VIOLATION},
        }
        return self.client.post("/api/v1/rules/ask", body, content_type="application/json")

    def cite(self, owner, day: str):
        body = {"person": owner.pk, "violation": VIOLATION, "description": "hens", "violated_on": day, "days": 1}
        return self.post("citation-new", "cedarburg", body)

    def test_the_refusal_names_the_ruling_from_its_effective_day_and_not_before(self):
        owner, _, _ = self.owner_and_dog("cedarburg", "Hen keeper")
        self.rule_other_way()
        code, said = self.cli("2026-08-01")
        self.assertEqual(code, 2)
        self.assertIn(SAID, json.loads(said)["error"])
        response = self.api("2026-08-01")
        self.assertEqual(response.status_code, 422, response.content)
        self.assertIn(SAID, response.json()["errors"]["facts.violation"][0])
        self.login(self.chief)
        with on(date(2026, 8, 2)):
            self.refused(self.cite(owner, "2026-08-01"), SAID.replace("'", "&#x27;"))
        self.assertFalse(Citation.objects.filter(violation=VIOLATION).exists())
        # Before the ruling took effect § 7-1-25(a) prices it as written, and nothing names a ruling.
        code, said = self.cli("2026-06-30")
        self.assertEqual(code, 0, said)
        self.assertTrue(json.loads(said)["value"]["applies"])
        self.assertEqual(self.api("2026-06-30").status_code, 200)
