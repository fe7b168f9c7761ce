from datetime import date

from django.http import HttpRequest
from django.urls import reverse

from dogtag.audit.models import AuditEvent
from dogtag.registry.models import Animal, Person, RabiesVaccination
from tests.base import PASSWORD, BaseTestCase, on


@on(date(2026, 11, 29))
class StaffWebTests(BaseTestCase):
    def test_it_asks_for_a_login(self):
        r = self.client.get(reverse("animal", args=[self.dog.pk]))
        self.assertRedirects(r, f"/login/?next=/animals/{self.dog.pk}/")

    def test_the_demo_clerk_logs_in_and_lands_on_benton(self):
        r = self.client.post("/login/", {"username": "benton-clerk", "password": "dogtag-demo"}, follow=True)
        self.assertContains(r, "Village of Benton")
        self.assertContains(r, "Register an animal")

    def test_a_clerk_registers_a_dog_with_a_rabies_certificate(self):
        self.client.login(request=HttpRequest(), username="alice", password=PASSWORD)  # django-axes asks for a request
        r = self.client.post(
            reverse("person-new", args=["benton"]),
            {
                "kind": "individual",
                "name": "Dana Doe",
                "street": "5 Oak St",
                "city": "Benton",
                "state": "WI",
                "postal_code": "53803",
                "phone": "608-555-0199",
                "email": "",
            },
        )
        dana = Person.objects.get(name="Dana Doe")
        self.assertRedirects(r, reverse("person", args=[dana.pk]))
        r = self.client.post(
            reverse("animal-new", args=["benton"]),
            {
                "owner": dana.pk,
                "owner_role": "owner",
                "species": "dog",
                "name": "Maple",
                "breed": "Labrador",
                "color": "yellow",
                "sex": "female",
                "altered": "on",
                "altered_evidence": "Spay certificate, Dr. Vet 2025",
                "birth_date": "2025-02-01",
                "acquired_on": "2025-04-01",
            },
        )
        maple = Animal.objects.get(name="Maple")
        self.assertRedirects(r, reverse("animal", args=[maple.pk]))
        self.assertEqual(maple.municipality, self.benton)
        self.assertEqual(maple.current_owners().get().person, dana)

        r = self.client.get(reverse("vaccination-new", args=[maple.pk]))
        self.assertContains(r, 'value="Dana Doe"')
        r = self.client.post(
            reverse("vaccination-new", args=[maple.pk]),
            {
                "certificate_serial": "R-7",
                "owner_name": "Dana Doe",
                "owner_address": "5 Oak St, Benton, WI 53803",
                "animal_name": "Maple",
                "sex": "female",
                "altered": "on",
                "breed": "Labrador",
                "color": "yellow",
                "vaccinated_on": "2025-06-10",
                "vaccine_type": "killed virus, 1-year",
                "vaccine_serial": "LOT-3",
                "expires_on": "2026-06-10",
                "veterinarian_name": "Dr. Vet",
                "veterinarian_address": "1 Clinic Rd",
                "veterinarian_phone": "608-555-0100",
                "rabies_tag_number": "RT-77",
            },
        )
        v = RabiesVaccination.objects.get(certificate_serial="R-7")
        self.assertRedirects(r, reverse("vaccination", args=[v.pk]))
        r = self.client.get(reverse("animal", args=[maple.pk]))
        self.assertContains(r, "R-7")
        self.assertContains(r, "Dana Doe")
        self.assertEqual(AuditEvent.objects.filter(actor=self.clerk, action="vaccination.create").count(), 1)

    def test_a_bad_field_gets_its_message_beside_it_and_nothing_is_saved(self):
        self.login(self.clerk)
        r = self.client.post(
            reverse("animal-new", args=["benton"]),
            {
                "owner": self.owner.pk,
                "owner_role": "owner",
                "species": "dog",
                "name": "Future",
                "sex": "male",
                "birth_date": "2027-01-01",
            },
        )
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "Birth date January 1, 2027 is in the future.")
        self.assertFalse(Animal.objects.filter(name="Future").exists())

    def test_an_edit_is_audited_with_the_fields_before_and_after(self):
        self.login(self.clerk)
        data = {f: getattr(self.dog, f) or "" for f in ("species", "name", "breed", "sex", "status", "microchip")}
        data.update(color="brown", birth_date="2024-03-01", acquired_on="2024-05-01", premises=self.premises.pk)
        r = self.client.post(reverse("animal-edit", args=[self.dog.pk]), data)
        self.assertRedirects(r, reverse("animal", args=[self.dog.pk]))
        self.dog.refresh_from_db()
        self.assertEqual(self.dog.color, "brown")
        event = AuditEvent.objects.filter(action="animal.update").get()
        self.assertEqual((event.actor, event.before["color"], event.after["color"]), (self.clerk, "tricolor", "brown"))
        r = self.client.get(reverse("animal", args=[self.dog.pk]))
        self.assertContains(r, "tricolor → brown")

    def test_search_finds_by_name_address_microchip_and_tag(self):
        self.login(self.clerk)
        for q in ("Rex", "985112000000001", "RT-555"):
            self.assertContains(self.client.get("/search/", {"q": q}), f'href="/animals/{self.dog.pk}/"', msg_prefix=q)
        self.assertContains(self.client.get("/search/", {"q": "12 Main"}), f'href="/people/{self.owner.pk}/"')
        self.assertContains(self.client.get("/search/", {"q": "12 Main"}), f'href="/premises/{self.premises.pk}/"')

    def test_search_answers_htmx_with_the_results_only(self):
        self.login(self.clerk)
        r = self.client.get("/search/", {"q": "Rex"}, HTTP_HX_REQUEST="true")
        self.assertNotContains(r, "<html")
        self.assertContains(r, "Rex")

    def test_search_never_shows_another_municipalitys_records(self):
        self.login(self.webster_clerk)
        r = self.client.get("/search/", {"q": "Rex"})
        self.assertNotContains(r, f"/animals/{self.dog.pk}/")

    def test_a_voided_certificate_stays_on_record(self):
        self.login(self.vet)
        r = self.client.post(reverse("vaccination-void", args=[self.vaccination.pk]), {"reason": "wrong dog"})
        self.assertRedirects(r, reverse("vaccination", args=[self.vaccination.pk]))
        self.vaccination.refresh_from_db()
        self.assertEqual(self.vaccination.void_reason, "wrong dog")
        self.assertContains(self.client.get(reverse("animal", args=[self.dog.pk])), "(void)")

    def test_ending_an_ownership_keeps_it_in_the_history(self):
        self.login(self.clerk)
        ownership = self.dog.ownerships.get()
        r = self.client.post(reverse("ownership-end", args=[ownership.pk]), {"ended_on": "2026-11-01"})
        self.assertRedirects(r, reverse("animal", args=[self.dog.pk]))
        ownership.refresh_from_db()
        self.assertEqual(ownership.ended_on, date(2026, 11, 1))
        self.assertFalse(self.dog.current_owners().exists())

    def test_an_officer_cannot_record_a_certificate(self):
        self.login(self.officer)
        self.assertEqual(self.client.get(reverse("vaccination-new", args=[self.dog.pk])).status_code, 403)
