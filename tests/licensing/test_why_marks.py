"""The "why?" beside a figure says when a state figure is unconfirmed by the text held, and when a
section number is one the transcription lost and the pack inferred (issue: figures marked
`unconfirmed` reached the screen with plain citations)."""

from datetime import date

from django.template.loader import render_to_string
from django.urls import reverse

from dogtag import rules
from dogtag.accounts.models import Role
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, make_user, on, vaccinate


class WhyMarksTests(BaseTestCase):
    def test_an_unconfirmed_state_figure_is_marked_in_the_summary_and_beside_its_quote(self):
        # s. 174.053: its figures come from county ordinances quoting it, its own words were not found
        decision = rules.ask("wi-river-hills", "multiple_dog_license", {"dogs": 4}, date(2026, 3, 2))
        html = render_to_string("dogtag/_why.html", {"citations": decision.citations})
        summary = html.split("</summary>")[0]
        self.assertIn("unconfirmed: s. 174.053", summary)
        unconfirmed = 'Unconfirmed: <span lang="en">the $35 for up to 12 dogs and $3 for each dog over 12 come from'
        self.assertIn(unconfirmed, html)
        officer = render_to_string("enforcement/_why.html", {"cites": decision.to_json()["citations"]})
        self.assertIn("unconfirmed: s. 174.053", officer.split("</summary>")[0])

    def test_a_confirmed_figure_carries_no_mark(self):
        decision = rules.ask("wi-cedarburg", "license_tax", {"born_on": "2020-01-01"}, date(2026, 3, 2))
        html = render_to_string("dogtag/_why.html", {"citations": decision.citations})
        self.assertNotIn("nconfirmed", html)
        self.assertNotIn("inferred", html)

    @on(date(2026, 4, 2))
    def test_the_counter_marks_cedarburgs_late_fee_section_as_inferred(self):
        clerk, vet = self.outsider, make_user("vic", (self.cedarburg, Role.VETERINARIAN))
        owner = registry.create_person(
            acting_user=clerk,
            municipality=self.cedarburg,
            name="Cy Owner",
            street="5 Mill St",
            city="Cedarburg",
            postal_code="53012",
        )
        dog = registry.register_animal(
            acting_user=clerk,
            municipality=self.cedarburg,
            owner=owner,
            name="Fido",
            breed="Mixed",
            color="grey",
            sex="male",
            birth_date=date(2020, 1, 5),
        )
        vaccinate(dog, vet, "C-1", date(2025, 6, 1), date(2027, 6, 1))
        self.login(clerk)
        page = self.client.get(reverse("license-counter", args=[dog.pk])).content.decode()
        late = page[page.index("§ 7-1-4") :][:400]
        self.assertIn("number inferred: the transcription lost it", late)
        tax = page[page.index("§ 7-1-3(a)(3)") :][:120]
        self.assertNotIn("inferred", tax)
