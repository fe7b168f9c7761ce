from datetime import date

from dogtag.accounts.actions import issue_api_token
from dogtag.accounts.models import ApiToken
from dogtag.audit.models import AuditEvent
from dogtag.registry.models import RabiesVaccination
from tests.base import BaseTestCase, on

CERTIFICATE = {
    "certificate_serial": "R-API-1",
    "vaccinated_on": "2026-10-01",
    "vaccine_type": "killed virus, 1-year",
    "vaccine_serial": "LOT-9",
    "expires_on": "2027-10-01",
    "veterinarian_name": "Dr. Vera Vet",
    "veterinarian_address": "1 Clinic Rd, Benton WI",
    "veterinarian_phone": "608-555-0100",
    "rabies_tag_number": "RT-900",
}


@on(date(2026, 11, 29))
class ApiTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.clinic_token = issue_api_token(acting_user=cls.vet, user=cls.vet, name="Benton clinic system")[1]

    def call(self, method, path, body=None, token=None):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token or self.clinic_token}"}
        return self.client.generic(
            method,
            f"/api/v1{path}",
            body and __import__("json").dumps(body),
            content_type="application/json",
            **headers,
        )

    def test_it_refuses_a_request_without_a_token(self):
        self.assertEqual(self.client.get("/api/v1/animals").status_code, 401)

    def test_it_refuses_a_revoked_token(self):
        ApiToken.objects.update(revoked_at="2026-11-01T00:00Z")
        self.assertEqual(self.call("GET", "/animals").status_code, 401)

    def test_a_clinic_system_sends_a_certificate(self):
        r = self.call("POST", f"/animals/{self.dog.pk}/vaccinations", CERTIFICATE)
        self.assertEqual(r.status_code, 201, r.content)
        self.assertEqual(r.json()["owner_name"], "Pat Owner", "the certificate is filled from the registry")
        v = RabiesVaccination.objects.get(certificate_serial="R-API-1")
        self.assertEqual((v.expires_on, v.municipality), (date(2027, 10, 1), self.benton))
        self.assertTrue(
            AuditEvent.objects.filter(actor=self.vet, action="vaccination.create", object_id=str(v.pk)).exists()
        )

    def test_an_error_names_the_field_and_writes_nothing(self):
        r = self.call("POST", f"/animals/{self.dog.pk}/vaccinations", {**CERTIFICATE, "expires_on": "2026-09-01"})
        self.assertEqual(r.status_code, 422)
        self.assertIn("must be after the vaccination date", r.json()["errors"]["expires_on"][0])
        self.assertFalse(RabiesVaccination.objects.filter(certificate_serial="R-API-1").exists())

    def test_a_malformed_date_names_the_field(self):
        r = self.call("POST", f"/animals/{self.dog.pk}/vaccinations", {**CERTIFICATE, "vaccinated_on": "yesterday"})
        self.assertEqual(r.status_code, 422)
        self.assertIn("vaccinated_on", r.json()["errors"])

    def test_a_clerk_registers_an_owner_and_a_dog(self):
        token = issue_api_token(acting_user=self.clerk, user=self.clerk, name="script")[1]
        r = self.call(
            "POST",
            "/municipalities/benton/people",
            {"name": "Lee", "street": "3 Pine", "city": "Benton", "postal_code": "53803"},
            token,
        )
        self.assertEqual(r.status_code, 201, r.content)
        r = self.call(
            "POST",
            "/municipalities/benton/animals",
            {"owner_id": r.json()["id"], "name": "Scout", "sex": "male", "birth_date": "2026-01-02"},
            token,
        )
        self.assertEqual(r.status_code, 201, r.content)
        self.assertEqual(r.json()["municipality"], "benton")
        r = self.call("PATCH", f"/animals/{r.json()['id']}", {"color": "black"}, token)
        self.assertEqual((r.status_code, r.json()["color"], r.json()["name"]), (200, "black", "Scout"))

    def test_a_duplicate_microchip_is_refused_by_field(self):
        token = issue_api_token(acting_user=self.clerk, user=self.clerk, name="script")[1]
        r = self.call(
            "POST",
            "/municipalities/benton/animals",
            {"owner_id": self.owner.pk, "name": "Twin", "sex": "male", "microchip": self.dog.microchip},
            token,
        )
        self.assertEqual(r.status_code, 422)
        self.assertIn("microchip", r.json()["errors"])

    def test_a_veterinarian_cannot_edit_an_owner_with_a_role_it_lacks(self):
        self.assertEqual(self.call("PATCH", f"/people/{self.owner.pk}", {"name": "X"}).status_code, 200)
        r = self.call(
            "POST",
            f"/animals/{self.dog.pk}/vaccinations",
            CERTIFICATE,
            issue_api_token(acting_user=self.officer, user=self.officer, name="cruiser")[1],
        )
        self.assertEqual(r.status_code, 403)

    def test_the_openapi_document_and_docs_are_served(self):
        r = self.client.get("/api/v1/openapi.json")
        self.assertEqual(r.status_code, 200)
        self.assertIn("/api/v1/animals/{pk}/vaccinations", r.json()["paths"])
        self.assertEqual(self.client.get("/api/v1/docs").status_code, 302)  # to sign in: tests/api/test_docs.py
        self.login(self.clerk)
        self.assertEqual(self.client.get("/api/v1/docs").status_code, 200)

    def test_a_session_user_can_use_the_api_from_the_browser(self):
        self.login(self.clerk)
        self.assertEqual([a["name"] for a in self.client.get("/api/v1/animals").json()["items"]], ["Rex"])


