"""What an issue writes, on every database: the payment, the license, its tag and both audit
events. The rows are the objects the action returns, numbered in turn, and each audit event is
the snapshot of the row as stored, the payment's before the license's."""

from datetime import date

from django.core.exceptions import ValidationError

from dogtag.audit import chain
from dogtag.audit.models import AuditEvent
from dogtag.audit.record import snapshot
from dogtag.licensing import actions
from dogtag.licensing.facts import read_facts
from dogtag.licensing.models import License, Payment, ReceiptCounter, Tag
from dogtag.licensing.owed import what_is_owed
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, on
from tests.licensing.base import counter_ready

ON = date(2026, 5, 20)


@on(ON)
class IssueWritesTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        counter_ready(cls, 300, 310)

    def second_dog(self, name="Bella"):
        dog = registry.register_animal(
            acting_user=self.clerk,
            municipality=self.benton,
            owner=self.owner,
            species="dog",
            name=name,
            sex="female",
            altered=False,
            birth_date=date(2022, 3, 1),
            breed="Collie",
            color="sable",
        )
        registry.record_vaccination(
            dog,
            acting_user=self.vet,
            certificate_serial=f"R-{name}",
            vaccinated_on=date(2025, 6, 1),
            expires_on=date(2028, 6, 1),
            vaccine_type="killed",
            vaccine_serial="L1",
            veterinarian_name="Dr. V",
            veterinarian_address="1 Vet Rd",
            veterinarian_phone="555-0100",
            rabies_tag_number=f"T-{name}",
        )
        return dog

    def issue(self, animal, amount):
        return actions.issue_license(animal, acting_user=self.clerk, payment={"method": "cash", "amount": amount})

    def assert_audited(self, obj, action):
        stored = type(obj).objects.get(pk=obj.pk)
        (event,) = AuditEvent.objects.for_object(obj)
        self.assertEqual(
            (event.action, event.actor, event.municipality_id, event.object_repr, event.before),
            (action, self.clerk, self.benton.pk, str(stored), None),
        )
        self.assertEqual(event.after, snapshot(stored))
        self.assertEqual(snapshot(obj), snapshot(stored))  # the object returned is the row written
        return event

    def test_the_rows_and_their_audit_events(self):
        self.assertFalse(ReceiptCounter.objects.exists())  # the first issue makes the year's counter
        rex = self.issue(self.dog, "15.00")
        bella = self.second_dog()
        bella = self.issue(bella, str(what_is_owed(read_facts(bella, ON)).total))
        for license, serial, receipt in ((rex, 300, "2026-0001"), (bella, 301, "2026-0002")):
            paid = Payment.objects.get(pk=license.payment_id)
            self.assertEqual(
                (license.serial, paid.receipt_number, license.payment.receipt_number), (serial, receipt, receipt)
            )
            self.assertEqual(
                (paid.amount, paid.method, paid.received_by, paid.payer),
                (license.total, "cash", self.clerk, self.owner),
            )
            payment_event = self.assert_audited(license.payment, "payment.record")
            license_event = self.assert_audited(license, "license.issue")
            self.assertLess(payment_event.pk, license_event.pk)
            # chained like every other event, on PostgreSQL by the insert trigger under the one statement
            chained = (license_event.seq, license_event.previous_hash)
            self.assertEqual(chained, (payment_event.seq + 1, payment_event.hash))
            tag = Tag.objects.get(municipality=self.benton, license_year=2026, serial=serial)
            self.assertEqual((tag.status, tag.license_id), (Tag.Status.ISSUED, license.pk))
            self.assertEqual([t.serial for t in license.tags.all()], [serial])
        self.assertEqual(ReceiptCounter.objects.get(municipality=self.benton, year=2026).last, 2)
        verdict = chain.verify()
        self.assertTrue(verdict.ok, verdict.problems)

    def test_the_years_first_receipt_follows_the_numbers_already_given(self):
        # Receipts numbered before the year's counter row existed (a counter added to a database
        # that already had payments): the first issue starts after the highest.
        Payment.objects.bulk_create(
            [
                Payment(
                    municipality=self.benton,
                    amount=5,
                    method="cash",
                    received_by=self.clerk,
                    receipt_year=2026,
                    receipt_serial=7,
                )
            ]
        )
        license = self.issue(self.dog, "15.00")
        self.assertEqual(license.payment.receipt_number, "2026-0008")
        self.assertEqual(ReceiptCounter.objects.get(municipality=self.benton, year=2026).last, 8)
        self.assert_audited(license.payment, "payment.record")

    def test_a_license_refused_as_a_duplicate_leaves_nothing_written(self):
        self.issue(self.dog, "15.00")
        before = (Payment.objects.count(), AuditEvent.objects.count(), ReceiptCounter.objects.get().last)
        owed = what_is_owed(read_facts(self.dog, ON))
        owed.refusals.clear()  # as the counter's figures read a moment before the first issue
        with self.assertRaisesMessage(ValidationError, "was issued a moment ago"):
            actions.issue_license(
                self.dog, acting_user=self.clerk, payment={"method": "cash", "amount": "15.00"}, owed=owed
            )
        self.assertEqual(
            (Payment.objects.count(), AuditEvent.objects.count(), ReceiptCounter.objects.get().last), before
        )
        self.assertEqual(License.objects.filter(animal=self.dog).count(), 1)
        self.assertEqual(Tag.objects.filter(status=Tag.Status.ISSUED).count(), 1)
