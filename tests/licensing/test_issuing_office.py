"""Each municipality's license certificate and receipt name the office its ordinance names to
issue the license (the packs' `issuing_office`), in the holder's language; the tag receipt too."""

import io
from datetime import date
from decimal import Decimal

from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from dogtag.accounts.models import Role
from dogtag.licensing import actions, law
from dogtag.licensing.office_titles import TITLES
from dogtag.registry import actions as registry
from dogtag.registry.models import Municipality
from dogtag.rules.packs import load_pack, pack_ids
from tests.base import BaseTestCase, make_user, on, vaccinate
from tests.licensing.base import set_fees

DAY = date(2026, 2, 10)
# The fees the ordinances leave to a board, set as one would (Cedarburg and River Hills need none).
FEES = {
    "benton": {"license_tax.altered": "5.00", "license_tax.unaltered": "10.00", "late_fee": "5.00"},
    "webster": {"license_tax.altered": "6.00", "license_tax.unaltered": "12.00", "late_fee": "5.00"},
    "sampson": {"license_tax.altered": "4.00", "license_tax.unaltered": "9.00"},
}
OFFICES = {
    "cedarburg": "City Treasurer",  # § 7-1-3(a)(4)
    "river-hills": "Village Clerk",  # § 2.14(2), read with § 2.14(6)[g]
    "sampson": "Town Clerk",  # Section 7A.1, the local collecting officer
    "benton": "Village Clerk-Treasurer",  # § 115-3A(4)
    "webster": "Village Treasurer",  # § 98-3A(4)
}
SPANISH = {"cedarburg": "Tesorero de la Ciudad (City Treasurer)"}


def pdf_text(response) -> str:
    """The PDF's text with its whitespace made single spaces, a word broken at its hyphen joined."""
    assert response["Content-Type"] == "application/pdf", response
    pages = PdfReader(io.BytesIO(response.content)).pages
    return " ".join(" ".join(page.extract_text().split()) for page in pages).replace("- ", "-")


class IssuingOfficeTests(BaseTestCase):
    def license_in(self, slug, language="en"):
        municipality = Municipality.objects.get(slug=slug)
        clerk = make_user(f"{slug}-issuer", (municipality, Role.CLERK))
        with on(DAY):
            set_fees(clerk, municipality, FEES.get(slug, {}))
            actions.receive_tag_lot(
                acting_user=clerk, municipality=municipality, license_year=2026, first_serial=1, last_serial=5
            )
            owner = registry.create_person(
                acting_user=clerk,
                municipality=municipality,
                name="Lee Holder",
                street="9 Elm St",
                city=municipality.name,
                postal_code="53000",
                language=language,
            )
            dog = registry.register_animal(
                acting_user=clerk,
                municipality=municipality,
                owner=owner,
                name="Juno",
                sex="female",
                breed="Mixed",
                color="brown",
                birth_date=date(2024, 3, 1),
            )
            vaccinate(dog, clerk, f"R-{slug}", date(2026, 1, 5), date(2027, 1, 5))
            tax = law.ask(municipality, "license_tax", {"born_on": "2024-03-01"}, DAY).value.amount
            license = actions.issue_license(
                dog, acting_user=clerk, payment={"amount": str(tax), "method": "cash"}, on=DAY
            )
        self.login(clerk)
        return license

    def test_each_municipalitys_certificate_and_receipt_name_its_own_office(self):
        for slug, office in OFFICES.items():
            with self.subTest(slug):
                license = self.license_in(slug)
                certificate = pdf_text(self.client.get(reverse("license-certificate", args=[license.pk])))
                receipt = pdf_text(self.client.get(reverse("license-receipt", args=[license.pk])))
                self.assertIn(f"Issued by {slug}-issuer, {office} ", certificate)
                self.assertIn(f"· {office} ", receipt)
                if office != "Village Clerk-Treasurer":
                    self.assertNotIn("Clerk-Treasurer", certificate + receipt)

    def test_a_spanish_holders_certificate_and_receipt_translate_the_office(self):
        license = self.license_in("cedarburg", language="es")
        certificate = pdf_text(self.client.get(reverse("license-certificate", args=[license.pk])))
        receipt = pdf_text(self.client.get(reverse("license-receipt", args=[license.pk])))
        self.assertIn(f"Expedida por cedarburg-issuer, {SPANISH['cedarburg']}", certificate)
        self.assertIn(f"· {SPANISH['cedarburg']}", receipt)

    def test_the_tag_receipt_names_the_office(self):
        license = self.license_in("webster")
        clerk = license.issued_by
        with on(DAY):
            actions.set_fee(acting_user=clerk, municipality=license.municipality, key="replacement_tag",
                            amount=Decimal("3.00"), effective_on=date(2026, 1, 1), authority="Res. 2026-4")  # fmt: skip
            tag = actions.replace_tag(license, acting_user=clerk, payment={"method": "cash", "amount": "3.00"})
        receipt = pdf_text(self.client.get(reverse("tag-receipt", args=[tag.pk])))
        self.assertIn("· Village Treasurer", receipt)
        self.assertNotIn("Clerk-Treasurer", receipt)


def test_every_pack_names_an_office_with_a_title_in_the_catalogues():
    """A municipality's office prints on its licenses: its title is marked for translation
    (licensing/office_titles.py) and the Spanish catalogue translates it."""
    offices = {j: load_pack(j).licensing.issuing_office for j in pack_ids() if j != "wi"}
    assert {j: o.office for j, o in offices.items()} == {f"wi-{slug}": office for slug, office in OFFICES.items()}
    for office in offices.values():
        assert office.office in TITLES
        with translation.override("es"):
            assert translation.gettext(office.office) != office.office, office.office
    assert load_pack("wi").licensing.issuing_office is None  # the state says only "the collecting official"


def test_the_office_is_asked_of_the_municipalitys_pack_with_its_citation(db):
    cedarburg = Municipality.objects.create(
        name="Cedarburg", kind="city", county="Ozaukee", rule_pack="wi-cedarburg", slug="cedarburg"
    )
    assert law.issuing_office(cedarburg, DAY) == "City Treasurer"
    decision = law.ask(cedarburg, "issuing_office", {}, DAY, local={})
    assert [c.section for c in decision.citations] == ["§ 7-1-3(a)(4)"]
