"""Permits under /api/v1/: hen permits (list, apply, get, renew, revoke, PDF link) and vicious-dog
permits (issue, renew, list) — the same actions and refusals as the pages, scoped by municipality."""

import base64
import json
from datetime import date

from dogtag.accounts.actions import issue_api_token
from dogtag.enforcement import actions as enforcement
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase
from tests.portal.helpers import MEDIA, PDF

INSURANCE = "Acme bond 77, $100,000"


@MEDIA
class PermitsApiTests(EnforcementTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.tokens = {
            slug: issue_api_token(acting_user=clerk, user=clerk, name=f"{slug} script")[1]
            for slug, clerk in cls.clerks.items()
        }
        cls.officer_token = issue_api_token(acting_user=cls.chief, user=cls.chief, name="chief's script")[1]

    def call(self, slug, method, path, body=None, token=None):
        return self.client.generic(
            method,
            f"/api/v1{path}",
            json.dumps(body) if body is not None else "",
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token or self.tokens[slug]}",
        )

    def application(self, person, premises, **extra):
        return {
            "applicant_id": person.pk,
            "premises_id": premises.pk,
            "zoning": "single_family_residential",
            "owners_of_record": "Hattie Hen",
            "hens": 4,
            "all_owners_signed": True,
            "premises_registration": "WI-0042",
            "payment": {"method": "cash", "amount": "50.00"},
            **extra,
        }

    def test_hen_permits_apply_list_renew_revoke(self):
        person, premises, _ = self.owner_and_dog("cedarburg", "Clucky")
        with on(date(2026, 5, 4)):
            # Both sides of (d)(1)(iv): no site plan, nothing written; a checked one, the permit.
            r = self.call(
                "cedarburg", "POST", "/municipalities/cedarburg/hen-permits", self.application(person, premises)
            )
            self.assertEqual(r.status_code, 422)
            self.assertIn("§ 7-1-26(d)(1)(iv)", r.json()["errors"]["site_plan"][0])
            bad = {"filename": "plan.pdf", "content_base64": base64.b64encode(b"GIF89a").decode()}
            r = self.call(
                "cedarburg",
                "POST",
                "/municipalities/cedarburg/hen-permits",
                self.application(person, premises, site_plan=bad),
            )
            self.assertEqual(r.json()["errors"]["site_plan"], ["Upload a photo (JPEG or PNG) or a PDF."])
            good = {"filename": "plan.pdf", "content_base64": base64.b64encode(PDF).decode()}
            r = self.call(
                "cedarburg",
                "POST",
                "/municipalities/cedarburg/hen-permits",
                self.application(person, premises, site_plan=good),
            )
            self.assertEqual(r.status_code, 201, r.content)
            permit = r.json()
            self.assertEqual(
                (permit["status"], permit["fee"], permit["expires_on"], permit["municipality"]),
                ("issued", "50.00", "2026-12-31", "cedarburg"),
            )
            self.assertEqual(permit["pdf_url"], f"/hen-permits/{permit['id']}/permit.pdf")
            self.assertEqual(self.call("cedarburg", "GET", f"/hen-permits/{permit['id']}").json()["id"], permit["id"])
            # A refusal is a record too, with every reason.
            r = self.call(
                "cedarburg",
                "POST",
                "/municipalities/cedarburg/hen-permits",
                self.application(person, premises, hens=6, roosters=1),
            )
            self.assertEqual((r.status_code, r.json()["status"]), (201, "refused"))
            self.assertEqual(r.json()["reasons"], ["more than 4 hens", "roosters or other crowing fowl"])
            self.assertIsNone(r.json()["pdf_url"])
            refused = r.json()["id"]
            listed = self.call("cedarburg", "GET", "/municipalities/cedarburg/hen-permits?status=issued").json()[
                "items"
            ]
            self.assertEqual([p["id"] for p in listed], [permit["id"]])
            r = self.call("cedarburg", "POST", f"/hen-permits/{refused}/renew", {})
            self.assertIn("cannot be renewed", r.json()["errors"]["renewal_of"][0])
        with on(date(2026, 12, 28)):
            r = self.call(
                "cedarburg",
                "POST",
                f"/hen-permits/{permit['id']}/renew",
                {"payment": {"method": "card", "amount": "25.00", "card_reference": "A1"}},
            )
            self.assertEqual(r.status_code, 201, r.content)
            self.assertEqual(
                (r.json()["fee"], r.json()["fee_kind"], r.json()["expires_on"]), ("25.00", "renewal", "2027-12-31")
            )
            r = self.call("cedarburg", "POST", f"/hen-permits/{permit['id']}/revoke", {"reason": ""})
            self.assertEqual(r.status_code, 422)
            self.assertIn("reason", r.json()["errors"])
            r = self.call(
                "cedarburg", "POST", f"/hen-permits/{permit['id']}/revoke", {"reason": "eggs sold at the curb"}
            )
            self.assertEqual(r.status_code, 200, r.content)
            body = r.json()
            self.assertEqual((body["status"], body["revoked_on"]), ("revoked", "2026-12-28"))
            self.assertEqual(body["revocation"]["citations"][0]["section"], "§ 7-1-26(c)(3)")
            self.assertIsNone(body["pdf_url"])
            r = self.call("cedarburg", "POST", f"/hen-permits/{permit['id']}/revoke", {"reason": "again"})
            self.assertEqual(r.status_code, 422)

    def test_another_municipalitys_clerk_gets_404_and_an_officer_403(self):
        person, premises, _ = self.owner_and_dog("cedarburg", "Clucky")
        with on(date(2026, 5, 4)):
            good = {"filename": "plan.png", "content_base64": base64.b64encode(PDF).decode()}
            r = self.call(
                "cedarburg",
                "POST",
                "/municipalities/cedarburg/hen-permits",
                self.application(person, premises, site_plan=good),
            )
            pk = r.json()["id"]
            for method, path, body in [
                ("GET", f"/hen-permits/{pk}", None),
                ("POST", f"/hen-permits/{pk}/renew", {}),
                ("POST", f"/hen-permits/{pk}/revoke", {"reason": "x"}),
                ("GET", "/municipalities/cedarburg/hen-permits", None),
                ("POST", "/municipalities/cedarburg/hen-permits", self.application(person, premises)),
            ]:
                self.assertEqual(self.call("webster", method, path, body).status_code, 404, path)
            r = self.call("x", "POST", f"/hen-permits/{pk}/revoke", {"reason": "x"}, token=self.officer_token)
            self.assertEqual(r.status_code, 403)
            self.assertEqual(self.call("cedarburg", "GET", f"/hen-permits/{pk}").json()["status"], "issued")

    def test_vicious_dog_permits_issue_renew_list(self):
        _, _, dog = self.owner_and_dog("river-hills", "Brutus", vaccinated_on=date(2025, 5, 1))
        with on(date(2026, 3, 2)):
            decl = enforcement.declare_dog(
                acting_user=self.chief,
                municipality=self.places["river-hills"],
                animal=dog,
                evidence="two bite reports",
                incidents=[
                    {
                        "occurred_on": date(2025, 12, 1),
                        "kind": "serious_injury",
                        "victim": "person",
                        "off_owner_property": True,
                    },
                    {
                        "occurred_on": date(2026, 3, 1),
                        "kind": "serious_injury",
                        "victim": "person",
                        "off_owner_property": True,
                    },
                ],
            )
            path = f"/declarations/{decl.pk}/vicious-dog-permits"
            r = self.call("river-hills", "POST", path, {"insurance": "", "fee_paid": "835.62"})
            self.assertIn("§ 2.14(6)[e](1)(x)", r.json()["errors"]["insurance"][0])
            self.assertIn("signed the statement", r.json()["errors"]["insurance_statement_signed"][0])
            r = self.call(
                "river-hills",
                "POST",
                path,
                {"insurance": INSURANCE, "insurance_statement_signed": True, "fee_paid": "835.62"},
            )
            self.assertEqual(r.status_code, 201, r.content)
            self.assertEqual((r.json()["fee"], r.json()["expires_on"]), ("835.62", "2026-12-31"))
            self.assertEqual(self.call("webster", "GET", path).status_code, 404)
            self.assertEqual(
                self.call(
                    "webster",
                    "POST",
                    f"{path}/renew",
                    {"insurance": INSURANCE, "insurance_statement_signed": True, "fee_paid": "1000"},
                ).status_code,
                404,
            )
        with on(date(2027, 1, 5)):
            r = self.call(
                "river-hills",
                "POST",
                f"{path}/renew",
                {"insurance": INSURANCE, "insurance_statement_signed": True, "fee_paid": "835.62"},
            )
            self.assertEqual(r.status_code, 422)
            self.assertIn("$1000.00", r.json()["errors"]["fee_paid"][0])
            r = self.call(
                "river-hills",
                "POST",
                f"{path}/renew",
                {"insurance": INSURANCE, "insurance_statement_signed": True, "fee_paid": "1000.00"},
            )
            self.assertEqual(r.status_code, 201, r.content)
            self.assertEqual((r.json()["fee"], r.json()["expires_on"]), ("1000.00", "2027-12-31"))
            self.assertTrue(any("renewed after the day the fee was due" in n for n in r.json()["notes"]))
            listed = self.call("river-hills", "GET", path).json()["items"]
            self.assertEqual([p["expires_on"] for p in listed], ["2027-12-31", "2026-12-31"])
            deadline = decl.case.deadlines.get(key="vicious_dog_permit.renewal", done_on=None, superseded=False)
            self.assertEqual(deadline.due_on, date(2028, 1, 3))  # January 1 moved past the holiday and the Sunday
