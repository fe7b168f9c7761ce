"""Bad input to the API and the forms (issue 14, finding 4): a 422 naming the field, never a 500,
and every API error in JSON. Run on SQLite and PostgreSQL (where a NUL used to be a 500)."""

import json
from unittest import mock

from dogtag.accounts.actions import issue_api_token
from dogtag.accounts.models import Membership, Role
from dogtag.audit.models import AuditEvent
from dogtag.enforcement.models import Examination
from dogtag.registry.models import Person
from tests.base import BaseTestCase
from tests.enforcement.fixtures import benton_cases


class ApiInputTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        Membership.objects.create(user=cls.clerk, municipality=cls.benton, role=Role.VETERINARIAN)
        cls.token = issue_api_token(acting_user=cls.clerk, user=cls.clerk, name="clinic")[1]

    def call(self, method, path, body=None, **extra):
        return self.client.generic(
            method,
            f"/api/v1{path}",
            json.dumps(body) if body is not None else "",
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {self.token}",
            **extra,
        )

    def assert_refused(self, response, field):
        self.assertEqual(response.status_code, 422, response.content)
        (message,) = response.json()["errors"][field]
        self.assertIn("control character U+", message)

    def test_a_nul_in_a_name_is_refused_with_the_field_named_and_nothing_written(self):
        people, events = Person.objects.count(), AuditEvent.objects.count()
        body = {"name": "a\u0000b", "street": "1 Elm", "city": "Benton", "postal_code": "53803"}
        r = self.call("POST", "/municipalities/benton/people", body)
        self.assert_refused(r, "name")
        self.assertIn("U+0000", r.json()["errors"]["name"][0])
        self.assertEqual((Person.objects.count(), AuditEvent.objects.count()), (people, events))

    def test_other_control_characters_are_refused_tab_and_newline_are_not(self):
        body = {"name": "Dana\x1bDoe", "street": "1 Elm", "city": "Benton", "postal_code": "53803"}
        self.assert_refused(self.call("POST", "/municipalities/benton/people", body), "name")
        body = {**body, "name": "Dana Doe", "street": "1 Elm\n(rear)\tunit 2"}
        self.assertEqual(self.call("POST", "/municipalities/benton/people", body).status_code, 201)

    def test_a_nul_in_a_query_string_is_refused(self):
        self.assert_refused(self.call("GET", "/animals?q=%00"), "q")
        self.assert_refused(self.call("GET", "/animals?microchip=%00"), "microchip")

    def test_a_nested_field_is_named_by_its_path(self):
        r = self.call("POST", "/municipalities/benton/complaints", {"incidents": [{"kind": "bark\x00"}]})
        self.assert_refused(r, "incidents.0.kind")

    def test_an_examination_keyed_by_an_unknown_value_is_a_422(self):
        benton_cases(self)
        count = Examination.objects.count()
        for which in ("", "fourth"):
            r = self.call(
                "POST",
                f"/quarantines/{self.quarantine.pk}/examinations",
                {"which": which, "examined_on": "2026-01-01", "findings": "calm"},
            )
            self.assertEqual(r.status_code, 422, r.content)
            self.assertIn("which", r.json()["errors"])
        self.assertEqual(Examination.objects.count(), count)


class ApiErrorsAreJsonTests(BaseTestCase):
    def setUp(self):
        self.token = issue_api_token(acting_user=self.clerk, user=self.clerk, name="clinic")[1]
        self.auth = {"HTTP_AUTHORIZATION": f"Bearer {self.token}"}

    def test_an_unknown_api_url_is_a_json_404(self):
        r = self.client.get("/api/v1/no-such-thing", **self.auth)
        self.assertEqual((r.status_code, r["Content-Type"]), (404, "application/json"))
        self.assertEqual(r.json(), {"detail": "Not Found"})

    def test_a_wrong_method_is_a_json_405(self):
        r = self.client.delete("/api/v1/municipalities", **self.auth)
        self.assertEqual((r.status_code, r["Content-Type"]), (405, "application/json"))

    def test_a_server_error_is_json_too(self):
        with (
            mock.patch("dogtag.registry.api.scoped", side_effect=RuntimeError("boom")),
            self.assertLogs("dogtag.api", "ERROR"),
        ):
            r = self.client.get("/api/v1/people", **self.auth)
        self.assertEqual((r.status_code, r["Content-Type"]), (500, "application/json"))
        self.assertIn("nothing was saved", r.json()["detail"])

    def test_the_document_declares_the_errors_every_operation_can_give(self):
        schema = self.client.get("/api/v1/openapi.json").json()
        for route, operations in schema["paths"].items():
            for method, operation in operations.items():
                for status in ("401", "403", "404", "422", "500"):
                    self.assertIn(status, operation["responses"], f"{method.upper()} {route}")


class FormInputTests(BaseTestCase):
    def test_a_nul_in_the_search_box_is_refused_naming_the_field(self):
        self.login(self.clerk)
        r = self.client.get("/search/", {"q": "Re\x00x"})
        self.assertContains(r, "<strong>q</strong>", status_code=422)
        self.assertContains(r, "U+0000", status_code=422)

    def test_a_nul_typed_on_the_portal_changes_nothing(self):
        r = self.client.post("/apply/", {"municipality": self.benton.pk, "email": "dana\x00@example.org"})
        self.assertContains(r, "<strong>email</strong>", status_code=422)
        from dogtag.portal.models import Application

        self.assertFalse(Application.objects.exists())
