"""The found-dog lookup by microchip (issue 30 §4)."""

from datetime import date

from django.test import override_settings

from dogtag.portal.chips import AAHA_LOOKUP_URL
from dogtag.portal.models import Lookup, LookupCounter, MunicipalityContact
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, on

OWNER_DATA = ["Pat Owner", "12 Main St", "53803"]
REX_CHIP = "985112000000001"


@on(date(2026, 2, 10))
class ChipLookupTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        MunicipalityContact.objects.create(
            municipality=cls.benton, clerk_phone="608-555-0142", clerk_hours="Mon–Fri 8–4", police_phone="608-555-0911"
        )
        cls.webster_owner = registry.create_person(
            acting_user=cls.webster_clerk, municipality=cls.webster, name="Wanda Webster", street="9 Elm St",
            city="Webster", postal_code="54893",
        )  # fmt: skip
        cls.webster_dog = registry.register_animal(
            acting_user=cls.webster_clerk, municipality=cls.webster, owner=cls.webster_owner, name="Bo",
            sex="female", birth_date=date(2023, 1, 1), microchip="0A0139010E",
        )  # fmt: skip

    def test_a_known_chip_tells_the_finder_whom_to_call_never_the_owner(self):
        for typed in [REX_CHIP, "985 112 000 000 001", "985-112-000000001"]:
            r = self.client.get("/found/", {"chip": typed})
            self.assertContains(r, "This is Rex")
            self.assertContains(r, "608-555-0142")
            for secret in OWNER_DATA:
                self.assertNotContains(r, secret)
        self.assertEqual(Lookup.objects.filter(query=REX_CHIP, matches=1).count(), 3)

    def test_an_older_ten_character_chip_is_found_case_and_separators_aside(self):
        r = self.client.get("/found/", {"chip": "0a01-3901-0e"})
        self.assertContains(r, "This is Bo")
        self.assertNotContains(r, "Wanda")

    def test_an_unknown_chip_links_to_the_universal_lookup(self):
        r = self.client.get("/found/", {"chip": "985112999999999"})
        self.assertContains(r, "No dog with microchip 985112999999999")
        self.assertContains(r, f'href="{AAHA_LOOKUP_URL}"')
        self.assertEqual(Lookup.objects.get(query="985112999999999").matches, 0)

    def test_a_number_that_is_no_chip_number_says_what_one_is(self):
        cases = {
            "12345": "A microchip number is 15 digits, or 9 or 10 letters and digits on older chips; “12345” has 5.",
            "98511200000000X": "A 15-character microchip number is digits only (0–9).",
            "985#112": "has characters no microchip number has",
        }
        for typed, message in cases.items():
            r = self.client.get("/found/", {"chip": typed})
            self.assertContains(r, message)
            self.assertNotContains(r, "This is")
        self.assertFalse(Lookup.objects.exists())

    def test_an_officer_sees_the_owner_and_another_municipalitys_staff_learn_nothing_more(self):
        self.login(self.officer)
        self.assertContains(self.client.get("/found/", {"chip": REX_CHIP}), "Pat Owner")
        # A Webster clerk looking up a Benton chip sees what any finder sees: the office, not the owner.
        self.login(self.webster_clerk)
        r = self.client.get("/found/", {"chip": REX_CHIP})
        self.assertContains(r, "This is Rex")
        for secret in OWNER_DATA:
            self.assertNotContains(r, secret)
        # A Benton clerk looking up Webster's chip learns no Webster owner either.
        self.login(self.clerk)
        self.assertNotContains(self.client.get("/found/", {"chip": "0A0139010E"}), "Wanda")

    def test_a_dog_reported_lost_says_so_and_still_hides_the_owner(self):
        from dogtag.licensing.actions import report_animal

        report_animal(self.dog, kind="lost", happened_on=date(2026, 2, 9), by_owner=True)
        r = self.client.get("/found/", {"chip": REX_CHIP})
        self.assertContains(r, "Its owner has reported Rex lost.")
        for secret in OWNER_DATA:
            self.assertNotContains(r, secret)

    def test_a_deceased_dogs_chip_answers_nothing(self):
        from dogtag.licensing.actions import report_animal

        report_animal(self.dog, kind="died", happened_on=date(2026, 2, 9), acting_user=self.clerk)
        self.assertContains(self.client.get("/found/", {"chip": REX_CHIP}), "No dog with microchip")

    @override_settings(DOGTAG_LOOKUP_LIMIT=3)
    def test_chip_lookups_count_in_the_tag_lookups_limit(self):
        self.client.get("/found/", {"q": "RT-555"})
        for _ in range(2):
            self.assertEqual(self.client.get("/found/", {"chip": REX_CHIP}).status_code, 200)
        r = self.client.get("/found/", {"chip": REX_CHIP})
        self.assertContains(r, "Too many lookups", status_code=429)
        self.assertNotContains(r, "This is Rex", status_code=429)
        self.assertContains(self.client.get("/found/", {"chip": REX_CHIP}, REMOTE_ADDR="10.0.0.9"), "This is Rex")
        self.assertEqual(LookupCounter.objects.get(client_address="127.0.0.1").refused, 1)
