from datetime import date, timedelta

from django.core.exceptions import ValidationError

from dogtag.audit.models import AuditEvent
from dogtag.registry import actions
from dogtag.registry.models import Animal, RabiesVaccination
from tests.base import BaseTestCase, on

TODAY = date(2026, 11, 29)


@on(TODAY)
class AnimalValidationTests(BaseTestCase):
    def register(self, **fields):
        fields = {"name": "Bo", "sex": "female", "birth_date": date(2025, 1, 1), **fields}
        return actions.register_animal(acting_user=self.clerk, municipality=self.benton, owner=self.owner, **fields)

    def assert_refused(self, field, fragment, **fields):
        animals, events = Animal.objects.count(), AuditEvent.objects.count()
        with self.assertRaises(ValidationError) as caught:
            self.register(**fields)
        self.assertIn(field, caught.exception.message_dict)
        self.assertIn(fragment, " ".join(caught.exception.message_dict[field]))
        self.assertEqual(Animal.objects.count(), animals, "nothing is saved on error")
        self.assertEqual(AuditEvent.objects.count(), events)

    def test_it_refuses_a_birth_date_in_the_future(self):
        self.assert_refused("birth_date", "in the future", birth_date=TODAY + timedelta(days=1))

    def test_it_accepts_a_birth_date_of_today(self):
        self.assertEqual(self.register(birth_date=TODAY).birth_date, TODAY)

    def test_it_refuses_acquired_before_birth(self):
        self.assert_refused("acquired_on", "before the birth date", acquired_on=date(2024, 12, 31))

    def test_it_refuses_a_male_hen(self):
        self.assert_refused("sex", "rooster", species="hen", sex="male")

    def test_it_accepts_a_female_hen(self):
        self.assertEqual(self.register(species="hen").species, "hen")

    def test_it_refuses_a_duplicate_microchip_in_the_municipality(self):
        self.assert_refused("microchip", "already registered to Rex", microchip=self.dog.microchip)

    def test_it_allows_the_same_microchip_in_another_municipality(self):
        webster_owner = actions.create_person(
            acting_user=self.webster_clerk,
            municipality=self.webster,
            name="W",
            street="1 Elm",
            city="Webster",
            postal_code="54893",
        )
        moved = actions.register_animal(
            acting_user=self.webster_clerk,
            municipality=self.webster,
            owner=webster_owner,
            name="Rex",
            sex="male",
            microchip=self.dog.microchip,
        )
        self.assertEqual(moved.microchip, self.dog.microchip)

    def test_it_asks_for_the_evidence_of_spaying(self):
        self.assert_refused("altered_evidence", "174.05(2)", altered=True)

    def test_it_refuses_an_owner_from_another_municipality(self):
        webster_owner = actions.create_person(
            acting_user=self.webster_clerk,
            municipality=self.webster,
            name="W",
            street="1 Elm",
            city="Webster",
            postal_code="54893",
        )
        with self.assertRaises(ValidationError) as caught:
            actions.register_animal(
                acting_user=self.clerk, municipality=self.benton, owner=webster_owner, name="Bo", sex="male"
            )
        self.assertIn("owner", caught.exception.message_dict)


@on(TODAY)
class VaccinationValidationTests(BaseTestCase):
    def record(self, **fields):
        fields = {
            "certificate_serial": "R-2002",
            "vaccinated_on": date(2026, 6, 1),
            "vaccine_type": "1-year",
            "vaccine_serial": "LOT-1",
            "expires_on": date(2027, 6, 1),
            "veterinarian_name": "Dr. V",
            "veterinarian_address": "1 Clinic Rd",
            "veterinarian_phone": "608-555-0100",
            "rabies_tag_number": "RT-9",
            **fields,
        }
        return actions.record_vaccination(self.dog, acting_user=self.vet, **fields)

    def assert_refused(self, field, fragment, **fields):
        count = RabiesVaccination.objects.count()
        with self.assertRaises(ValidationError) as caught:
            self.record(**fields)
        self.assertIn(fragment, " ".join(caught.exception.message_dict[field]))
        self.assertEqual(RabiesVaccination.objects.count(), count)

    def test_it_fills_the_certificate_from_the_registry(self):
        v = self.record()
        self.assertEqual((v.owner_name, v.owner_address), ("Pat Owner", "12 Main St, Benton, WI 53803"))
        self.assertEqual(
            (v.animal_name, v.sex, v.altered, v.breed, v.color), ("Rex", "male", False, "Beagle", "tricolor")
        )

    def test_it_refuses_a_vaccination_before_birth(self):
        self.assert_refused("vaccinated_on", "before the animal's birth date", vaccinated_on=date(2024, 2, 29))

    def test_it_refuses_an_expiry_not_after_the_vaccination(self):
        self.assert_refused("expires_on", "must be after the vaccination date", expires_on=date(2026, 6, 1))

    def test_it_refuses_a_vaccination_in_the_future(self):
        self.assert_refused("vaccinated_on", "in the future", vaccinated_on=date(2026, 11, 30))

    def test_it_refuses_a_certificate_serial_already_recorded(self):
        self.assert_refused("certificate_serial", "already recorded", certificate_serial="R-1001")

    def test_it_refuses_a_veterinarian_role_it_lacks(self):
        from django.core.exceptions import PermissionDenied

        with self.assertRaises(PermissionDenied):
            actions.record_vaccination(self.dog, acting_user=self.officer, certificate_serial="R-3")

    def test_a_duplicate_tag_is_written_on_the_certificate(self):
        actions.record_duplicate_rabies_tag(self.vaccination, acting_user=self.clerk, tag_number="RT-556")
        self.assertEqual(self.vaccination.current_tag_number, "RT-556")
        self.assertEqual(self.vaccination.rabies_tag_number, "RT-555", "the original tag stays on the certificate")
