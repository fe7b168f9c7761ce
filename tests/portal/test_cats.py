"""Issue 29, dead end 1: Cedarburg licenses cats (§ 7-1-3(a)(1)), so its portal takes a cat's
application; Benton licenses dogs only, and its form asks nothing about the species."""

from datetime import date

from dogtag.licensing import actions as licensing
from dogtag.licensing.models import License
from dogtag.portal.models import Application
from tests.base import BaseTestCase, on
from tests.portal.helpers import FULL, MEDIA, smtp_server, upload

DAY = date(2026, 2, 10)


@MEDIA
@on(DAY)
class CatApplicationTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(DAY):
            licensing.receive_tag_lot(
                acting_user=cls.outsider, municipality=cls.cedarburg, license_year=2026, first_serial=1, last_serial=9
            )

    def start(self, municipality):
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post("/apply/", {"municipality": municipality.pk, "email": "cat@example.org"})
        return Application.objects.get(email="cat@example.org", municipality=municipality)

    def test_a_cedarburg_resident_licenses_a_cat_online(self):
        app = self.start(self.cedarburg)
        page = self.client.get(f"/apply/a/{app.token}/")
        self.assertContains(page, "Dog or cat license application")
        self.assertContains(page, '<option value="cat">Cat</option>', html=True)
        data = {**FULL, "city": "Cedarburg", "species": "cat", "animal_name": "Whiskers", "breed": "Domestic shorthair"}
        with self.captureOnCommitCallbacks(execute=True):
            r = self.client.post(
                f"/apply/a/{app.token}/", {**data, "step": "review", "rabies_certificate_file": upload()}
            )
        self.assertRedirects(r, f"/apply/a/{app.token}/review/")
        review = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(review, "Your cat&#x27;s license costs $10.00")
        with smtp_server(), self.captureOnCommitCallbacks(execute=True):
            self.client.post(f"/apply/a/{app.token}/review/", {"provider": "counter"})
        self.login(self.outsider)
        with smtp_server(), self.captureOnCommitCallbacks(execute=True):
            r = self.client.post(
                f"/applications/{app.pk}/", {"decision": "approve", "method": "cash", "amount": "10.00"}
            )
        license = License.objects.get(animal__name="Whiskers")
        self.assertRedirects(r, f"/licenses/{license.pk}/")
        self.assertEqual((license.animal.species, license.municipality), ("cat", self.cedarburg))

    def test_a_benton_form_asks_only_about_a_dog(self):
        app = self.start(self.benton)
        page = self.client.get(f"/apply/a/{app.token}/")
        self.assertContains(page, "Dog license application")
        self.assertNotContains(page, 'name="species"')

    def test_the_portal_lists_each_problem_linked_to_its_field(self):
        """Issue 29, confusing: the portal's banner neither listed nor linked the items."""
        app = self.start(self.benton)
        r = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(r, 'class="error-summary" role="alert" tabindex="-1"')
        self.assertContains(r, '<a href="#id_animal_name">Dog&#x27;s name: This field is required.</a>', html=True)
        self.assertContains(r, "dogtag/forms.js")