class RulesApiTests(BaseTestCase):
    def ask(self, **body):
        return self.client.post("/api/v1/rules/ask", body, content_type="application/json")

    def test_it_answers_with_the_value_and_its_citations(self):
        r = self.ask(
            jurisdiction="wi-cedarburg",
            question="license_tax",
            on="2026-02-10",
            facts={"species": "dog", "altered": True, "born_on": "2024-01-01"},
        )
        self.assertEqual(r.status_code, 200, r.content)
        self.assertEqual((r.json()["value"]["amount"], r.json()["value"]["basis"]), ("5.00", "tax"))
        self.assertTrue(any(c["section"].startswith("§ 7-1-3") for c in r.json()["citations"]))

    def test_an_unknown_question_is_named(self):
        r = self.ask(jurisdiction="wi-benton", question="dog_tax", on="2026-02-10", facts={})
        self.assertEqual(r.status_code, 422)
        self.assertIn("no question 'dog_tax'", r.json()["errors"]["question"][0])

    def test_a_missing_fact_is_named(self):
        r = self.ask(jurisdiction="wi-benton", question="license_tax", on="2026-02-10", facts={"species": "dog"})
        self.assertEqual(r.status_code, 422)
        self.assertIn("facts.born_on", r.json()["errors"])

    def test_a_violation_the_pack_does_not_name_is_refused_on_its_field(self):
        r = self.ask(jurisdiction="wi-benton", question="forfeiture", on="2026-03-02", facts={"violation": "115-30"})
        self.assertEqual(r.status_code, 422, r.content)
        message = r.json()["errors"]["facts.violation"][0]
        self.assertIn("no forfeiture for violation '115-30' here (§ 115-3B(4)", message)
        self.assertIn("forfeiture reads forfeitures", message)

    def test_facts_this_law_cannot_answer_are_refused_not_a_server_error(self):
        r = self.ask(
            jurisdiction="wi-river-hills",
            question="notice_effective",
            on="2026-03-02",
            facts={"method": "regular_mail"},
        )
        self.assertEqual(r.status_code, 422, r.content)
        self.assertIn("mailed_on is required", r.json()["errors"]["facts"][0])

    def test_an_unknown_jurisdiction_is_named(self):
        r = self.ask(jurisdiction="wi-atlantis", question="license_tax", on="2026-02-10", facts={})
        self.assertEqual(r.status_code, 422)
        self.assertIn("jurisdiction", r.json()["errors"])
