"""The staff's live counts on the annotated ordinance: every section whose provisions decide
licenses, cases or citations shows its count, in all five municipalities; a citation under a whole
section the text numbers by subsection (River Hills' § 2.14) counts under its subsections."""

import re
from datetime import date

from dogtag.enforcement.models import Citation
from dogtag.portal import ordinance
from dogtag.rules.annotated import annotated
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase

SECTION = re.compile(r'<section class="ord-section" id="([^"]+)"(.*?)</section>', re.S)


@on(date(2026, 7, 1))
class SectionCountsTests(EnforcementTestCase):
    def counts_shown(self, slug) -> dict[str, str]:
        self.login(self.clerks[slug])
        body = self.client.get(f"/ordinance/{slug}/").content.decode()
        return {sid: inner for sid, inner in SECTION.findall(body)}

    def test_each_municipalitys_licensing_section_shows_its_count(self):
        for slug, m in self.places.items():
            text = annotated(m.rule_pack)
            shown = self.counts_shown(slug)
            licensing = [s for s in text.sections if "licensing.tax" in s.provisions]
            with self.subTest(slug=slug):
                self.assertTrue(licensing, f"{slug} has no section encoding its license tax")
                for s in licensing:
                    self.assertIn("<dt>Licenses this license year</dt><dd>0</dd>", shown[s.anchor], s.number)
                for s in text.sections:
                    tops = {p.split(".", 1)[0] for p in s.provisions}
                    if tops & ordinance.LICENSED:
                        self.assertIn("Licenses this license year", shown[s.anchor], s.number)
                    if tops & set(ordinance.CASES):
                        self.assertIn("<dt>Open cases</dt>", shown[s.anchor], s.number)
                    self.assertIn("<dt>Citations under", shown[s.anchor], s.number)

    def test_a_citation_under_the_whole_of_river_hills_2_14_counts_under_its_subsections(self):
        owner, _, dog = self.owner_and_dog("river-hills", "Unlicensed")
        self.login(self.chief)
        for violation in ("2.14", "2.14(3)[g]"):
            body = {
                "person": owner.pk,
                "violation": violation,
                "description": "dog at large",
                "violated_on": "2026-06-01",
                "days": 1,
                "forfeiture": "100.00",
            }
            self.assert_posted(self.post("citation-new", "river-hills", body))
        self.assertEqual(sorted(Citation.objects.values_list("violation", flat=True)), ["2.14", "2.14(3)[g]"])
        shown = self.counts_shown("river-hills")
        self.assertIn(
            "<dt>Citations under § 2.14(3) or the whole of § 2.14 this year</dt><dd>2</dd>", shown["s-2-14-3"]
        )
        self.assertIn(
            "<dt>Citations under § 2.14(8) or the whole of § 2.14 this year</dt><dd>1</dd>", shown["s-2-14-8"]
        )
        # a section the schedule does not hold: the whole of another section is not under it
        self.assertIn("<dt>Citations under § 4-208 this year</dt><dd>0</dd>", shown["s-4-208"])

    def test_a_whole_section_divides_into_its_subsections_and_no_other(self):
        self.assertTrue(ordinance.divides("2.14", "§ 2.14(8)"))
        self.assertFalse(ordinance.divides("2.14", "§ 2.14"))
        self.assertFalse(ordinance.divides("2.1", "§ 2.14(8)"))
        self.assertFalse(ordinance.divides("2.14(3)", "§ 2.14(8)"))
