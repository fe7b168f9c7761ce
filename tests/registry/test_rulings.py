"""A municipality's rulings on the readings its pack leaves pending (issue 25 §3): recorded by an
audited action, never deleted, passed to the engine from their effective date by every answer the
apps compute, and listed with both readings on the administrator's page."""

from datetime import date

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext

from dogtag.accounts.models import Role
from dogtag.audit.models import AuditEvent
from dogtag.licensing import law
from dogtag.registry import rulings
from dogtag.registry.actions import record_ruling, void_ruling
from dogtag.registry.models import Municipality, Ruling
from dogtag.rules import packs
from tests.base import BaseTestCase, make_user, on, text

TEXT = "§ 1 Bites. The owner shall keep such dog confined for not less than 12 days after the bite.\n"
PACK = """id: wi-readton
name: Village of Readton
county: Grant
inherits: wi
text: readton-wi.txt
quarantine:
  owner_confinement:
    days: 12
    cite: {section: "§ 1", quote: "shall keep such dog confined for not less than 12 days after the bite"}
    choice: "the 12 days count from the day of the bite, that day excluded"
    reading:
      id: readton-confinement
      other:
        choice: "the 12 days count from the day the owner learns of the bite"
        changes: "the confinement ends later where the owner learns later (bite 2026-06-01: ends 2026-06-15)"
        set: {days: 14}
      example:
        question: bite_quarantine
        on: 2026-06-01
        facts: {bitten_on: 2026-06-01, currently_immunized: true}
"""
FACTS = {"bitten_on": "2026-06-01", "currently_immunized": True}
READING = "readton-confinement"


def ruling_fields(**changes):
    fields = {
        "reading": READING,
        "adopted": "other",
        "instrument": "attorney_opinion",
        "attorney": "Jane Roe",
        "number": "OP-2026-7",
        "ruled_on": date(2026, 6, 20),
        "effective_on": date(2026, 7, 1),
        "note": "",
    }
    return {**fields, **changes}


