from datetime import date

from django.urls import reverse

from dogtag.accounts.models import Role
from dogtag.licensing import actions
from dogtag.licensing.facts import current_owner
from dogtag.registry import actions as registry
from dogtag.registry.models import Municipality
from tests.base import BaseTestCase, make_user, on
from tests.licensing.base import BENTON_FEES, set_fees


@on(date(2026, 6, 15))
class TransferTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        set_fees(cls.clerk, cls.benton, BENTON_FEES)
        actions.receive_tag_lot(
            acting_user=cls.clerk,
            municipality=cls.benton,
            license_year=2026,
            first_serial=1,
            last_serial=3,
            received_on=date(2026, 1, 2),
        )
        with on(date(2026, 2, 2)):
            cls.license = actions.issue_license(
                cls.dog, acting_user=cls.clerk, payment={"method": "cash", "amount": "10.00"}
            )
        cls.buyer = registry.create_person(
            acting_user=cls.clerk,
            municipality=cls.benton,
            name="Bea Buyer",
            street="4 Oak St",
            city="Benton",
            postal_code="53803",
        )

    def test_the_license_follows_the_dog_to_its_new_owner(self):
        self.login(self.clerk)
        r = self.client.post(
            reverse("animal-transfer", args=[self.dog.pk]), {"to_person": self.buyer.pk, "on": "2026-06-15"}
        )
        self.assertRedirects(r, reverse("animal", args=[self.dog.pk]))
        self.assertEqual([o.person for o in self.dog.current_owners()], [self.buyer])
        old = self.dog.ownerships.get(person=self.owner)
        self.assertEqual(old.ended_on, date(2026, 6, 14))
        self.license.refresh_from_db()
        self.assertIsNone(self.license.voided_at)
        self.assertEqual(self.license.owner_name, "Pat Owner", "the license states the owner it was issued to")
        self.assertContains(
            self.client.get(reverse("license-counter", args=[self.dog.pk])),
            f"License {self.license.serial} is already in force for 2026.",
        )

    def test_a_license_is_issued_to_whoever_owns_the_dog_on_its_day(self):
        registry.transfer_animal(self.dog, acting_user=self.clerk, to_person=self.buyer, on=date(2026, 5, 20))
        self.assertEqual(current_owner(self.dog, date(2026, 5, 19)), self.owner)
        self.assertEqual(current_owner(self.dog, date(2026, 5, 20)), self.buyer)
        self.assertIsNone(current_owner(self.dog, date(2000, 1, 1)), "before anyone owned it")
        actions.void_license(self.license, acting_user=self.clerk, reason="issued to the seller")
        paid = {"method": "cash", "amount": "15.00"}  # with the late fee, in May (the certificate runs out June 1)
        again = actions.issue_license(self.dog, acting_user=self.clerk, payment=paid, on=date(2026, 5, 20))
        self.assertEqual((again.holder, again.owner_name), (self.buyer, "Bea Buyer"))

    def test_a_transfer_to_the_current_owner_is_refused(self):
        self.login(self.clerk)
        r = self.client.post(
            reverse("animal-transfer", args=[self.dog.pk]), {"to_person": self.owner.pk, "on": "2026-06-15"}
        )
        self.assertContains(r, "Pat Owner already owns Rex.")


class LimitWarningTests(BaseTestCase):
    def keep(self, municipality, clerk, owner, premises, species, count):
        for i in range(count):
            registry.register_animal(
                acting_user=clerk,
                municipality=municipality,
                owner=owner,
                premises=premises,
                name=f"{species} {i}",
                species=species,
                sex="female",
                birth_date=date(2024, 1, 1),
            )

    @on(date(2026, 3, 1))
    def test_cedarburg_warns_of_more_than_three_dogs_and_cats(self):
        cedarburg = Municipality.objects.get(slug="cedarburg")
        clerk = make_user("cc", (cedarburg, Role.CLERK))
        owner = registry.create_person(
            acting_user=clerk,
            municipality=cedarburg,
            name="Cat Lady",
            street="1 A St",
            city="Cedarburg",
            postal_code="53012",
        )
        home = registry.create_premises(acting_user=clerk, municipality=cedarburg, street="1 A St", use="single-family")
        self.keep(cedarburg, clerk, owner, home, "cat", 3)
        self.login(clerk)
        animal = cedarburg.animal_set.first()
        self.assertNotContains(self.client.get(reverse("license-counter", args=[animal.pk])), "allowed")
        self.keep(cedarburg, clerk, owner, home, "dog", 1)
        r = self.client.get(reverse("license-counter", args=[animal.pk]))
        self.assertContains(r, "4 dogs and cats are kept here, more than the 3 allowed.")
        self.assertContains(r, "§ 7-1-6")

    @on(date(2026, 3, 1))
    def test_benton_warns_of_a_kennel_over_three_dogs(self):
        self.keep(self.benton, self.clerk, self.owner, self.premises, "dog", 3)  # Rex makes four
        self.login(self.clerk)
        r = self.client.get(reverse("license-counter", args=[self.dog.pk]))
        self.assertContains(r, "4 dogs over licensable age are kept here: a kennel license is required")
        self.assertContains(r, "§ 115-3B")

    @on(date(2026, 3, 1))
    def test_benton_warns_once_of_more_than_ten_dogs_on_one_premises(self):
        # § 115-3B: "No more than 10 dogs over the age of five months shall be kept on any one
        # premises." Benton's household limit and its kennel's maximum are that one sentence.
        self.keep(self.benton, self.clerk, self.owner, self.premises, "dog", 10)  # Rex makes eleven
        self.login(self.clerk)
        r = self.client.get(reverse("license-counter", args=[self.dog.pk]))
        self.assertContains(r, "11 dogs are kept here, more than the 10 allowed.")
        self.assertNotContains(r, "dogs and cats")
        self.assertNotContains(r, "No more than 10 dogs may be kept")

    def test_cedarburg_allows_a_litter_five_months_before_it_counts(self):
        # § 7-1-6(f): "A time limit of five (5) months is allowed for litters."
        cedarburg = Municipality.objects.get(slug="cedarburg")
        clerk = make_user("cc", (cedarburg, Role.CLERK))
        owner = registry.create_person(
            acting_user=clerk,
            municipality=cedarburg,
            name="Cat Lady",
            street="1 A St",
            city="Cedarburg",
            postal_code="53012",
        )
        home = registry.create_premises(acting_user=clerk, municipality=cedarburg, street="1 A St", use="single-family")
        with on(date(2026, 3, 1)):
            self.keep(cedarburg, clerk, owner, home, "cat", 3)
            for i in range(2):  # littermates, born the same day to a cat kept here
                registry.register_animal(
                    acting_user=clerk,
                    municipality=cedarburg,
                    owner=owner,
                    premises=home,
                    name=f"kitten {i}",
                    species="cat",
                    sex="female",
                    birth_date=date(2026, 1, 10),
                )
        animal = cedarburg.animal_set.order_by("pk").first()
        with on(date(2026, 6, 9)):
            self.login(clerk)
            self.assertNotContains(self.client.get(reverse("license-counter", args=[animal.pk])), "allowed")
        with on(date(2026, 6, 10)):
            self.login(clerk)
            r = self.client.get(reverse("license-counter", args=[animal.pk]))
            self.assertContains(r, "5 dogs and cats are kept here, more than the 3 allowed.")
