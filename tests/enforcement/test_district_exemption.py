"""A district rabies quarantine in Webster (§ 98-5): one animal's answer by tag number, name or
microchip, and the live dogs and cats the records cannot show exempt, on screen and as CSV."""

import re
from datetime import date
from types import SimpleNamespace
from urllib.parse import unquote_plus

from django.db import connection
from django.template import engines
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dogtag.enforcement import district, tables
from dogtag.lib.tables import Shown, Uncounted
from dogtag.licensing import actions as licensing
from dogtag.licensing.multiple_dogs import actions as multiple_dog_licenses
from dogtag.registry import actions as registry
from dogtag.registry.models import Animal
from tests.base import on, text
from tests.enforcement.helpers import EnforcementTestCase
from tests.licensing.base import BENTON_FEES, set_fees

DAY = date(2026, 2, 10)


class DistrictExemptionTests(EnforcementTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        webster, clerk = cls.places["webster"], cls.clerks["webster"]
        with on(date(2026, 1, 5)):
            set_fees(clerk, webster, BENTON_FEES)
            licensing.receive_tag_lot(
                acting_user=clerk, municipality=webster, license_year=2026, first_serial=501, last_serial=520
            )
            # Ace: certificate to 2028, 2026 license: exempt.
            _, _, cls.ace = cls.owner_and_dog("webster", "Ace", vaccinated_on=date(2025, 5, 1), microchip="900111")
            cls.ace_license = licensing.issue_license(
                cls.ace, acting_user=clerk, payment={"amount": "10.00", "method": "cash"}
            )
            # Bell: certificate to 2028, no license for 2026.
            _, _, cls.bell = cls.owner_and_dog("webster", "Bell", vaccinated_on=date(2025, 6, 1))
            # Cody: licensed on January 5 while his certificate ran; it expired January 15.
            _, _, cls.cody = cls.owner_and_dog("webster", "Cody")
            registry.record_vaccination(
                cls.cody,
                acting_user=cls.doc,
                certificate_serial="webster-Cody",
                vaccinated_on=date(2025, 1, 15),
                vaccine_type="killed virus, 1-year",
                vaccine_serial="L1",
                expires_on=date(2026, 1, 15),
                veterinarian_name="Dr. Doc",
                veterinarian_address="1 Clinic Rd",
                veterinarian_phone="555-0100",
                rabies_tag_number="T-Cody",
            )
            cls.cody_license = licensing.issue_license(
                cls.cody, acting_user=clerk, payment={"amount": "10.00", "method": "cash"}
            )
            # Dot, a cat never vaccinated; Gus, a dog that died; Bruno in Cedarburg, not Webster's.
            _, _, cls.dot = cls.owner_and_dog("webster", "Dot", species="cat")
            _, _, gus = cls.owner_and_dog("webster", "Gus")
            registry.update_animal(gus, acting_user=clerk, status="died")
            cls.owner_and_dog("cedarburg", "Bruno")

    def setUp(self):
        self.login(self.chief)
        with on(DAY):
            self.assert_posted(
                self.post(
                    "district-new",
                    "webster",
                    {
                        "declared_on": "2026-02-10",
                        "ends_on": "2026-03-10",
                        "area": "The Village of Webster",
                        "ordered_by": "Burnett County health department",
                        "posted_at": "Village Hall; Library; Post Office",
                    },
                )
            )
        self.district = self.latest_case("district").district

    def look_up(self, q):
        return self.client.get(reverse("district-lookup", args=[self.district.pk]), {"q": q}).content.decode()

    def test_the_case_page_offers_the_lookup_and_the_list(self):
        with on(DAY):
            page = self.client.get(reverse("case", args=[self.district.case_id])).content.decode()
        self.assertIn(reverse("district-lookup", args=[self.district.pk]), page)
        self.assertIn(reverse("district-not-exempt", args=[self.district.pk]), page)

    def test_an_immunized_dog_with_its_tag_is_exempt_by_rabies_tag_license_tag_name_or_microchip(self):
        tag = self.ace_license.current_tag.serial
        with on(DAY):
            for q in ("T-Ace", str(tag), "ace", "900111"):
                page = self.look_up(q)
                self.assertIn(
                    "<strong>Exempt</strong>: currently immunized (certificate webster-Ace, "
                    "expires May 1, 2028) with rabies tag T-Ace on record",
                    page,
                    q,
                )
                self.assertIn(f"2026 license, tag {tag}", page)
                # the engine's citation: § 98-5, both the confinement and the exemption
                self.assertIn("all dogs and cats within the village shall be kept securely confined", page)
                self.assertIn("is exempt from the village quarantine provisions of Subsection A", page)
                self.assertNotIn("Bell", page)

    def test_a_license_tag_is_no_rabies_tag_the_immunized_dog_without_a_license_is_still_exempt(self):
        """§ 98-5 asks for "a rabies vaccination tag or substitute tag"; a license tag is neither (the
        pack's choice), so the missing license is shown and does not decide."""
        with on(DAY):
            page = self.look_up("Bell")
        self.assertIn("<strong>Exempt</strong>", page)
        self.assertIn("none in force (not part of the exemption)", page)
        self.assertIn("it is no substitute tag", page)

    def test_a_licensed_dog_whose_certificate_expired_must_be_confined(self):
        with on(DAY):
            page = self.look_up(str(self.cody_license.current_tag.serial))
        self.assertIn(
            "<strong>Must be confined</strong>, tied, leashed or muzzled: no current rabies certificate.", page
        )
        self.assertIn("2026 license, tag", page)
        # the day before it expired he was exempt
        with on(date(2026, 1, 14)):
            self.assertIn("<strong>Exempt</strong>", self.look_up("Cody"))

    def test_the_lookup_stays_in_the_municipality_and_among_live_animals(self):
        with on(DAY):
            self.assertIn("No live animal in Village of Webster matches", self.look_up("Bruno"))
            self.assertIn("No live animal", self.look_up("Gus"))

    def test_the_list_names_the_dogs_and_cats_not_exempt_with_why_and_whom_to_visit(self):
        url = reverse("district-not-exempt", args=[self.district.pk])
        with on(DAY):
            page = self.client.get(url).content.decode()
            csv = self.client.get(url, {"format": "csv"})
            lines = text(csv).splitlines()  # streamed: read while the day is still frozen
        for name in ("Cody", "Dot"):
            self.assertIn(f">{name}</a>", page)
        for name in ("Ace", "Bell", "Gus", "Bruno"):
            self.assertNotIn(f">{name}</a>", page)
        self.assertIn("no current rabies certificate", page)
        self.assertIn("Not exempt on February 10, 2026</caption>", page)  # not counted
        self.assertIn("2 shown, in name order; the CSV lists every one.", page)
        self.assertNotIn('rel="next"', page)
        self.assertEqual(csv["Content-Type"], "text/csv; charset=utf-8")
        self.assertEqual(lines[0], "Animal,Species,Why,License in force,Owner,Address,Phone")
        self.assertEqual(len(lines), 3)
        self.assertTrue(
            lines[1].startswith(f"Cody,Dog,no current rabies certificate,{self.cody_license.serial},Cody's owner")
        )
        self.assertTrue(lines[2].startswith("Dot,Cat,no current rabies certificate,,Dot's owner"))  # no license: empty

    def _fido_covered(self, fees, **dog):
        """Fido, in Webster, and the multiple-dog license (four dogs, $35 paid) that covers him."""
        webster = self.places["webster"]
        set_fees(self.clerks["webster"], webster, fees)
        keeper, _, fido = self.owner_and_dog("webster", "Fido", **dog)
        covering = multiple_dog_licenses.issue_multiple_dog_license(
            acting_user=self.clerks["webster"],
            municipality=webster,
            keeper=keeper,
            dogs=4,
            animals=[fido],
            inspection_consent=True,
            payment={"amount": "35.00", "method": "cash"},
        )
        return fido, covering

    def test_a_dog_a_multiple_dog_license_covers_is_listed_with_that_license(self):
        webster = self.places["webster"]
        with on(date(2026, 1, 5)):
            fees = {"multiple_dog_license.tax": "35.00", "multiple_dog_license.each_additional": "0.00"}
            _, covering = self._fido_covered(fees)
        with on(DAY):
            rows = {a.name: a.license_serial for a in district.not_exempt(webster, DAY)[0]}
        self.assertEqual(rows, {"Cody": self.cody_license.serial, "Dot": None, "Fido": covering.serial})

    def test_the_lookup_reads_a_duplicate_tag_and_a_multiple_dog_license(self):
        with on(date(2026, 1, 5)):
            fido, covering = self._fido_covered({"multiple_dog_license.tax": "35.00"}, vaccinated_on=date(2025, 5, 1))
            certificate = fido.vaccinations.get()
            registry.record_duplicate_rabies_tag(certificate, acting_user=self.doc, tag_number="D-1")
            registry.record_duplicate_rabies_tag(certificate, acting_user=self.doc, tag_number="D-2")
        with on(DAY):
            for q in ("Fido", "d-2", "D-1"):  # the latest duplicate is the tag on record
                page = self.look_up(q)
                self.assertIn("<strong>Exempt</strong>", page, q)
                self.assertIn("with rabies tag D-2 on record", page, q)
                self.assertIn(f"{covering.license_year} license, tag {covering.serial}", page, q)

    def test_the_list_is_set_based(self):
        url = reverse("district-not-exempt", args=[self.district.pk])
        with on(DAY):
            self.client.get(url)  # warm the session and the pack
            with CaptureQueriesContext(connection) as few:
                self.client.get(url)
            for i in range(5):
                self.owner_and_dog("webster", f"Stray{i}")
            with CaptureQueriesContext(connection) as more:
                page = self.client.get(url).content.decode()
        self.assertIn("7 shown", page)
        self.assertEqual(len(more), len(few))

    def test_a_page_of_the_list_is_a_fixed_number_of_statements(self):
        url = reverse("district-not-exempt", args=[self.district.pk])
        with on(DAY):
            self.client.get(url)
            # The session, its user, second factor and memberships; the district (the engine's
            # question reads no fee schedule); which animals; the page's details and owners; the
            # municipalities the officer serves (the menu).
            with self.assertNumQueries(9):
                self.client.get(url)
            with self.assertNumQueries(9):  # a page after an animal: the same statements
                self.client.get(url, {"after": f"{self.cody.pk}:Cody"})
            # The same session and district; by name, then by microchip, rabies tag or its duplicate
            # in one statement; the animals found, their owners, certificates (with the latest
            # duplicate tag), licenses in force (a row per animal covered, with the tag issued); the menu.
            with self.assertNumQueries(12):
                self.look_up("Ace")
            # A number also names a license in force by its serial or its tag: the same statements.
            tag = str(self.ace_license.current_tag.serial)
            with self.assertNumQueries(12):
                self.look_up(tag)

    def test_the_list_reads_which_animals_then_the_details_of_one_page(self):
        url = reverse("district-not-exempt", args=[self.district.pk])
        with on(DAY):
            self.client.get(url)
            with CaptureQueriesContext(connection) as queries:
                self.client.get(url)
        animals = [q["sql"] for q in queries if 'FROM "registry_animal" ' in q["sql"]]
        self.assertEqual(len(animals), 2, animals)  # which animals in order (not counted), the page's details
        which, details = animals
        self.assertIn("LIMIT 101", which)  # a page and one more, to know whether another follows
        # One test of the two facts: the tagged certificates are read once.
        self.assertEqual(which.count('"registry_rabiesvaccination"'), 1)
        self.assertIn(f"IN ({self.cody.pk}, {self.dot.pk})", details)

    def strays(self, names):
        """Unvaccinated dogs of Webster, made in one statement: each is not exempt."""
        webster = self.places["webster"]
        return Animal.objects.bulk_create(Animal(municipality=webster, name=n, sex="male") for n in names)

    def test_the_list_pages_by_name_with_no_animal_twice_or_skipped_even_when_names_tie(self):
        strays = self.strays(["Ace"] * 3 + ["Bo"] * 150 + ["Zed"] * 3)  # Ace the exempt one ties them
        expected = sorted([(a.name, a.pk) for a in [*strays, self.cody, self.dot]])
        url = reverse("district-not-exempt", args=[self.district.pk])
        with on(DAY):
            first = self.client.get(url).content.decode()
            after = re.search(r'<a href="\?after=([^"]+)" rel="next">', first)[1]
            second = self.client.get(url, {"after": unquote_plus(after)}).content.decode()
        self.assertIn("100 shown, in name order; more follow", first)
        self.assertNotIn('rel="first"', first)
        self.assertIn('<a href="?" rel="first">First page</a>', second)
        self.assertNotIn('rel="next"', second)
        shown = [(a.name, a.pk) for a in self.rows_of(first) + self.rows_of(second)]
        self.assertEqual(shown, expected)  # in name order, each once

    def rows_of(self, page):
        """The animals of a page of the list, read from their links in order."""
        pks = [int(pk) for pk in re.findall(r'href="/animals/(\d+)/"', page)]
        found = Animal.objects.in_bulk(pks)
        return [found[pk] for pk in pks]

    def test_a_page_after_a_name_that_ties_steps_past_the_ones_shown(self):
        bo = self.strays(["Bo"] * 4)
        listed, _ = district.not_exempt(self.places["webster"], DAY)
        first, more = listed.after(None, 3)
        self.assertEqual([a.pk for a in first], [bo[0].pk, bo[1].pk, bo[2].pk])
        self.assertTrue(more)
        rest, more = listed.after(("Bo", bo[2].pk), 3)
        self.assertEqual([a.name for a in rest], ["Bo", "Cody", "Dot"])
        self.assertTrue(more is False and rest[0].pk == bo[3].pk)

    def test_a_page_walks_the_name_index_in_order_and_stops_at_its_limit(self):
        self.strays([f"Stray {i:03}" for i in range(200)])
        listed, _ = district.not_exempt(self.places["webster"], DAY)
        page = listed.which(few=True).filter(name__gte="Bo").values_list("pk", flat=True)[:101]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE registry_animal")
                cursor.execute("SET LOCAL enable_seqscan = off")  # as a large table prices a scan
            plan = page.explain()
            self.assertTrue(plan.startswith("Limit"), plan)
            self.assertIn("Scan using animals_by_name on registry_animal", plan)
            self.assertIn("Index Cond: ((municipality_id = ", plan)
            self.assertIn("(name)::text >= 'Bo'::text", plan)
            # sorted only within a name, on the index's order: no sort of the whole list
            self.assertIn("Presorted Key: registry_animal.name", plan)
        else:
            plan = page.explain()
            self.assertIn(
                "SEARCH registry_animal USING COVERING INDEX animals_by_name (municipality_id=? AND name>?)", plan
            )
            self.assertIn("USE TEMP B-TREE FOR RIGHT PART OF ORDER BY", plan)  # only within a name
            self.assertNotIn("USE TEMP B-TREE FOR ORDER BY", plan)
            self.assertNotIn("LIST SUBQUERY", plan)  # no set of every certificate in force

    def test_a_malformed_after_is_refused_by_name_never_a_500(self):
        url = reverse("district-not-exempt", args=[self.district.pk])
        with on(DAY):
            for after in ("x", "Cody", "12", ":Cody", "x:Cody", "-1:Cody", "1.5:Cody", "12:", "9" * 30 + ":Cody"):
                r = self.client.get(url, {"after": after})
                self.assertEqual(r.status_code, 400, after)
                self.assertIn(b'"after" parameter', r.content)
            r = self.client.get(url, {"after": f"{self.cody.pk}:Cody"})
        self.assertEqual(r.status_code, 200)
        self.assertEqual(self.rows_of(r.content.decode()), [self.dot])

    def test_the_lookup_is_the_same_statements_however_many_animals_it_finds(self):
        with on(DAY):
            self.look_up("Ace")
            with CaptureQueriesContext(connection) as one:
                self.assertIn("Ace", self.look_up("Ace"))
            for i in range(5):
                self.owner_and_dog("webster", f"Ace{i}", vaccinated_on=date(2025, 5, 1))
            with CaptureQueriesContext(connection) as six:
                page = self.look_up("Ace")
        self.assertIn("Ace4", page)
        self.assertEqual(len(six), len(one))
        # PostgreSQL writes each part of a UNION in parentheses.
        animals = [q["sql"] for q in six if q["sql"].lstrip("(").startswith('SELECT "registry_animal"')]
        # By name; by microchip, rabies tag or duplicate tag as one UNION ALL; then the animals found.
        self.assertEqual(len(animals), 3, animals)
        self.assertEqual([sql.count(" UNION ALL ") for sql in animals], [0, 2, 0])

    def test_the_restrained_combinations_are_one_test_each(self):
        combinations = [(False, False), (True, False), (True, True)]
        animals = {}
        with on(DAY):
            for immunized, tagged in combinations:
                name = f"Case{int(immunized)}{int(tagged)}"
                _, _, animals[(immunized, tagged)] = self.owner_and_dog(
                    "webster", name, vaccinated_on=date(2025, 5, 1) if immunized else None
                )
                if immunized and not tagged:
                    animals[(immunized, tagged)].vaccinations.update(rabies_tag_number="")
        every = set(Animal.Species.values)
        for n in range(1 << len(combinations)):
            chosen = {c for i, c in enumerate(combinations) if n >> i & 1}
            engine = district.Engine(self.places["webster"], DAY)
            engine.answers = {
                (s, i, t): SimpleNamespace(value=SimpleNamespace(must_be_restrained=(i, t) in chosen))
                for s in every
                for i in (False, True)
                for t in (False, True)
            }
            found = set(
                Animal.objects.filter(pk__in=[a.pk for a in animals.values()])
                .alias(**district._facts(DAY, few=False))
                .filter(engine.restrained())
            )
            self.assertEqual(found, {animals[c] for c in chosen}, chosen)

    def test_other_roles_and_municipalities_are_refused(self):
        self.login(self.clerks["cedarburg"])
        self.assertEqual(self.client.get(reverse("district-lookup", args=[self.district.pk])).status_code, 404)
        self.login(self.doc)  # a veterinarian in Webster, not staff
        self.assertEqual(self.client.get(reverse("district-not-exempt", args=[self.district.pk])).status_code, 403)

    def test_the_list_rows_are_written_as_the_table_template_writes_them(self):
        stray = self.strays(["<Rex & Co>"])[0]
        Animal.objects.filter(pk=stray.pk).update(status=Animal.Status.MISSING)
        request = RequestFactory().get("/")
        request.user = self.chief
        with on(DAY):
            (table,) = tables.not_exempt(request, self.district.pk).tables
            rows, _ = table.objects.after(None, 100)
        ours = engines["django"].from_string("{% load not_exempt %}{% not_exempt_rows shown %}")
        for page in (rows, []):  # the rows, and the "empty" row
            shown = Shown(table, Uncounted(page), "after", {})
            theirs = render_to_string("dogtag/_table.html", {"shown": shown})
            body = theirs.split("<tbody>\n  ", 1)[1].split("\n  </tbody>", 1)[0]
            self.assertEqual(ours.render({"shown": shown}), body)
            if page:
                self.assertIn("&lt;Rex &amp; Co&gt;</a> (missing)", body)
                self.assertIn('<td class="amount">', body)  # Cody's license serial