class RulingTests(BaseTestCase):
    """Readton, a village whose pack (in a law folder of its own) has one reading with its other
    reading, what it would change and a worked example."""

    @classmethod
    def setUpClass(cls):
        import tempfile
        from pathlib import Path

        cls.law_dir = tempfile.TemporaryDirectory()
        folder = Path(cls.law_dir.name)
        (folder / "texts").mkdir()
        (folder / "texts" / "readton-wi.txt").write_text(TEXT)
        (folder / "wi-readton.yaml").write_text(PACK)
        cls.env = __import__("os").environ
        cls.env[packs.EXTRA_LAW_ENV] = str(folder)
        packs.clear_cache()
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        del cls.env[packs.EXTRA_LAW_ENV]
        packs.clear_cache()
        cls.law_dir.cleanup()

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.readton = Municipality.objects.create(
            name="Readton", kind="village", county="Grant", rule_pack="wi-readton", slug="readton"
        )
        cls.admin = make_user("adele", (cls.readton, Role.ADMINISTRATOR))
        cls.readton_clerk = make_user("clara", (cls.readton, Role.CLERK))

    def setUp(self):
        rulings.forget(self.readton.pk)

    def record(self, user=None, **changes):
        with on(date(2026, 6, 25)):
            return record_ruling(self.readton, acting_user=user or self.admin, **ruling_fields(**changes))

    def confinement_ends(self, day):
        municipality = Municipality.objects.get(pk=self.readton.pk)
        return law.ask(municipality, "bite_quarantine", FACTS, day)

    # --- the action ---

    def test_a_ruling_is_recorded_with_its_audit_event_and_raises_the_version(self):
        ruling = self.record()
        self.assertEqual((ruling.section, ruling.adopted, ruling.attorney), ("§ 1", "other", "Jane Roe"))
        self.assertIn("learns of the bite", ruling.adopted_words)
        event = AuditEvent.objects.get(action="ruling.record", object_id=str(ruling.pk))
        self.assertEqual((event.municipality_id, event.actor), (self.readton.pk, self.admin))
        self.assertEqual(Municipality.objects.get(pk=self.readton.pk).rulings_version, 1)

    def test_only_the_municipality_s_administrator_records_a_ruling(self):
        with self.assertRaises(PermissionDenied):
            self.record(user=self.readton_clerk)
        with self.assertRaises(PermissionDenied):
            with on(date(2026, 6, 25)):
                record_ruling(self.benton, acting_user=self.admin, **ruling_fields(reading="licensing.late_fee"))
        self.assertFalse(Ruling.objects.exists())

    def test_each_refusal_names_its_field_and_rule(self):
        cases = [
            ({"reading": "no.such"}, "reading", "has no reading named 'no.such'"),
            ({"adopted": "both"}, "adopted", "Choose the reading the ruling adopts"),
            ({"instrument": ""}, "instrument", "attorney's opinion or a Board resolution"),
            ({"attorney": " "}, "attorney", "Name the attorney"),
            ({"number": ""}, "number", "number"),
            ({"ruled_on": date(2026, 6, 26)}, "ruled_on", "June 26, 2026 is after today"),
            ({"effective_on": date(2026, 6, 19)}, "effective_on", "on or after the day it is made (June 20, 2026)"),
        ]
        for changes, field, words in cases:
            with self.subTest(field=field), self.assertRaises(ValidationError) as refused:
                self.record(**changes)
            self.assertIn(words, " ".join(refused.exception.message_dict[field]))
        self.assertFalse(Ruling.objects.exists())

    def test_a_reading_without_an_other_cannot_be_ruled_other(self):
        pack = packs.load_pack("wi-readton")
        single = next(rid for rid, _, p in pack.readings() if not (p.reading and p.reading.other))
        with self.assertRaises(ValidationError) as refused:
            self.record(reading=single)
        self.assertIn("encodes no other reading", refused.exception.message_dict["adopted"][0])
        self.assertEqual(self.record(reading=single, adopted="choice").reading_id, single)

    def test_two_rulings_on_one_reading_from_one_day_are_refused_until_one_is_voided(self):
        first = self.record()
        with self.assertRaises(ValidationError) as refused:
            self.record(number="OP-2026-8")
        self.assertIn("void it first", refused.exception.message_dict["effective_on"][0])
        with on(date(2026, 6, 25)):
            void_ruling(first, acting_user=self.admin, reason="recorded with the wrong number")
        self.assertEqual(self.record(number="OP-2026-8").number, "OP-2026-8")
        first.refresh_from_db()
        self.assertIsNotNone(first.voided_at)  # kept, never deleted
        self.assertTrue(AuditEvent.objects.filter(action="ruling.void", object_id=str(first.pk)).exists())
        with self.assertRaises(ValidationError):
            void_ruling(first, acting_user=self.admin, reason="again")

    # --- the engine, through the app ---

    def test_an_answer_follows_the_ruling_from_its_effective_date_and_not_before(self):
        self.assertEqual(self.confinement_ends(date(2026, 7, 1)).value.owner_confinement_ends, date(2026, 6, 13))
        self.record()
        before = self.confinement_ends(date(2026, 6, 30))
        after = self.confinement_ends(date(2026, 7, 1))
        self.assertEqual(before.value.owner_confinement_ends, date(2026, 6, 13))
        self.assertEqual(after.value.owner_confinement_ends, date(2026, 6, 15))
        self.assertEqual([r["status"] for r in before.readings() if r["section"] == "§ 1"], ["pending"])
        ruled = next(r for r in after.readings() if r["section"] == "§ 1")
        self.assertEqual(ruled["status"], "ruled")
        self.assertEqual(ruled["ruled_by"], "attorney's opinion OP-2026-7 (Jane Roe) of July 1, 2026")

    def test_a_later_ruling_supersedes_from_its_own_date_and_a_voided_one_is_gone(self):
        self.record()
        later = self.record(
            adopted="choice", number="OP-2027-1", ruled_on=date(2026, 6, 24), effective_on=date(2027, 1, 1)
        )
        ends = lambda day: self.confinement_ends(day).value.owner_confinement_ends  # noqa: E731
        self.assertEqual(
            [ends(date(2026, 6, 30)), ends(date(2026, 7, 1)), ends(date(2027, 1, 1))],
            [date(2026, 6, 13), date(2026, 6, 15), date(2026, 6, 13)],
        )
        with on(date(2026, 6, 25)):
            void_ruling(Ruling.objects.get(number="OP-2026-7"), acting_user=self.admin, reason="in error")
        self.assertEqual(ends(date(2026, 7, 1)), date(2026, 6, 13))
        self.assertEqual(later.voided_at, None)

    def test_the_rulings_are_read_once_per_version_not_per_answer(self):
        self.record()
        municipality = Municipality.objects.get(pk=self.readton.pk)
        law.pack_of(municipality, date(2026, 7, 1))
        with CaptureQueriesContext(connection) as queries:
            for day in (date(2026, 6, 1), date(2026, 7, 1), date(2026, 8, 1)):
                law.pack_of(municipality, day)
        self.assertEqual(len(queries), 0)
        unruled = Municipality.objects.get(pk=self.benton.pk)
        with CaptureQueriesContext(connection) as queries:
            law.pack_of(unruled, date(2026, 7, 1))
        self.assertEqual(len(queries), 0)

    def test_a_screen_marks_the_answer_awaiting_a_ruling_before_and_ruled_by_whom_from_its_date(self):
        self.record()
        for template, key, cites in (
            ("dogtag/_why.html", "citations", lambda d: d.citations),
            ("enforcement/_why.html", "cites", lambda d: d.to_json()["citations"]),  # as a record keeps them
        ):
            before = render_to_string(template, {key: cites(self.confinement_ends(date(2026, 6, 30)))})
            after = render_to_string(template, {key: cites(self.confinement_ends(date(2026, 7, 1)))})
            before, after = (html.split("§ 1</b>")[1].split("</li>")[0] for html in (before, after))
            self.assertIn("Dogtag's reading — awaiting your attorney's ruling: the 12 days count", before)
            self.assertIn("(bite June 1, 2026: ends June 15, 2026)", before)
            self.assertNotIn("awaiting", after)
            self.assertIn("Ruled by attorney&#x27;s opinion OP-2026-7 (Jane Roe) of July 1, 2026: the 12 days", after)

    # --- the administrator's page ---

    def test_the_page_lists_each_reading_with_both_answers_on_the_example_and_the_records(self):
        self.login(self.admin)
        with on(date(2026, 6, 25)):
            page = text(self.client.get("/m/readton/readings/"))
        self.assertIn("§ 1", page)
        self.assertIn("shall keep such dog confined for not less than 12 days after the bite", page)
        self.assertIn("the 12 days count from the day the owner learns of the bite", page)
        self.assertIn("ends June 15, 2026)", page)  # the pack's ISO dates said in words
        # the example asked of the engine under each reading: June 13 on Dogtag's, June 15 on the other
        self.assertRegex(page, r"owner confinement ends</th><td>June 13, 2026</td><td>June 15, 2026</td>")
        self.assertIn("0 quarantine orders of Village of Readton", page)
        self.assertIn("Not counted: it counts the days of every deadline", page)
        self.assertIn("awaiting your attorney", page)

    def test_the_page_records_a_ruling_and_shows_who_ruled_and_when(self):
        self.login(self.admin)
        with on(date(2026, 6, 25)):
            form = {
                k: v.isoformat() if isinstance(v, date) else v
                for k, v in ruling_fields(effective_on=date(2026, 6, 25)).items()
            }
            response = self.client.post("/m/readton/readings/", form)
            self.assertEqual(response.status_code, 302)
            page = text(self.client.get("/m/readton/readings/"))
        self.assertIn(
            "Ruled by Jane Roe (attorney&#x27;s opinion OP-2026-7) on June 20, 2026, in force from June 25, 2026", page
        )
        self.assertEqual(Ruling.objects.get().recorded_by, self.admin)

    def test_a_refused_ruling_shows_each_field_s_reason(self):
        self.login(self.admin)
        with on(date(2026, 6, 25)):
            response = self.client.post("/m/readton/readings/", {"reading": READING, "adopted": "other"})
        self.assertEqual(response.status_code, 400)
        page = text(response)
        for words in (
            "Name the attorney",
            "Give the date of the ruling",
            "attorney&#x27;s opinion or a Board resolution",
        ):
            self.assertIn(words, page)
        self.assertFalse(Ruling.objects.exists())

    def test_a_clerk_is_refused_and_another_municipality_s_administrator_sees_nothing(self):
        self.login(self.readton_clerk)
        self.assertEqual(self.client.get("/m/readton/readings/").status_code, 403)
        self.assertEqual(
            self.client.post("/m/readton/readings/", ruling_fields(effective_on="2026-07-01")).status_code, 403
        )
        benton_admin = make_user("bea", (self.benton, Role.ADMINISTRATOR))
        self.login(benton_admin)
        self.assertEqual(self.client.get("/m/readton/readings/").status_code, 404)
        ruling = self.record()
        self.assertEqual(self.client.get(f"/rulings/{ruling.pk}/void/").status_code, 404)
        self.assertEqual(self.client.post(f"/rulings/{ruling.pk}/void/", {"reason": "x"}).status_code, 404)
        self.assertIsNone(Ruling.objects.get().voided_at)

    def test_a_real_pack_s_page_lists_its_readings_with_their_records_counted(self):
        admin = make_user("bea", (self.benton, Role.ADMINISTRATOR))
        self.login(admin)
        with on(date(2026, 6, 25)):
            page = text(self.client.get("/m/benton/readings/"))
        self.assertIn("§ 115-5B(2)(e)", page)
        self.assertIn("within 15 days of the effective date of this section", page)
        self.assertIn("signs by May 16, 2026 instead of May 11, 2026", page)
        self.assertRegex(page, r"\d+ declarations of ")
        # § 115-3A(6): the other reading presumes a dog indoors without its collar unlicensed.
        section = page.split('id="reading-definitionspresumed_unlicensed"')[1].split("</section>")[0]
        self.assertRegex(section, r"presumed unlicensed</th><td>no</td><td>yes</td>")
        self.assertNotIn("no worked example", page)

    def test_every_municipality_s_page_lists_every_reading_of_its_pack(self):
        for municipality in Municipality.objects.exclude(pk=self.readton.pk):
            with self.subTest(municipality.slug):
                self.login(make_user(f"admin-{municipality.slug}", (municipality, Role.ADMINISTRATOR)))
                with on(date(2026, 6, 25)):
                    response = self.client.get(f"/m/{municipality.slug}/readings/")
                self.assertEqual(response.status_code, 200)
                listed = text(response).count('<section class="reading"')
                self.assertEqual(listed, len(list(packs.load_pack(municipality.rule_pack).readings())))
