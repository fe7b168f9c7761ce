"""The counter page's reads (licensing/counter_page.py, facts.py) answer as scoped: another
municipality's animal, or a number no animal has, is a 404."""

from datetime import date

from dogtag.licensing import actions, facts
from dogtag.licensing.counter_page import animal_and_stock
from dogtag.licensing.models import License
from dogtag.registry import actions as registry
from dogtag.registry.models import Animal
from tests.base import on
from tests.licensing.base import CounterApiTestCase


@on(date(2026, 5, 20))
class CounterPageReadsTests(CounterApiTestCase):
    def test_another_municipalitys_animal_or_none_at_all_is_not_found(self):
        self.login(self.outsider)
        self.assertEqual(self.client.get(f"/animals/{self.dog.pk}/license/").status_code, 404)
        self.login(self.clerk)
        for pk in (self.dog.pk + 1000, 2**31, 2**63, 2**64):
            self.assertEqual(self.client.get(f"/animals/{pk}/license/").status_code, 404, pk)

    def test_the_animal_its_municipality_and_the_years_in_stock(self):
        animal, stocked = animal_and_stock(self.clerk, self.dog.pk, date(2026, 5, 20))
        self.assertEqual((animal, animal.municipality, animal.name), (self.dog, self.benton, "Rex"))
        self.assertEqual(stocked, {2026})
        actions.receive_tag_lot(
            acting_user=self.clerk, municipality=self.benton, license_year=2027, first_serial=1, last_serial=5
        )
        self.assertEqual(animal_and_stock(self.clerk, self.dog.pk, date(2026, 5, 20))[1], {2026, 2027})
        with self.assertNumQueries(0):
            self.assertEqual(animal.municipality.slug, "benton")

    def test_the_animals_kept_with_it_on_its_premises_and_with_its_owners(self):
        stray = registry.register_animal(
            acting_user=self.clerk,
            municipality=self.benton,
            owner=self.owner,
            name="Bella",
            breed="Mix",
            color="black",
            sex="female",
            birth_date=date(2025, 1, 1),
        )
        for animal in (self.dog, stray):  # on the premises; no premises: its owners' other animals
            with self.subTest(animal=animal.name):
                orm = list(facts.kept_with(animal, date(2026, 5, 20)).values_list(*facts.KEPT_COLUMNS))
                self.assertCountEqual(facts.kept_rows(animal, date(2026, 5, 20)), orm)  # in no order
        self.assertEqual(len(facts.kept_rows(stray, date(2026, 5, 20))), 2)

    def test_the_licenses_in_force(self):
        self.assertEqual(facts.licenses_in_force(self.dog, 2026, True), ())
        license = actions.issue_license(self.dog, acting_user=self.clerk, payment={"method": "cash", "amount": "15.00"})
        for multiple_dog in (False, True):
            found = facts.licenses_in_force(Animal.objects.get(pk=self.dog.pk), 2026, multiple_dog)
            self.assertEqual(found, (license,))
            self.assertEqual(found[0].citations, License.objects.get(pk=license.pk).citations)
        self.assertEqual(facts.licenses_in_force(self.dog, 2025, True), ())

    def test_a_bad_payment_shows_each_fields_error_on_its_input(self):
        self.login(self.clerk)
        r = self.client.post(f"/animals/{self.dog.pk}/license/", {"method": "cash", "amount": "ten", "tag_serial": "0"})
        self.assertEqual(r.status_code, 200)
        self.assertFalse(License.objects.filter(animal=self.dog).exists())
        self.assertContains(r, 'class="error-summary"')
        self.assertContains(r, '<a href="#id_amount">Amount received: Enter a number.</a>', html=True)
        form = r.context["form"]
        for name in ("amount", "tag_serial"):
            self.assertInHTML(str(form[name]), r.content.decode())  # as Django's widget renders it
            self.assertContains(r, f'aria-describedby="id_{name}_error"')
        self.assertInHTML(str(form["method"]), r.content.decode())
        self.assertContains(r, '<label for="id_amount">Amount received</label>', html=True)
