"""For each municipality, the clerk issues licenses at the counter through the web app — an
intact dog in February, a spayed dog licensed late in May, a puppy acquired in August, a leader
dog and (Cedarburg) a cat — and every amount, tag and PDF text matches the ordinance."""

import io
from datetime import date
from decimal import Decimal

from django.urls import reverse
from pypdf import PdfReader

from dogtag.accounts.models import Role
from dogtag.licensing.models import License, Tag
from dogtag.registry import actions as registry
from dogtag.registry.models import Municipality
from tests.base import BaseTestCase, make_user, on, vaccinate

# Amounts the ordinance delegates, set on each fee schedule as a village board would.
FEES = {
    "benton": {"license_tax.altered": "5.00", "license_tax.unaltered": "10.00", "late_fee": "5.00"},
    "webster": {"license_tax.altered": "6.00", "license_tax.unaltered": "12.00", "late_fee": "5.00"},
    "sampson": {"license_tax.altered": "4.00", "license_tax.unaltered": "9.00"},
    "river-hills": {},
    "cedarburg": {},
}
# The five cases the issue names: (scenario, species, altered, working status, born, acquired,
# licensed on). The puppy becomes licensable on Aug 15, after July 1: one-half (s. 174.05(2)).
INTACT_IN_FEBRUARY = ("intact dog in February", "dog", False, "", date(2024, 3, 1), None, date(2026, 2, 10))
SPAYED_LATE_IN_MAY = ("spayed dog late in May", "dog", True, "", date(2023, 5, 1), None, date(2026, 5, 15))
PUPPY_IN_AUGUST = ("puppy acquired in August", "dog", False, "", date(2026, 3, 15), date(2026, 8, 1), date(2026, 8, 14))
LEADER_DOG = ("leader dog", "dog", False, "leader", date(2022, 6, 1), None, date(2026, 3, 2))
SPAYED_CAT = ("spayed cat in February", "cat", True, "", date(2024, 1, 1), None, date(2026, 2, 11))


def scenarios(intact, spayed_late, puppy, *extra):
    """Each case with the (tax, late fee) the ordinance gives it; a leader dog is always free."""
    return [
        (*INTACT_IN_FEBRUARY, *intact),
        (*SPAYED_LATE_IN_MAY, *spayed_late),
        (*PUPPY_IN_AUGUST, *puppy),
        (*LEADER_DOG, "0.00", "0.00"),
        *extra,
    ]


SCENARIOS = {
    "benton": scenarios(("10.00", "0.00"), ("5.00", "5.00"), ("5.00", "0.00")),
    # § 98-4: "as established by the Village Board", within s. 174.05(5)'s $5
    "webster": scenarios(("12.00", "0.00"), ("6.00", "5.00"), ("6.00", "0.00")),
    # § 2.14(2) adopts ch. 174: the state's $8 / $3 and $5 late fee
    "river-hills": scenarios(("8.00", "0.00"), ("3.00", "5.00"), ("4.00", "0.00")),
    # Section 7: the fee set by the Town Board; the late fee of $5 is the ordinance's own
    "sampson": scenarios(("9.00", "0.00"), ("4.00", "5.00"), ("4.50", "0.00")),
    # § 7-1-3(a)(3): $5 / $10 for dogs and cats, one-half after July 1; § 7-1-4: late fee $5
    "cedarburg": scenarios(("10.00", "0.00"), ("5.00", "5.00"), ("5.00", "0.00"), (*SPAYED_CAT, "5.00", "0.00")),
}


def pdf_text(response) -> str:
    """The PDF's text without whitespace (text extraction splits words at kerning)."""
    assert response["Content-Type"] == "application/pdf"
    return "".join("".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(response.content)).pages)


def squeeze(text: str) -> str:
    return "".join(text.split())


class CounterTests(BaseTestCase):
    def run_municipality(self, slug):
        municipality = Municipality.objects.get(slug=slug)
        clerk = make_user(f"{slug}-counter", (municipality, Role.CLERK))
        self.login(clerk)
        with on(date(2026, 1, 2)):
            for key, amount in FEES[slug].items():
                r = self.client.post(
                    reverse("fees", args=[slug]),
                    {"key": key, "amount": amount, "effective_on": "2026-01-01", "authority": "Res. 2026-01"},
                )
                self.assertRedirects(r, reverse("fees", args=[slug]))
            r = self.client.post(
                reverse("tags", args=[slug]),
                {"license_year": 2026, "first_serial": 501, "last_serial": 600, "received_on": "2026-01-02"},
            )
            self.assertRedirects(r, reverse("tags", args=[slug]))
        owner = registry.create_person(
            acting_user=clerk,
            municipality=municipality,
            name=f"Owner of {slug}",
            street="9 Elm St",
            city=municipality.name,
            postal_code="53000",
        )
        for serial, (what, species, altered, working, born, acquired, day, tax, late) in enumerate(
            SCENARIOS[slug], start=501
        ):
            with self.subTest(slug=slug, scenario=what), on(day):
                animal = registry.register_animal(
                    acting_user=clerk,
                    municipality=municipality,
                    owner=owner,
                    owned_from=acquired or born,
                    name=what.title(),
                    species=species,
                    sex="female",
                    altered=altered,
                    altered_evidence="Spay certificate" if altered else "",
                    breed="Mixed",
                    color="brown",
                    birth_date=born,
                    acquired_on=acquired,
                    working_status=working,
                )
                vaccinate(animal, clerk, f"R-{slug}-{serial}", day, date(day.year + 1, day.month, 1))
                total = Decimal(tax) + Decimal(late)
                page = self.client.get(reverse("license-counter", args=[animal.pk]))
                self.assertContains(page, f"${total}")
                self.assertNotContains(page, "Cannot be issued yet")
                payment = {"method": "cash", "amount": str(total)} if total else {}
                r = self.client.post(reverse("license-counter", args=[animal.pk]), payment)
                license = License.objects.filter(animal=animal).first()
                self.assertIsNotNone(license, r.context["form"].errors if r.context else r)
                self.assertRedirects(r, reverse("license", args=[license.pk]))
                self.assertEqual((license.tax, license.late_fee), (Decimal(tax), Decimal(late)))
                self.assertEqual(
                    (license.serial, license.license_year, license.expires_on), (serial, 2026, date(2026, 12, 31))
                )
                self.assertEqual(license.current_tag.serial, serial)
                self.assertEqual(license.free_license, working == "leader")
                self.assertEqual(license.payment is None, total == 0)
                certificate = pdf_text(self.client.get(reverse("license-certificate", args=[license.pk])))
                for text in (
                    f"License No. {serial}",
                    f"Owner of {slug}",
                    "9 Elm St",
                    what.title(),
                    "Female",
                    "Mixed",
                    "brown",
                    f"{municipality.county} County",
                    "December 31, 2026",
                    "Spayed or neutered " + ("Yes" if altered else "No"),
                ):
                    self.assertIn(squeeze(text), certificate)
                receipt = pdf_text(self.client.get(reverse("license-receipt", args=[license.pk])))
                self.assertIn(squeeze(f"Total ${total}"), receipt)
        issued = Tag.objects.filter(municipality=municipality, status=Tag.Status.ISSUED).count()
        self.assertEqual(issued, len(SCENARIOS[slug]))

    def test_benton(self):
        self.run_municipality("benton")

    def test_webster(self):
        self.run_municipality("webster")

    def test_river_hills(self):
        self.run_municipality("river-hills")

    def test_sampson(self):
        self.run_municipality("sampson")

    def test_cedarburg(self):
        self.run_municipality("cedarburg")
