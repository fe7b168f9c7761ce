"""The ordinance, annotated (issue 32 §1): public pages where every paragraph is linked to what
encodes it or marked not encoded with its reason; the statutes it adopts linked; search;
permanent links; printable; the staff's live counts per section."""

import re
from datetime import date

from django.db import connection
from django.test.utils import CaptureQueriesContext

from dogtag.accounts.models import Role
from dogtag.portal import ordinance
from dogtag.registry.models import Municipality
from dogtag.rules.annotated import anchor, annotated, statutes
from tests.accounts.test_isolation import benton_ruling
from tests.base import BaseTestCase, make_user, on
from tests.licensing.base import benton_license

SLUGS = ["benton", "webster", "cedarburg", "river-hills", "sampson"]
PARAGRAPH = re.compile(r'<div class="ord-para[^"]*" id="([^"]+)">(.*?)</div>\s*</div>', re.S)


class AnnotatedTextTests(BaseTestCase):
    """The annotation itself, without a page."""

    def test_it_anchors_a_section_by_its_number_alone(self):
        self.assertEqual(anchor("§ 98-6"), "s-98-6")
        self.assertEqual(anchor("§ 115-3B(4)"), "s-115-3b-4")
        self.assertEqual(anchor("7-1-3"), "s-7-1-3")
        for m in Municipality.objects.filter(slug__in=SLUGS):
            text = annotated(m.rule_pack)
            anchors = [s.anchor for s in text.sections]
            self.assertEqual(len(anchors), len(set(anchors)), m.slug)
            # from the number only: what the pack encodes of a section cannot move its link
            self.assertTrue(all(s.anchor == anchor(s.number) for s in text.sections), m.slug)

    def test_it_links_the_statutes_the_text_names_and_not_the_ordinances_own_sections(self):
        found = statutes("without complying with §§ 174.05 through 174.10, Wis. Stats., or § 98-6 or § 95.21(2)")
        urls = [link.url for link in found]
        self.assertEqual(
            urls,
            [
                "https://docs.legis.wisconsin.gov/statutes/statutes/174/05",
                "https://docs.legis.wisconsin.gov/statutes/statutes/174/10",
                "https://docs.legis.wisconsin.gov/statutes/statutes/95/21/2",
            ],
        )
        self.assertEqual(statutes("as provided in Chapter 174, Wis. Stats.")[0].url[-4:], "/174")

    def test_every_paragraph_is_encoded_or_says_why_not(self):
        for m in Municipality.objects.filter(slug__in=SLUGS):
            text = annotated(m.rule_pack)
            paragraphs = [p for s in text.sections for p in s.paragraphs]
            self.assertGreater(len(paragraphs), 30, m.slug)
            for p in paragraphs:
                self.assertTrue(p.provisions or p.not_encoded, f"{m.slug} {p.anchor}: {p.words[:60]}")
                for path in p.provisions:
                    self.assertIn(path, text.figures)


