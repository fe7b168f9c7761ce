"""The readings page counts the records whose answer the other reading would change: each license
asked under both readings through the engine's batch; each citation's forfeiture, declaration's
requirement deadlines and rabies certificate's last day to revaccinate likewise; and says so
(issue 25 §3)."""

from datetime import date

from dogtag.accounts.models import Role
from dogtag.licensing import actions
from dogtag.licensing.facts import read_facts
from dogtag.licensing.owed import what_is_owed
from dogtag.registry import actions as registry_actions
from dogtag.registry.reading_counts import Counter
from dogtag.rules.amounts import LocalAmounts
from tests.base import BaseTestCase, make_user, on, text, vaccinate
from tests.licensing.base import BENTON_FEES, counter_ready

HALF_TAX = "licensing.half_tax_on_local_tax"


class ChangedLicenses(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        counter_ready(cls, 1001, 1100, 2026)
        cls.pup = registry_actions.register_animal(
            acting_user=cls.clerk,
            municipality=cls.benton,
            owner=cls.owner,
            name="Pip",
            breed="Beagle",
            color="tricolor",
            sex="female",
            birth_date=date(2026, 3, 15),
            acquired_on=date(2026, 5, 1),
            premises=cls.premises,
        )
        vaccinate(cls.pup, cls.vet, "R-2001", date(2026, 8, 1), date(2027, 8, 1))

    def issue(self, animal, day):
        owed = what_is_owed(read_facts(animal, day))
        with on(day):
            return actions.issue_license(
                animal, acting_user=self.clerk, payment={"amount": str(owed.total), "method": "cash"}, on=day
            )

    def counter(self):
        return Counter(self.benton, LocalAmounts.of({k: {date(2023, 2, 15): v} for k, v in BENTON_FEES.items()}))

    def test_a_dog_licensable_after_july_1_is_counted_and_a_grown_dog_is_not(self):
        before = self.counter().licenses_changed("wi-benton", HALF_TAX)
        self.issue(self.dog, date(2026, 2, 10))  # grown: the whole tax on both readings
        self.assertEqual(self.counter().licenses_changed("wi-benton", HALF_TAX), before)
        self.issue(self.pup, date(2026, 9, 1))  # licensable August 15: one-half, or the whole tax
        self.assertEqual(self.counter().licenses_changed("wi-benton", HALF_TAX), before + 1)

    def test_the_page_says_how_many_records_the_other_reading_would_change_and_how(self):
        self.issue(self.pup, date(2026, 9, 1))
        admin = make_user("bea", (self.benton, Role.ADMINISTRATOR))
        self.login(admin)
        with on(date(2026, 9, 2)):
            page = text(self.client.get("/m/benton/readings/"))
        section = page.split('id="reading-licensinghalf_tax_on_local_tax"')[1].split("</section>")[0]
        self.assertRegex(section, r"Records the other reading would change</dt><dd>[1-9]\d* of the \d+ licenses")
        self.assertIn("each asked under both readings, counted where the answers differ", section)
        declarations = page.split('id="reading-dangerous_dogsrequirements0"')[1].split("</section>")[0]
        self.assertIn("0 of the 0 declarations of Village of Benton: each asked under both readings", declarations)
        # A barking complaint's finding turns on the dog's other complaints: each asked with them.
        complaints = page.split('id="reading-nuisancebarking_complaints"')[1].split("</section>")[0]
        self.assertIn("0 of the 0 barking complaints of Village of Benton: each asked under both readings", complaints)


class ChangedCitations(BaseTestCase):
    def cite(self, violation, person):
        from dogtag.enforcement.actions import issue_citation

        with on(date(2026, 3, 3)):
            return issue_citation(
                acting_user=self.officer,
                municipality=self.webster,
                person=person,
                violation=violation,
                description="seen",
                violated_on=date(2026, 3, 2),
            )

    def test_a_citation_whose_forfeiture_the_other_reading_changes_is_counted(self):
        person = registry_actions.create_person(
            acting_user=self.webster_clerk,
            municipality=self.webster,
            name="Wes Owner",
            street="1 Elm St",
            city="Webster",
            postal_code="54893",
        )

        def changed():
            return Counter(self.webster, LocalAmounts.of({})).citations_changed("wi-webster", "forfeitures.ordinance.0")

        before = changed()
        self.cite("98-15", person)  # § 98-20's range on both readings
        self.assertEqual(changed(), before)
        self.cite("98-6 running at large", person)  # $50 plus costs, or $100 to $500
        self.assertEqual(changed(), before + 1)


class ChangedDeclarations(BaseTestCase):
    """Benton § 115-5B(2)(e): a vicious dog's sign is due with the compliance deadline (10 days), or
    15 days after the determination on the other reading."""

    SIGNS = "dangerous_dogs.requirements.0"

    def changed(self):
        return Counter(self.benton, LocalAmounts.of({})).declarations_changed("wi-benton", self.SIGNS)

    def declare(self, name):
        from dogtag.enforcement.actions import declare_dog

        animal = registry_actions.register_animal(
            acting_user=self.clerk,
            municipality=self.benton,
            owner=self.owner,
            name=name,
            breed="Mixed",
            color="black",
            sex="male",
            birth_date=date(2022, 1, 1),
            premises=self.premises,
        )
        with on(date(2026, 5, 1)):
            return declare_dog(
                acting_user=self.officer,
                municipality=self.benton,
                animal=animal,
                evidence="the officer's report",
                determined_on=date(2026, 5, 1),
                incidents=[],
                fighting=True,
            )

    def test_each_vicious_dog_is_counted_once_its_determination_shared(self):
        before = self.changed()
        self.assertEqual(self.declare("Fang").classification, "vicious")
        self.assertEqual(self.changed(), before + 1)
        self.declare("Tusk")  # the same facts: one group asked once, counted twice
        self.assertEqual(self.changed(), before + 2)


class ChangedCertificates(BaseTestCase):
    """s. 95.21(2)(a) in Webster: the last day to revaccinate moved past a Sunday or holiday
    (s. 990.001(4)), or not on the other reading; a weekday is the same day on both."""

    REVACCINATION = "rabies.revaccination"

    def changed(self):
        return Counter(self.webster, LocalAmounts.of({})).certificates_changed("wi-webster", self.REVACCINATION)

    def test_a_certificate_whose_last_day_is_a_sunday_is_counted(self):
        vet = make_user("wanda", (self.webster, Role.VETERINARIAN))
        person = registry_actions.create_person(
            acting_user=self.webster_clerk,
            municipality=self.webster,
            name="Wes Owner",
            street="1 Elm St",
            city="Webster",
            postal_code="54893",
        )
        dogs = [
            registry_actions.register_animal(
                acting_user=self.webster_clerk,
                municipality=self.webster,
                owner=person,
                name=name,
                breed="Mixed",
                color="brown",
                sex="female",
                birth_date=date(2020, 1, 1),
                owned_from=date(2020, 3, 1),
            )
            for name in ("Ada", "Bea")
        ]
        before = self.changed()
        with on(date(2025, 3, 9)):
            # Each the dog's second certificate: due the day before its expiry.
            vaccinate(dogs[0], vet, "W-1", date(2024, 3, 1), date(2025, 3, 1))
            vaccinate(dogs[1], vet, "W-2", date(2024, 3, 1), date(2025, 3, 1))
            self.assertEqual(self.changed(), before)
            vaccinate(dogs[0], vet, "W-3", date(2025, 3, 8), date(2028, 3, 9))  # last day Wednesday, March 8
            self.assertEqual(self.changed(), before)
            vaccinate(dogs[1], vet, "W-4", date(2025, 3, 6), date(2028, 3, 6))  # last day Sunday, March 5
            self.assertEqual(self.changed(), before + 1)
