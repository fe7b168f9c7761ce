from datetime import date

from django.urls import reverse

from dogtag.audit.models import AuditEvent
from dogtag.licensing import actions
from dogtag.licensing.models import License, Payment, Tag
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, on, vaccinate
from tests.licensing.base import BENTON_FEES, counter_ready, receive_tags, set_fees


@on(date(2026, 5, 20))
class RefusalTests(BaseTestCase):
    """Refused with a clear message, and nothing written."""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        receive_tags(cls, 1, 20)

    def issue(self, animal, **data):
        self.login(self.clerk)
        before = (
            License.objects.count(),
            Payment.objects.count(),
            AuditEvent.objects.count(),
            Tag.objects.filter(status="in-stock").count(),
        )
        r = self.client.post(reverse("license-counter", args=[animal.pk]), data)
        after = (
            License.objects.count(),
            Payment.objects.count(),
            AuditEvent.objects.count(),
            Tag.objects.filter(status="in-stock").count(),
        )
        return r, before == after

    def test_it_refuses_while_an_amount_is_not_set_and_links_to_the_schedule(self):
        self.login(self.clerk)
        r = self.client.get(reverse("license-counter", args=[self.dog.pk]))
        self.assertContains(r, "No amount is set for “license tax — unaltered”: § 115-3A(3) leaves it to the local")
        self.assertContains(r, reverse("fees", args=["benton"]))
        r, unchanged = self.issue(self.dog, method="cash", amount="10.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "§ 115-3A(3) leaves it to the local fee schedule")

    def test_it_refuses_without_current_rabies_immunization(self):
        set_fees(self.clerk, self.benton, BENTON_FEES)
        registry.void_vaccination(self.vaccination, acting_user=self.vet, reason="entered for the wrong dog")
        r, unchanged = self.issue(self.dog, method="cash", amount="15.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "No rabies certificate is recorded for Rex; § 115-3A(4) requires current immunization")

    def test_it_names_the_expiry_of_a_lapsed_certificate(self):
        set_fees(self.clerk, self.benton, BENTON_FEES)
        registry.update_vaccination(self.vaccination, acting_user=self.vet, expires_on=date(2026, 3, 2))
        r, unchanged = self.issue(self.dog, method="cash", amount="15.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "Rabies certificate R-1001 expired on March 1, 2026; § 115-3A(4) requires current")

    def test_it_refuses_a_species_the_municipality_does_not_license(self):
        set_fees(self.clerk, self.benton, BENTON_FEES)
        cat = registry.register_animal(
            acting_user=self.clerk,
            municipality=self.benton,
            owner=self.owner,
            name="Tom",
            species="cat",
            sex="male",
            birth_date=date(2024, 1, 1),
        )
        r, unchanged = self.issue(cat)
        self.assertTrue(unchanged)
        self.assertContains(r, "Village of Benton does not license a cat")

    def test_it_refuses_a_puppy_not_licensable_this_year(self):
        set_fees(self.clerk, self.benton, BENTON_FEES)
        with on(date(2026, 11, 20)):
            pup = registry.register_animal(
                acting_user=self.clerk,
                municipality=self.benton,
                owner=self.owner,
                name="Pip",
                sex="male",
                birth_date=date(2026, 9, 1),
            )
            r, unchanged = self.issue(pup)
        self.assertTrue(unchanged)
        self.assertContains(r, "Pip is not licensable in 2026: it becomes licensable on February 1, 2027")

    def test_it_refuses_a_second_license_for_the_year(self):
        set_fees(self.clerk, self.benton, BENTON_FEES)
        self.issue(self.dog, method="cash", amount="15.00")
        r, unchanged = self.issue(self.dog, method="cash", amount="15.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "License 1 is already in force for 2026.")

    def test_a_partial_payment_is_not_a_license(self):
        set_fees(self.clerk, self.benton, BENTON_FEES)
        r, unchanged = self.issue(self.dog, method="cash", amount="10.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "$10.00 received but $15.00 is due")

    def test_a_check_needs_its_number(self):
        set_fees(self.clerk, self.benton, BENTON_FEES)
        r, unchanged = self.issue(self.dog, method="check", amount="15.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "Enter the check number.")

    def test_the_tag_in_hand_is_issued_and_an_issued_tag_is_refused(self):
        set_fees(self.clerk, self.benton, BENTON_FEES)
        r, _ = self.issue(self.dog, method="check", amount="15.00", check_number="1042", tag_serial="7")
        license = License.objects.get()
        self.assertEqual((license.serial, license.payment.check_number), (7, "1042"))
        other = registry.register_animal(
            acting_user=self.clerk,
            municipality=self.benton,
            owner=self.owner,
            name="Bo",
            sex="male",
            birth_date=date(2025, 1, 1),
            acquired_on=date(2025, 2, 1),
        )
        vaccinate(other, self.vet, "R-9", date(2026, 4, 1), date(2027, 4, 1))
        r, unchanged = self.issue(other, method="cash", amount="15.00", tag_serial="7")
        self.assertTrue(unchanged)
        self.assertContains(r, "Tag 7 for 2026 cannot be issued: it was issued.")
        r, unchanged = self.issue(other, method="cash", amount="15.00", tag_serial="900")
        self.assertContains(r, "Tag 900 for 2026 cannot be issued: no 2026 lot received from the county clerk")

    def test_a_fee_below_the_state_minimum_is_refused_with_the_reason(self):
        self.login(self.clerk)
        r = self.client.post(
            reverse("fees", args=["benton"]),
            {"key": "license_tax.unaltered", "amount": "7.00", "effective_on": "2026-01-01", "authority": "Res. 1"},
        )
        self.assertContains(r, "$7.00 is below the state minimum tax of $8.00")
        self.assertContains(r, "(Wis. Stats. s. 174.05(2))")
        self.assertFalse(self.benton.feescheduleentry_set.exists())

    def test_a_late_fee_other_than_the_states_is_refused_with_the_section(self):
        self.login(self.clerk)
        r = self.client.post(
            reverse("fees", args=["benton"]),
            {"key": "late_fee", "amount": "10.00", "effective_on": "2026-01-01", "authority": "Res. 1"},
        )
        self.assertContains(r, "the state fixes a late fee of $5.00, not $10.00 (Wis. Stats. s. 174.05(5))")
        self.assertFalse(self.benton.feescheduleentry_set.exists())

    def test_an_intact_tax_not_above_the_altered_one_is_refused(self):
        self.login(self.clerk)
        post = {"effective_on": "2026-01-01", "authority": "Res. 1", "amount": "12.00"}
        self.client.post(reverse("fees", args=["benton"]), {"key": "license_tax.altered", **post})
        r = self.client.post(reverse("fees", args=["benton"]), {"key": "license_tax.unaltered", **post})
        self.assertContains(r, "must be greater than the tax for a spayed or neutered dog ($12.00)")
        self.assertContains(r, "(Wis. Stats. s. 174.05(3))")
        self.assertEqual(self.benton.feescheduleentry_set.count(), 1)


@on(date(2026, 11, 29))
class LicenseLifeTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        counter_ready(cls, 1, 5)
        with on(date(2026, 2, 2)):
            cls.license = actions.issue_license(
                cls.dog, acting_user=cls.clerk, payment={"method": "cash", "amount": "10.00"}
            )

    def test_a_void_needs_a_reason_and_retires_the_tag(self):
        self.login(self.clerk)
        r = self.client.post(reverse("license-void", args=[self.license.pk]), {"reason": ""})
        self.assertContains(r, "This field is required")
        r = self.client.post(reverse("license-void", args=[self.license.pk]), {"reason": "wrong dog"})
        self.assertRedirects(r, reverse("license", args=[self.license.pk]))
        self.license.refresh_from_db()
        self.assertEqual(self.license.void_reason, "wrong dog")
        self.assertEqual(Tag.objects.get(serial=1).status, Tag.Status.VOIDED)
        self.assertTrue(AuditEvent.objects.filter(action="license.void", actor=self.clerk).exists())

    def test_a_lost_tag_is_replaced_from_stock(self):
        self.login(self.clerk)
        r = self.client.post(reverse("license-replace-tag", args=[self.license.pk]), {})
        self.assertRedirects(r, reverse("license", args=[self.license.pk]))
        self.assertEqual(self.license.current_tag.serial, 2)
        self.assertEqual(Tag.objects.get(serial=1).status, Tag.Status.LOST)

    def test_the_return_list_holds_unused_and_voided_tags(self):
        self.login(self.clerk)
        actions.void_license(self.license, acting_user=self.clerk, reason="duplicate")
        r = self.client.get(reverse("tag-return", args=["benton", 2026]))
        self.assertContains(r, "Due by December 31, 2026")
        self.assertContains(r, "5 tags.")
        self.assertContains(r, "Voided")

    def test_the_tag_roll_prints(self):
        self.login(self.clerk)
        r = self.client.get(reverse("tag-roll", args=["benton", 2026]))
        self.assertEqual(r["Content-Type"], "application/pdf")
        self.assertTrue(r.content.startswith(b"%PDF"))

    def test_a_license_issued_in_2026_keeps_2026s_fee(self):
        set_fees(self.clerk, self.benton, {"license_tax.unaltered": "15.00"}, effective_on=date(2026, 6, 1))
        self.license.refresh_from_db()
        self.assertEqual(self.license.tax, 10)

    def test_the_dog_that_died_keeps_its_license_on_record(self):
        registry.update_animal(self.dog, acting_user=self.clerk, status="died")
        self.login(self.clerk)
        r = self.client.get(reverse("animal", args=[self.dog.pk]))
        self.assertContains(r, f'href="/licenses/{self.license.pk}/"')
        self.assertContains(self.client.get(reverse("license-counter", args=[self.dog.pk])), "recorded as died")

    def test_the_unlicensed_list_shows_the_late_fee_owed(self):
        other = registry.register_animal(
            acting_user=self.clerk,
            municipality=self.benton,
            owner=self.owner,
            name="Bo",
            sex="male",
            birth_date=date(2024, 1, 1),
        )
        self.login(self.clerk)
        r = self.client.get(reverse("unlicensed", args=["benton"]))
        self.assertContains(r, f'href="/animals/{other.pk}/license/"')
        self.assertContains(r, "$5.00")
        self.assertNotContains(r, ">Rex<")
