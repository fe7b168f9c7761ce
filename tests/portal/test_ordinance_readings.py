"""The annotated ordinance under a reading: pending, the worked example's answer on both readings;
ruled, the ruling (who, its number, its date) and the figures and the answer as ruled."""

import re
from datetime import date

from dogtag.accounts.models import Role
from dogtag.registry.actions import record_ruling
from tests.base import BaseTestCase, make_user, on

SECTION = re.compile(r'<section class="ord-section" id="s-115-3"(.*?)</section>', re.S)


@on(date(2026, 7, 1))
class ReadingsOnTheTextTests(BaseTestCase):
    def section(self) -> str:
        body = self.client.get("/ordinance/benton/").content.decode()
        return " ".join(SECTION.search(body).group(1).split())

    def test_a_pending_reading_shows_the_examples_answer_on_both_readings(self):
        html = self.section()
        readings = html[html.index("Readings awaiting the municipality's ruling") :]
        self.assertIn("the answer on each reading", readings)
        self.assertIn('<th scope="col">The other reading</th>', readings)
        # § 115-3A(3) on a $20.00 local tax, licensable after July 1: halved, or whole
        row = re.search(r"<tr><th scope=\"row\">amount</th><td>([^<]*)</td><td>([^<]*)</td></tr>", readings)
        self.assertIsNotNone(row, readings[:3000])
        self.assertEqual(row.groups(), ("10.00", "20.00"))
        self.assertNotIn("Rulings made", html)

    def test_a_ruled_reading_shows_who_ruled_and_the_figures_and_answer_as_ruled(self):
        admin = make_user("ada", (self.benton, Role.ADMINISTRATOR))
        with on(date(2026, 6, 1)):
            record_ruling(
                self.benton,
                acting_user=admin,
                reading="licensing.half_tax_on_local_tax",
                adopted="other",
                instrument="board_resolution",
                attorney="Village Board",
                number="R-2026-14",
                ruled_on=date(2026, 5, 26),
                effective_on=date(2026, 6, 1),
            )
        html = self.section()
        self.assertNotIn("<strong>§ 115-3A(3)</strong>: Dogtag reads it so", html)
        ruled = html[html.index("Rulings made") :]
        self.assertIn(
            "Board resolution R-2026-14 of May 26, 2026 adopts the other reading, in force from June 1, 2026", ruled
        )
        self.assertIn("The figures as ruled: halves: no", ruled)
        self.assertIn("The worked example as ruled: amount: 20.00; half tax: no", ruled)
        # before the ruling takes effect, the text reads as it did
        with on(date(2026, 5, 28)):
            html = self.section()
        self.assertIn("(not the ruling in force today)", html)
        self.assertNotIn("The figures as ruled", html)