@on(date(2026, 7, 1))
class OrdinancePageTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(2026, 2, 10)):
            cls.fee, cls.license = benton_license(cls)
        benton_ruling(cls)

    def test_every_municipalitys_text_renders_for_anyone_each_paragraph_annotated(self):
        for m in Municipality.objects.filter(slug__in=SLUGS):
            r = self.client.get(f"/ordinance/{m.slug}/")
            self.assertEqual(r.status_code, 200, m.slug)
            body = r.content.decode()
            text = annotated(m.rule_pack)
            shown = dict(PARAGRAPH.findall(body))
            expected = [p for s in text.sections for p in s.paragraphs]
            self.assertEqual(len(shown), len(expected), m.slug)
            for p in expected:
                note = shown[p.anchor]
                self.assertTrue("ord-figures" in note or "Not encoded" in note, f"{m.slug} {p.anchor}")
            for s in text.sections:
                self.assertIn(f'id="{s.anchor}"', body)
                self.assertIn(f'href="/ordinance/{m.slug}/#{s.anchor}"', body)  # its permanent link
            self.assertNotIn("style=", body)  # printable by its stylesheet, under the CSP
            self.assertContains(r, "portal/ordinance.css")
        self.assertContains(self.client.get("/ordinance/"), 'href="/ordinance/webster/"')

    def test_an_unknown_municipality_is_not_found(self):
        self.assertEqual(self.client.get("/ordinance/nowhere/").status_code, 404)

    def test_it_shows_figures_with_their_dates_and_citations(self):
        r = self.client.get("/ordinance/webster/")
        self.assertContains(r, "forfeitures.ordinance")
        self.assertContains(r, "$50.00 from June 13, 2007")
        self.assertContains(r, "§ 98-20")

    def test_it_shows_what_the_fee_schedule_sets_for_an_amount_the_ordinance_leaves_to_it(self):
        r = self.client.get("/ordinance/benton/")
        entry = self.fee
        self.assertContains(r, "Set by the fee schedule: ")
        self.assertContains(r, f"${entry.amount:,.2f} from {entry.effective_on:%B} {entry.effective_on.day}")

    def test_it_links_the_adopted_statutes(self):
        r = self.client.get("/ordinance/benton/")
        self.assertContains(r, 'href="https://docs.legis.wisconsin.gov/statutes/statutes/174/05"')

    def test_it_says_where_a_transcription_stops(self):
        r = self.client.get("/ordinance/webster/")
        self.assertContains(r, "Transcription incomplete")
        self.assertContains(r, "It stops after B(5)")
        self.assertContains(r, "Transcription missing")

    def test_it_shows_readings_awaiting_a_ruling_and_the_rulings_made(self):
        r = self.client.get("/ordinance/benton/")
        self.assertContains(r, "Readings awaiting the municipality's ruling")
        self.assertContains(r, "Rulings made")
        self.assertContains(r, "Attorney&#x27;s opinion OP-2026-3 of May 20, 2026")
        self.assertContains(r, "in force from June 1, 2026")

    def test_a_search_marks_its_words_and_shows_only_the_sections_holding_them(self):
        r = self.client.get("/ordinance/benton/", {"q": "late   FEE"})
        self.assertContains(r, "<mark>late fee</mark>")
        found = re.search(r"(\d+) paragraphs? in (\d+) sections? hold", r.content.decode())
        self.assertIsNotNone(found)
        self.assertLess(int(found.group(2)), len(annotated("wi-benton").sections))
        self.assertContains(r, 'id="s-115-4"')
        self.assertNotContains(r, 'id="s-115-8"')
        self.assertContains(self.client.get("/ordinance/benton/", {"q": "zebra crossing"}), "No paragraph holds")

    def test_a_search_too_long_is_refused_with_the_reason_and_the_whole_text_shown(self):
        r = self.client.get("/ordinance/benton/", {"q": "dog " * 40})
        self.assertContains(r, "Search for at most 100 characters")
        self.assertContains(r, 'id="s-115-8"')

    def test_the_public_text_may_be_kept_by_a_cache_and_a_staff_page_may_not(self):
        r = self.client.get("/ordinance/benton/")
        self.assertIn("public", r["Cache-Control"])
        self.assertIn("max-age=300", r["Cache-Control"])
        self.assertIn("Cookie", r["Vary"])
        self.login(self.clerk)
        r = self.client.get("/ordinance/benton/")
        self.assertIn("no-store", r["Cache-Control"])
        self.assertNotIn("public", r["Cache-Control"])

    def test_staff_see_counts_from_their_records_and_no_one_else_does(self):
        self.login(self.clerk)
        r = self.client.get("/ordinance/benton/")
        self.assertContains(r, "<dt>Licenses this license year</dt><dd>1</dd>", html=False)
        self.assertContains(r, 'href="/m/benton/fees/"')  # the procedures that apply it, linked for staff
        for user in (self.outsider, self.resident):
            self.login(user)
            r = self.client.get("/ordinance/benton/")
            self.assertNotContains(r, "Licenses this license year")
            self.assertNotContains(r, 'href="/m/benton/fees/"')
        self.client.logout()
        self.assertNotContains(self.client.get("/ordinance/benton/"), "Licenses this license year")

    def test_the_counts_are_one_query_per_kind_whatever_the_sections(self):
        text = annotated("wi-benton")
        sections = list(text.sections)
        law_pack = ordinance.law.pack_of(self.benton, date(2026, 7, 1))  # the ruled pack, cached per process
        self.assertIsNotNone(law_pack)
        with CaptureQueriesContext(connection) as few:
            ordinance.staff_counts(self.benton, sections[:3], date(2026, 7, 1))
        with CaptureQueriesContext(connection) as all_:
            counts = ordinance.staff_counts(self.benton, sections, date(2026, 7, 1))
        self.assertEqual(len(all_), 4, [q["sql"] for q in all_.captured_queries])  # licenses, kennels, cases, citations
        self.assertLessEqual(len(few), len(all_))
        self.assertEqual(counts["s-115-3"].licenses, 1)

    def test_the_page_asks_a_fixed_number_of_queries_whatever_the_sections(self):
        """Anyone: the municipality, its rulings, its fee schedule. Its staff, besides: their
        session, user, second factor, memberships (the scope check) and the municipalities they
        serve (the page's context, accounts/context_processors.py), and one query per kind of
        record counted (four)."""
        self.client.get("/ordinance/benton/")  # the text, read once per process
        with CaptureQueriesContext(connection) as public:
            self.client.get("/ordinance/benton/")
        self.assertEqual(len(public), 3, [q["sql"] for q in public.captured_queries])
        self.login(self.clerk)
        self.client.get("/ordinance/benton/")  # the first request after logging in saves the session
        with CaptureQueriesContext(connection) as staff:
            self.client.get("/ordinance/benton/")
        self.assertEqual(len(staff), 3 + 5 + 4, [q["sql"][:80] for q in staff.captured_queries])

    def test_every_procedure_a_section_links_opens_for_the_municipalitys_clerk(self):
        for m in Municipality.objects.filter(slug__in=SLUGS):
            self.login(make_user(f"clerk-of-{m.slug}", (m, Role.CLERK)))
            body = self.client.get(f"/ordinance/{m.slug}/").content.decode()
            links = set(
                re.findall(r'<a href="(/m/[^"]+)">', " ".join(re.findall(r'<p class="ord-procedures">.*?</p>', body)))
            )
            self.assertTrue(links, m.slug)
            for link in sorted(links):
                self.assertEqual(self.client.get(link).status_code, 200, f"{m.slug}: {link}")


