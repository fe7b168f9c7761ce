from datetime import date

from django.test import override_settings

from dogtag.portal.models import Lookup, LookupCounter, MunicipalityContact
from tests.base import BaseTestCase, on
from tests.licensing.base import benton_license

OWNER_DATA = ["Pat Owner", "12 Main St", "53803"]


@on(date(2026, 2, 10))
class FoundDogTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(2026, 2, 10)):
            cls.fee, cls.license = benton_license(cls)
        MunicipalityContact.objects.create(
            municipality=cls.benton, clerk_phone="608-555-0142", clerk_hours="Mon–Fri 8–4", police_phone="608-555-0911"
        )

    def test_a_stranger_learns_whom_to_call_never_the_owner(self):
        for q in [str(self.license.serial), "rt-555"]:
            r = self.client.get("/found/", {"q": q})
            self.assertContains(r, "This is Rex")
            self.assertContains(r, "Village of Benton")
            self.assertContains(r, "608-555-0142")
            self.assertContains(r, "Mon–Fri 8–4")
            for secret in OWNER_DATA:
                self.assertNotContains(r, secret)
        self.assertEqual(Lookup.objects.filter(matches=1).count(), 2)

    def test_an_officer_sees_the_owner_and_another_municipalitys_clerk_does_not(self):
        self.login(self.officer)
        self.assertContains(self.client.get("/found/", {"q": "RT-555"}), "Pat Owner")
        self.login(self.outsider)
        self.assertNotContains(self.client.get("/found/", {"q": "RT-555"}), "Pat Owner")
        self.assertEqual(Lookup.objects.filter(user=self.officer).count(), 1)

    def test_an_unknown_tag_says_so(self):
        self.assertContains(self.client.get("/found/", {"q": "999999"}), "No dog with tag")

    @override_settings(DOGTAG_LOOKUP_LIMIT=3)
    def test_lookups_are_rate_limited_per_address(self):
        for _ in range(3):
            self.assertEqual(self.client.get("/found/", {"q": "RT-555"}).status_code, 200)
        r = self.client.get("/found/", {"q": "RT-555"})
        self.assertContains(r, "Too many lookups", status_code=429)
        self.assertNotContains(r, "This is Rex", status_code=429)
        other = self.client.get("/found/", {"q": "RT-555"}, REMOTE_ADDR="10.0.0.9")
        self.assertContains(other, "This is Rex")
        self.assertEqual(LookupCounter.objects.get(client_address="127.0.0.1").refused, 1)

    def test_a_replacement_tag_finds_the_dog_and_the_lost_tag_does_not(self):
        from dogtag.licensing.actions import replace_tag

        lost = self.license.current_tag.serial
        new = replace_tag(self.license, acting_user=self.clerk)
        self.assertNotEqual(new.serial, lost)
        self.assertContains(self.client.get("/found/", {"q": str(new.serial)}), "This is Rex")
        self.assertContains(self.client.get("/found/", {"q": str(lost)}), "No dog with tag")
