"""The nine 500s of issue 27 (finding 6): each input is refused with a 4xx naming the field,
through the whole middleware stack, anonymous or with a token. Run on SQLite and PostgreSQL."""

import json

from dogtag.accounts.actions import issue_api_token
from dogtag.accounts.models import Membership, Role
from dogtag.enforcement.models import Citation, Complaint
from dogtag.registry.models import Person
from tests.base import BaseTestCase
from tests.enforcement.fixtures import benton_cases

DEEP = 10_000  # deeper than Python's recursion limit


def nested(depth=DEEP) -> str:
    return "[" * depth + "]" * depth


class AnonymousTests(BaseTestCase):
    def test_deeply_nested_json_is_refused_on_any_url(self):
        for url in ("/healthz", "/login/", "/found/", "/apply/"):
            for body in (nested(), '{"a":' * DEEP + "1" + "}" * DEEP):
                r = self.client.post(url, body, content_type="application/json")
                self.assertEqual(r.status_code, 422, (url, r.status_code))
                self.assertIn("nested", r.content.decode())

    def test_a_nul_in_a_portal_link_path_is_a_4xx_naming_the_part(self):
        for url in ("/apply/a/ab%00cd/", "/apply/a/ab%00cd/review/", "/renew/x%00y/", "/reminders/stop/x%00/"):
            r = self.client.get(url)
            self.assertEqual(r.status_code, 422, (url, r.status_code))
            self.assertIn("token", r.content.decode())


class TokenTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        Membership.objects.create(user=cls.clerk, municipality=cls.benton, role=Role.OFFICER)
        cls.token = issue_api_token(acting_user=cls.clerk, user=cls.clerk, name="clinic")[1]

    def call(self, method, path, body=None, content_type="application/json"):
        data = body if isinstance(body, (str, bytes)) else json.dumps(body) if body is not None else ""
        return self.client.generic(
            method, f"/api/v1{path}", data, content_type=content_type, HTTP_AUTHORIZATION=f"Bearer {self.token}"
        )

    def assert_422(self, response, field):
        self.assertEqual(response.status_code, 422, response.content)
        self.assertIn(field, response.json()["errors"], response.json())
        return response.json()["errors"][field][0]

    PERSON = {"street": "1 Elm", "city": "Benton", "postal_code": "53803"}

    def test_a_nul_in_a_text_plain_or_untyped_body_is_refused(self):
        people = Person.objects.count()
        body = json.dumps({"name": "a\u0000b", **self.PERSON})
        for content_type in ("text/plain", "", "application/octet-stream", "application/x-json"):
            r = self.call("POST", "/municipalities/benton/people", body, content_type=content_type)
            self.assertIn("U+0000", self.assert_422(r, "name"), content_type)
        self.assertEqual(Person.objects.count(), people)

    def test_a_lone_surrogate_in_a_name_is_refused(self):
        r = self.call(
            "POST",
            "/municipalities/benton/people",
            '{"name": "Dana \\ud800", "street": "1 Elm", "city": "B", "postal_code": "53803"}',
        )
        self.assertIn("U+D800", self.assert_422(r, "name"))

    def test_a_nul_in_an_api_path_slug_is_refused_naming_the_parameter(self):
        r = self.call("POST", "/municipalities/ben%00ton/people", {"name": "Dana", **self.PERSON})
        self.assertIn("U+0000", self.assert_422(r, "slug"))
        r = self.call("GET", "/municipalities/benton%00/tags/2026/1")
        self.assertIn("U+0000", self.assert_422(r, "slug"))

    def test_a_complaint_id_that_is_not_a_whole_number_is_refused(self):
        benton_cases(self)
        for value in ("abc", [1], {"a": 1}, 1.5):
            r = self.call("POST", f"/cases/{self.complaint.case_id}/steps/complaint-next-step", {"complaint_id": value})
            self.assert_422(r, "complaint_id")
        r = self.call("POST", f"/cases/{self.declaration.case_id}/steps/requirement-proof", {"requirement_id": "x"})
        self.assert_422(r, "requirement_id")

    def test_a_null_for_a_field_that_cannot_be_empty_is_refused_in_a_patch(self):
        for field in ("altered_evidence", "name", "sex", "altered"):
            r = self.call("PATCH", f"/animals/{self.dog.pk}", {field: None})
            self.assert_422(r, field)
        r = self.call("PATCH", f"/animals/{self.dog.pk}", {"birth_date": None})  # a date may be cleared
        self.assertEqual(r.status_code, 200, r.content)

    def test_a_citation_dated_year_one_is_refused(self):
        citations = Citation.objects.count()
        body = {"person_id": self.owner.pk, "violation": "s. 174.042", "description": "x", "violated_on": "0001-01-01"}
        message = self.assert_422(self.call("POST", "/municipalities/benton/citations", body), "violated_on")
        self.assertIn("January 1, 1 is more than 40 years ago", message)
        body = {**body, "violated_on": "2026-01-05", "court_date": "9999-12-31"}
        self.assert_422(self.call("POST", "/municipalities/benton/citations", body), "court_date")
        self.assertEqual(Citation.objects.count(), citations)

    def test_a_complaint_kind_outside_its_list_is_refused_and_the_list_is_documented(self):
        body = {
            "kind": "noise",
            "complainant_name": "Ned",
            "observed_on": "2026-01-05",
            "place": "1 Elm",
            "animal_description": "brown dog",
        }
        self.assert_422(self.call("POST", "/municipalities/benton/complaints", body), "kind")
        self.assertFalse(Complaint.objects.filter(kind="noise").exists())
        document = self.client.get("/api/v1/openapi.json", HTTP_AUTHORIZATION=f"Bearer {self.token}").json()
        self.assertIn("barking", document["components"]["schemas"]["ComplaintIn"]["properties"]["kind"]["enum"])
