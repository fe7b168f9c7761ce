"""The tag lookup answers from one compiled query, without the response schema's objects; what
it answers must still be exactly what `LicenseOut` documents and would have serialised."""

import json
from datetime import date

from ninja.responses import NinjaJSONEncoder

from dogtag.accounts.actions import issue_api_token
from dogtag.licensing import actions
from dogtag.licensing.api import LicenseOut
from dogtag.licensing.models import License
from tests.base import BaseTestCase, on
from tests.licensing.base import BENTON_FEES, set_fees


def schema_json(license):
    return json.loads(json.dumps(LicenseOut.model_validate(license).model_dump(), cls=NinjaJSONEncoder))


@on(date(2026, 5, 20))
class TagLookupTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        set_fees(cls.clerk, cls.benton, BENTON_FEES)
        actions.receive_tag_lot(
            acting_user=cls.clerk,
            municipality=cls.benton,
            license_year=2026,
            first_serial=300,
            last_serial=310,
            received_on=date(2026, 1, 2),
        )
        cls.token = issue_api_token(acting_user=cls.clerk, user=cls.clerk, name="finder")[1]

    def lookup(self, serial, token=None):
        return self.client.get(
            f"/api/v1/municipalities/benton/tags/2026/{serial}", HTTP_AUTHORIZATION=f"Bearer {token or self.token}"
        )

    def issue(self):
        return actions.issue_license(self.dog, acting_user=self.clerk, payment={"method": "cash", "amount": "15.00"})

    def test_it_answers_what_the_schema_serialises(self):
        license = self.issue()
        r = self.lookup(300)
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r["Content-Type"], "application/json; charset=utf-8")
        self.assertEqual(r.json(), schema_json(License.objects.get(pk=license.pk)))
        self.assertEqual((r.json()["tax"], r.json()["municipality"]), ("10.00", "benton"))
        self.assertTrue(r.json()["citations"])

    def test_a_replaced_and_voided_license_is_found_by_either_tag_with_all_its_tags(self):
        license = self.issue()
        actions.replace_tag(license, acting_user=self.clerk)
        actions.void_license(
            License.objects.get(pk=license.pk),
            acting_user=self.clerk,
            reason="issued to the wrong owner",
            refund={"method": "cash", "amount": "15.00"},
        )
        expected = schema_json(License.objects.get(pk=license.pk))
        self.assertIsNotNone(expected["voided_at"])
        self.assertEqual([(t["serial"], t["status"]) for t in expected["tags"]], [(300, "lost"), (301, "voided")])
        for serial in (300, 301):
            with self.subTest(serial=serial):
                self.assertEqual(self.lookup(serial).json(), expected)

    def test_a_tag_in_stock_or_unknown_is_not_found(self):
        self.issue()
        for serial in (302, 999):
            with self.subTest(serial=serial):
                r = self.lookup(serial)
                self.assertEqual(r.status_code, 404)
                self.assertIn("detail", r.json())

    def test_a_tag_in_a_municipality_the_user_does_not_serve_is_not_found(self):
        self.issue()
        outsider = issue_api_token(acting_user=self.outsider, user=self.outsider, name="elsewhere")[1]
        self.assertEqual(self.lookup(300, token=outsider).status_code, 404)

    def test_a_serial_or_year_no_column_can_hold_is_not_found_not_a_server_error(self):
        self.issue()
        for path in ("2026/99999999999999999999", "99999999999999999999/300"):
            with self.subTest(path=path):
                r = self.client.get(
                    f"/api/v1/municipalities/benton/tags/{path}", HTTP_AUTHORIZATION=f"Bearer {self.token}"
                )
                self.assertEqual(r.status_code, 404)
                self.assertIn("detail", r.json())