class CitationsUnderTheirSection(BaseTestCase):
    """A citation counts under the section its violation names, however the pack's schedule spells
    it: Sampson's names "Section 5" where its text numbers "Ord. 3-2007 Section 5"."""

    def test_every_violation_a_schedule_names_falls_under_one_numbered_section(self):
        from dogtag.rules import load_pack
        from dogtag.rules.packs import within

        for slug in SLUGS:
            m = Municipality.objects.get(slug=slug)
            numbers = [s.number for s in annotated(m.rule_pack).sections]
            for entry in load_pack(m.rule_pack).forfeitures.ordinance:
                for violation in entry.sections:
                    if violation.startswith(("ch. ", "s. ")):  # a statute the ordinance adopts, not its text
                        continue
                    under = [n for n in numbers if ordinance.cited_under(violation, n)]
                    # River Hills' schedule names § 2.14 whole; its text is numbered by subsection
                    divided = [n for n in numbers if within(n.removeprefix("§ "), violation)]
                    with self.subTest(slug=slug, violation=violation):
                        self.assertTrue(under or divided, f"{violation!r} falls under no section of {slug}'s text")

    def test_a_subsection_falls_under_its_section_and_not_a_longer_number(self):
        self.assertTrue(ordinance.cited_under("§ 115-3B(4)", "§ 115-3"))
        self.assertFalse(ordinance.cited_under("§ 115-30", "§ 115-3"))
        self.assertTrue(ordinance.cited_under("Section 5", "Ord. 3-2007 Section 5"))
        self.assertFalse(ordinance.cited_under("Section 5", "Ord. 3-2007 Section 51"))
        self.assertFalse(ordinance.cited_under("Section 7", "Ord. 3-2007 Section 7B"))
