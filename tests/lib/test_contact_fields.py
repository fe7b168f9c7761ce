"""What a person types is refused when it is not what the field takes, naming the field: a ZIP
code, a telephone number (checked by `phonenumbers`), a time of day, a distance that cannot be
negative (issue 29, bug 7)."""

from django.test import SimpleTestCase
from django.urls import reverse

from dogtag.enforcement.forms import ComplaintForm
from dogtag.licensing.kennels.forms import KennelApplicationForm
from dogtag.registry.models import Person
from tests.base import BaseTestCase


class PersonFormTests(BaseTestCase):
    def test_the_new_person_page_refuses_a_zip_of_letters_and_a_phone_that_is_no_number(self):
        self.login(self.clerk)
        body = {
            "kind": "individual",
            "name": "Mo Maybe",
            "street": "1 Elm St",
            "city": "Benton",
            "state": "WI",
            "postal_code": "ABCDE",
            "phone": "call me maybe",
        }
        r = self.client.post(reverse("person-new", args=["benton"]), body)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "Enter a ZIP code of 5 digits, like 53803")
        self.assertContains(r, "Enter a telephone number, like 608-555-0142")
        self.assertFalse(Person.objects.filter(name="Mo Maybe").exists())
        body |= {"postal_code": "53803-1234", "phone": "(608) 555-0142"}
        r = self.client.post(reverse("person-new", args=["benton"]), body)
        self.assertEqual(r.status_code, 302)
        self.assertEqual(Person.objects.get(name="Mo Maybe").phone, "(608) 555-0142")


class FieldTypeTests(BaseTestCase):
    def test_a_complaint_refuses_25_99_pm_and_keeps_a_time_in_words(self):
        form = ComplaintForm({"observed_time": "25:99 pm"}, municipality=self.benton)
        self.assertIn("Enter a time of day, like 2:30 PM or 14:30.", form.errors["observed_time"])
        form = ComplaintForm({"observed_time": "14:30"}, municipality=self.benton)
        form.is_valid()
        self.assertEqual(form.cleaned_data["observed_time"], "2:30 PM")

    def test_a_kennel_setback_cannot_be_negative(self):
        form = KennelApplicationForm(
            {"from_lot_lines_ft": "-5", "from_other_structures_ft": "-1"}, municipality=self.benton
        )
        self.assertIn("greater than or equal to 0", form.errors["from_lot_lines_ft"][0])
        self.assertIn("greater than or equal to 0", form.errors["from_other_structures_ft"][0])


class PhoneTests(SimpleTestCase):
    def test_a_local_number_an_area_code_and_a_foreign_number_are_numbers(self):
        from dogtag.lib.contact_fields import PhoneField

        field = PhoneField()
        for typed in ("555-0100", "608-555-0142", "+44 20 7946 0958"):
            self.assertEqual(field.clean(typed), typed)
