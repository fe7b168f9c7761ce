"""Every reading whose other reading changes an answer (`other.set`) gives a worked example, and
the administrator's page shows the engine's answer on it under both readings (issue 25 §3); a
reading with no computable example says why."""

import re
from datetime import date
from html import unescape

from django.test import SimpleTestCase
from django.utils.text import slugify

from dogtag.accounts.models import Role
from dogtag.registry import readings
from dogtag.registry.models import Municipality
from dogtag.registry.templatetags.readings import side_by_side
from dogtag.rules import packs
from tests.base import BaseTestCase, make_user, on, text
from tests.test_date_format import NOT_ONE_FORMAT, visible_text

MUNICIPALITIES = ["benton", "cedarburg", "river-hills", "sampson", "webster"]
ROW = re.compile(r"<tr><th>(.*?)</th><td>(.*?)</td><td>(.*?)</td></tr>", re.S)


def changing(pack: packs.Pack) -> list[readings.Reading]:
    return [r for r in readings.of(pack) if r.changes_answer]


class ExamplesInThePacks(SimpleTestCase):
    def test_every_reading_whose_other_reading_changes_an_answer_has_an_example_that_shows_it(self):
        seen = 0
        for pack in packs.all_packs():
            if len(pack.chain) == 1:
                continue  # the state's own readings are about local ordinances: asked in each municipality's pack
            known = {r.id for r in readings.of(pack)}
            for r in changing(pack):
                seen += 1
                with self.subTest(pack=pack.id, reading=r.id):
                    self.assertTrue(r.example, f"{pack.id} {r.section}: `reading.other.set` without `reading.example`")
                    self.assertLessEqual(set(r.example["assumes"]), known - {r.id})
                    answers = readings.example_answers(pack.id, r, {})
                    # One reading may refuse (Cedarburg § 7-1-25(c): no forfeiture for § 7-1-5), not both.
                    self.assertFalse(answers["choice"].refused and answers["other"].refused, answers["choice"].refused)
                    differing = [row for row in side_by_side(answers) if row[1] != row[2]]
                    self.assertTrue(differing, "the example gives the same answer on both readings")
        self.assertGreaterEqual(seen, 30)

    def test_webster_s_late_fee_example_shows_what_the_fee_schedule_would_take(self):
        pack = packs.load_pack("wi-webster")
        late_fee = next(r for r in readings.of(pack) if r.id == "licensing.late_fee")
        rows = {
            what: (mine, other) for what, mine, other in side_by_side(readings.example_answers(pack.id, late_fee, {}))
        }
        mine, other = rows["the fee schedule takes late fee $10.00"]
        self.assertIn("the state fixes a late fee of $5.00, not $10.00 (s. 174.05(5))", mine)
        self.assertEqual(other, "yes")

    def test_every_reading_with_another_reading_is_answered_both_ways_on_an_example(self):
        # The five whose other reading was once said only in words now change what the engine
        # answers: Benton's presumption, River Hills' payee, Webster's signs and two schedules.
        for pack in packs.all_packs():
            for r in readings.of(pack):
                if r.has_other:
                    with self.subTest(pack=pack.id, reading=r.id):
                        self.assertTrue(r.changes_answer and r.example, r.no_example)
        words_only = {
            "wi-benton": "definitions.presumed_unlicensed",
            "wi-river-hills": "remittance.payee",
            "wi-webster": "dangerous_dogs.requirements.0",
        }
        schedules = [("wi-webster", "forfeitures.ordinance.0"), ("wi-webster", "forfeitures.ordinance.4")]
        for pack_id, rid in [*words_only.items(), *schedules]:
            r = readings.named(packs.load_pack(pack_id), rid)
            with self.subTest(pack=pack_id, reading=rid):
                differing = [row for row in side_by_side(readings.example_answers(pack_id, r, {})) if row[1] != row[2]]
                self.assertTrue(differing)

    def test_a_reading_without_a_computable_example_says_why(self):
        webster = {r.id: r for r in readings.of(packs.load_pack("wi-webster"))}
        benton = {r.id: r for r in readings.of(packs.load_pack("wi-benton"))}
        single = next(r for r in benton.values() if not r.has_other)
        self.assertIn("encodes no other reading to compare", single.no_example)
        for r in [*webster.values(), *benton.values()]:
            self.assertNotIn("yet", r.no_example)


class ExamplesOnThePage(BaseTestCase):
    def test_each_municipality_s_page_shows_both_answers_for_every_reading_that_changes_one(self):
        for slug in MUNICIPALITIES:
            municipality = Municipality.objects.get(slug=slug)
            with self.subTest(slug):
                self.login(make_user(f"admin-{slug}", (municipality, Role.ADMINISTRATOR)))
                with on(date(2026, 6, 25)):
                    response = self.client.get(f"/m/{slug}/readings/")
                self.assertEqual(response.status_code, 200)
                page = text(response)
                self.assertNotIn("no worked example", page)
                shown = visible_text(page)
                self.assertEqual([m[0] for m in NOT_ONE_FORMAT.finditer(shown)], [], "a date not in words")
                sections = page.split('<section class="reading"')[1:]
                wanted = changing(packs.load_pack(municipality.rule_pack))
                self.assertTrue(wanted)
                for r in wanted:
                    anchor = f'id="reading-{slugify(r.id)}"'
                    found = [s for s in sections if s.startswith(f" {anchor}")]
                    self.assertTrue(found, f"{slug}: {r.id} not on the page")
                    for section in found:
                        self.assertIn("<th>Dogtag's reading</th><th>The other reading</th>", section)
                        rows = [tuple(unescape(c) for c in row) for row in ROW.findall(section)]
                        self.assertTrue(any(mine != other for _, mine, other in rows), f"{slug}: {r.id}")
