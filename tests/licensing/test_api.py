from datetime import date
from decimal import Decimal

from dogtag.accounts.actions import issue_api_token
from dogtag.licensing.models import License
from tests.base import on
from tests.licensing.base import CounterApiTestCase


@on(date(2026, 5, 20))
class LicensingApiTests(CounterApiTestCase):
    def test_the_fee_preview_gives_each_line_with_its_citation(self):
        r = self.call("GET", f"/animals/{self.dog.pk}/fee-preview")
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual(body["total"], "15.00")
        self.assertEqual(body["late_fee_trigger"], "renewal")
        self.assertEqual([line["amount"] for line in body["lines"]], ["10.00", "5.00"])
        self.assertEqual(body["lines"][1]["citations"][0]["section"], "§ 115-4")
        self.assertTrue(body["can_issue"])

    def test_the_fee_preview_on_another_day(self):
        r = self.call("GET", f"/animals/{self.dog.pk}/fee-preview?on=2026-03-31")
        self.assertEqual(r.json()["total"], "10.00")

    def test_it_issues_looks_up_replaces_and_voids(self):
        r = self.call(
            "POST",
            f"/animals/{self.dog.pk}/licenses",
            {"payment": {"method": "card", "amount": "15.00", "card_reference": "AUTH-1"}},
        )
        self.assertEqual(r.status_code, 201, r.content)
        license = r.json()
        self.assertEqual((license["serial"], license["tax"], license["late_fee"]), (300, "10.00", "5.00"))
        r = self.call("GET", "/municipalities/benton/tags/2026/300")
        self.assertEqual(r.json()["id"], license["id"])
        r = self.call("POST", f"/licenses/{license['id']}/replace-tag", {})
        self.assertEqual([(t["serial"], t["status"]) for t in r.json()["tags"]], [(300, "lost"), (301, "issued")])
        refund = {"method": "card", "amount": "15.00"}
        r = self.call(
            "POST", f"/licenses/{license['id']}/void", {"reason": "issued to the wrong owner", "refund": refund}
        )
        self.assertIsNotNone(r.json()["voided_at"])
        self.assertEqual(License.objects.get().refunds.get().amount, Decimal("15.00"))

    def test_a_refusal_names_the_field_and_writes_nothing(self):
        r = self.call("POST", f"/animals/{self.dog.pk}/licenses", {"payment": {"method": "cash", "amount": "5.00"}})
        self.assertEqual(r.status_code, 422)
        self.assertIn("$5.00 received but $15.00 is due", r.json()["errors"]["amount"][0])
        self.assertFalse(License.objects.exists())

    def test_an_issue_is_refused_for_a_dog_not_served_or_not_there_and_to_another_role(self):
        paid = {"payment": {"method": "cash", "amount": "15.00"}}
        for pk in (self.dog.pk + 10_000, 0, -1, 2**63, 10**30):
            self.assertEqual(self.call("POST", f"/animals/{pk}/licenses", paid).status_code, 404, pk)
        for user, status in ((self.outsider, 404), (self.officer, 403)):
            self.token = issue_api_token(acting_user=user, user=user, name="script")[1]
            self.assertEqual(self.call("POST", f"/animals/{self.dog.pk}/licenses", paid).status_code, status, user)
        self.assertFalse(License.objects.exists())

    def test_an_unknown_tag_is_not_found(self):
        self.assertEqual(self.call("GET", "/municipalities/benton/tags/2026/999").status_code, 404)
