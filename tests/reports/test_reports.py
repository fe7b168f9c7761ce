import csv
import io
from datetime import date
from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dogtag.accounts.models import Role
from dogtag.enforcement import actions as enforcement
from dogtag.licensing import actions as licensing
from dogtag.registry import actions as registry
from dogtag.registry.models import Municipality
from tests.base import BaseTestCase, make_user, on, text
from tests.enforcement.fixtures import benton_cases
from tests.licensing.base import benton_license


def add_dog(t, name, born=date(2023, 1, 5), premises=None, chip=""):
    return registry.register_animal(
        acting_user=t.clerk,
        municipality=t.benton,
        owner=t.owner,
        name=name,
        breed="Mutt",
        color="black",
        sex="female",
        birth_date=born,
        premises=premises,
        microchip=chip,
    )


def vaccinate(t, dog, serial, expires_on=date(2028, 6, 1)):
    return registry.record_vaccination(
        dog, acting_user=t.vet, certificate_serial=serial, vaccinated_on=date(2025, 6, 1), vaccine_type="killed",
        vaccine_serial="L", expires_on=expires_on, veterinarian_name="Dr. V", veterinarian_address="1 Rd",
        veterinarian_phone="1", rabies_tag_number=f"T-{serial}",
    )  # fmt: skip


@on(date(2026, 2, 10))
class LicensingReportTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.fee, cls.license = benton_license(cls)  # Rex, intact: $10 tax, paid in cash on February 10

    def get(self, name, **params):
        self.login(self.clerk)
        return self.client.get(reverse(f"report-{name}", args=["benton"]), params)

    def test_licenses_issued_by_kind_with_tax_and_late_fees(self):
        r = self.get("licenses", start="2026-01-01", end="2026-12-31")
        table = r.context["report"].tables[0]
        self.assertEqual(table.rows, [["Individual", "dog", "intact", 1, Decimal("10.00"), 0, Decimal("0.00")]])
        self.assertContains(r, "$10.00")

    def test_the_remittance_splits_state_minimum_and_local_tax(self):
        r = self.get("remittance", start="2026-01-01", end="2026-12-31")
        row = r.context["report"].tables[0].rows[0]
        # Kind, class, tax each, licenses, collected, state minimum, local, late fees, retained, to the county
        self.assertEqual(
            row,
            [
                "Individual",
                "intact",
                Decimal("10.00"),
                1,
                Decimal("10.00"),
                Decimal("8.00"),
                Decimal("2.00"),
                Decimal("0.00"),
                Decimal("0.00"),
                Decimal("8.00"),
            ],
        )
        self.assertContains(r, "s. 174.08")
        self.assertContains(r, "Pay the county treasurer $8.00")

    def test_river_hills_pays_the_commission_its_agreement_names(self):
        # s. 174.08(2); River Hills § 2.14(4)[a] names the Milwaukee Area Domestic Animal Control Commission.
        river_hills = Municipality.objects.get(slug="river-hills")
        self.login(make_user("rhoda", (river_hills, Role.CLERK)))
        r = self.client.get(
            reverse("report-remittance", args=["river-hills"]), {"start": "2026-01-01", "end": "2026-12-31"}
        )
        self.assertEqual(
            r.context["report"].title, "Remittance to the Milwaukee Area Domestic Animal Control Commission"
        )
        self.assertContains(r, "Pay the Milwaukee Area Domestic Animal Control Commission $0")
        self.assertContains(r, "s. 174.08(2)")
        self.assertNotContains(r, "county treasurer $")

    def test_a_part_time_collecting_official_retains_25_cents(self):
        r = self.get("remittance", start="2026-01-01", end="2026-12-31", part_time_collector="on")
        row = r.context["report"].tables[0].rows[0]
        self.assertEqual((row[8], row[9]), (Decimal("0.25"), Decimal("7.75")))
        self.assertContains(r, "s. 174.07(3)(c)")

    def test_the_county_clerk_report_lists_each_license(self):
        r = self.get("county-clerk", format="csv")
        rows = list(csv.reader(io.StringIO(text(r))))
        self.assertEqual(rows[0][:4], ["Year", "Serial", "Issued", "Owner"])
        self.assertEqual(rows[1][:4], ["2026", str(self.license.serial), "2026-02-10", "Pat Owner"])
        self.assertEqual(r["Content-Disposition"], 'attachment; filename="county-clerk-benton-2026-02-10.csv"')

    def test_the_days_close_lists_each_payment_and_totals_by_method(self):
        r = self.get("day-close", day="2026-02-10")
        by_method, each, refunds = r.context["report"].tables
        self.assertEqual(refunds.rows, [])
        self.assertEqual(by_method.rows, [["Cash", 1, Decimal("10.00")]])
        self.assertEqual(each.rows[0][1:], ["Cash", "", "Pat Owner", Decimal("10.00"), "alice"])
        self.assertEqual(self.get("day-close", day="2026-02-11").context["report"].tables[0].rows, [])

    def test_payments_by_method_over_a_period(self):
        r = self.get("payments", start="2026-02-01", end="2026-02-28")
        self.assertEqual(r.context["report"].tables[0].totals, ["Total", 1, Decimal("10.00")])

    def test_tag_stock_counts_and_links_the_return_list(self):
        licensing.void_license(self.license, acting_user=self.clerk, reason="wrong dog")
        r = self.get("tag-stock")
        self.assertEqual(r.context["report"].tables[0].rows, [[2026, 100, 0, 1, 0, 99, 100]])
        self.assertContains(r, reverse("tag-return", args=["benton", 2026]))

    def test_each_report_comes_as_a_pdf(self):
        for name in ("licenses", "remittance", "tag-stock", "animal-control"):
            r = self.get(name, format="pdf")
            self.assertEqual(r["Content-Type"], "application/pdf", name)
            self.assertTrue(r.content.startswith(b"%PDF"), name)

    def test_the_queries_do_not_grow_with_the_licenses(self):
        self.login(self.clerk)
        self.client.get(reverse("reports", args=["benton"]))

        def queries():
            with CaptureQueriesContext(connection) as c:
                for name in ("licenses", "remittance", "county-clerk", "payments", "tag-stock"):
                    self.client.get(reverse(f"report-{name}", args=["benton"]))
            return len(c)

        before = queries()
        for i in range(4):
            dog = add_dog(self, f"Dog {i}")
            vaccinate(self, dog, f"S-{i}")
            licensing.issue_license(
                dog, acting_user=self.clerk, payment={"amount": "10.00", "method": "check", "check_number": str(i)}
            )
        self.assertEqual(queries(), before)


@on(date(2028, 5, 1))
class RegistryReportTests(BaseTestCase):
    def get(self, name, **params):
        self.login(self.clerk)
        return self.client.get(reverse(f"report-{name}", args=["benton"]), params)

    def test_rabies_certificates_expiring_in_30_60_90_days(self):
        later = add_dog(self, "Later")
        vaccinate(self, later, "S-9", expires_on=date(2028, 7, 20))
        self.assertEqual(list(self.get("rabies-expiring", days="30").context["report"].tables[0].rows), [])
        rows = self.get("rabies-expiring", days="60").context["report"].tables[0].rows
        self.assertEqual([(r[0], r[4], r[5]) for r in rows], [("Rex", date(2028, 6, 1), 31)])
        rows = self.get("rabies-expiring", days="90").context["report"].tables[0].rows
        self.assertEqual([r[0] for r in rows], ["Rex", "Later"])

    def test_a_newer_certificate_takes_the_animal_off_the_list(self):
        vaccinate(self, self.dog, "R-2002", expires_on=date(2031, 5, 1))
        self.assertEqual(list(self.get("rabies-expiring", days="90").context["report"].tables[0].rows), [])

    def test_unlicensed_and_late_animals_reuse_the_licensing_list(self):
        r = self.get("unlicensed")
        self.assertEqual([row[0] for row in r.context["report"].tables[0].rows], ["Rex"])
        self.assertContains(r, reverse("license-counter", args=[self.dog.pk]))

    def test_premises_over_the_kennel_threshold(self):
        for i in range(3):
            add_dog(self, f"Dog {i}", premises=self.premises)
        rows = self.get("over-limit").context["report"].tables[0].rows
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0][:3], ["12 Main St", 4, 0])
        self.assertIn("kennel license is required", rows[0][3])

    def test_premises_over_the_household_limit_and_the_kennel_threshold_at_once(self):
        # Benton § 115-3B: more than 10 dogs is over the household limit and needs a kennel license
        for i in range(10):
            add_dog(self, f"Dog {i}", premises=self.premises)
        rows = self.get("over-limit").context["report"].tables[0].rows
        self.assertEqual(rows[0][:3], ["12 Main St", 11, 0])
        self.assertIn("11 dogs are kept here, more than the 10 allowed.", rows[0][3])
        self.assertIn("kennel license is required", rows[0][3])
        self.assertNotIn("No more than 10 dogs", rows[0][3])


@on(date(2026, 5, 20))
class AnimalControlReportTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        benton_cases(cls)
        enforcement.record_citation_paid(cls.citation, acting_user=cls.officer, paid_on=date.today())

    def test_it_counts_complaints_impoundments_bites_declarations_and_citations(self):
        self.login(self.officer)
        r = self.client.get(
            reverse("report-animal-control", args=["benton"]), {"start": "2000-01-01", "end": "2100-12-31"}
        )
        complaints, impoundments, outcomes, quarantine, declared, citations = r.context["report"].tables
        self.assertEqual(complaints.rows, [["Barking or howling", 1]])
        self.assertEqual(impoundments.rows, [["At large", 1]])
        self.assertEqual(outcomes.rows, [["Still held", 1]])
        self.assertEqual(quarantine.rows[0:2], [["Bites reported", 1], ["Quarantines after a bite", 1]])
        self.assertEqual(len(declared.rows), 1)
        self.assertEqual(
            [row[:2] for row in citations.rows], [["Issued", 1], ["Paid", 1], ["Unpaid", 0], ["Voided", 0]]
        )

    def test_another_municipalitys_clerk_gets_nothing(self):
        self.login(self.webster_clerk)
        self.assertEqual(self.client.get(reverse("report-animal-control", args=["benton"])).status_code, 404)
