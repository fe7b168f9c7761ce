"""Animal control under /api/v1/: the same actions, the same refusals, scoped by municipality."""

import json
from datetime import date

from dogtag.accounts.actions import issue_api_token
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase, written


class EnforcementApiTests(EnforcementTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.token = issue_api_token(acting_user=cls.chief, user=cls.chief, name="dispatch")[1]
        cls.w_owner, _, cls.w_dog = cls.owner_and_dog("webster", "Api", vaccinated_on=date(2025, 5, 1))

    def call(self, method, path, body=None):
        return self.client.generic(
            method,
            f"/api/v1{path}",
            json.dumps(body or {}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {self.token}",
        )

    def test_it_impounds_gives_notice_and_refuses_release_with_the_reasons(self):
        with on(date(2026, 3, 2)):
            r = self.call(
                "POST",
                "/municipalities/webster/impoundments",
                {"animal_id": self.w_dog.pk, "found_at": "Main St", "reason": "at-large", "held_at": "shelter"},
            )
            self.assertEqual(r.status_code, 422)
            self.assertIn("§ 98-7", r.json()["errors"]["officer_saw_or_heard"][0])
            r = self.call(
                "POST",
                "/municipalities/webster/impoundments",
                {
                    "animal_id": self.w_dog.pk,
                    "found_at": "Main St",
                    "reason": "at-large",
                    "held_at": "shelter",
                    "officer_saw_or_heard": True,
                },
            )
            self.assertEqual(r.status_code, 201)
            case = r.json()
            imp = self.w_dog.cases.get().impoundment
            with on(date(2026, 3, 3)):  # recorded the day it is given (not a day ahead)
                r = self.call(
                    "POST", f"/impoundments/{imp.pk}/notice", {"notice_method": "mail", "notice_on": "2026-03-03"}
                )
            claim = next(d for d in r.json()["deadlines"] if d["key"] == "claim_by")
            self.assertEqual((claim["due_on"], claim["citations"][0]["section"]), ("2026-03-10", "§ 98-7"))
            r = self.call("POST", f"/impoundments/{imp.pk}/release", {"charges_paid": True})
            self.assertEqual(r.status_code, 422)
            self.assertIn("a license from the clerk", r.json()["errors"]["__all__"][0])
            listed = self.call("GET", "/cases?municipality=webster").json()["items"]
            self.assertEqual([c["id"] for c in listed], [case["id"]])

    def test_it_issues_a_citation_with_the_engines_forfeiture(self):
        with on(date(2026, 3, 2)):
            r = self.call(
                "POST",
                "/municipalities/webster/citations",
                {
                    "person_id": self.w_owner.pk,
                    "violation": "98-6 running at large",
                    "description": "vicious dog at large",
                    "violated_on": "2026-03-01",
                },
            )
            self.assertEqual(r.status_code, 201)
            self.assertEqual((r.json()["offense_number"], r.json()["forfeiture"]), (1, "50.00"))
            r = self.call(
                "POST",
                "/municipalities/benton/citations",
                {
                    "person_id": self.owner.pk,
                    "violation": "s. 174.042",
                    "description": "unlicensed",
                    "violated_on": "2026-03-01",
                },
            )
            # s. 174.042: "$25–$100 for a first offense"
            self.assertEqual((r.status_code, r.json()["minimum"], r.json()["maximum"]), (201, "25.00", "100.00"))

    def test_a_kept_decision_is_typed_in_the_document_by_its_questions_value_schema(self):
        from dogtag.api import api

        schemas = api.get_openapi_schema()["components"]["schemas"]
        decision = schemas["CitationOut"]["properties"]["decision"]
        self.assertEqual(decision["required"], ["value", "citations", "notes", "not_set", "unconfirmed"])
        self.assertLessEqual(
            {"minimum", "maximum", "penalty", "total_maximum"}, set(decision["properties"]["value"]["properties"])
        )
        self.assertEqual(decision["properties"]["citations"]["items"]["required"], ["jurisdiction", "section", "quote"])
        finding = next(
            s for s in schemas["ComplaintOut"]["properties"]["finding"]["anyOf"] if s.get("type") == "object"
        )
        values = finding["properties"]["value"]["anyOf"]
        self.assertTrue(any("complaints_in_window" in v["properties"] for v in values))
        self.assertTrue(any("next_step" in v["properties"] for v in values))
        self.assertNotIn("$ref", json.dumps(decision) + json.dumps(finding))  # self-contained in the document
        # A barking complaint's finding is sent as the document describes (the suite checks every response).
        with on(date(2026, 3, 2)):
            r = self.call(
                "POST",
                "/municipalities/webster/complaints",
                {
                    "kind": "barking",
                    "formal_written": True,
                    "complainant_name": "A. Neighbour",
                    "animal_id": self.w_dog.pk,
                    "observed_on": "2026-03-01",
                    "place": "Main St",
                },
            )
        self.assertEqual(r.status_code, 201, r.content)
        self.assertEqual(r.json()["finding"]["value"]["decided_by"], "complaint_count")
        self.assertEqual(r.json()["finding"]["citations"][0]["section"], "§ 98-12")

    def test_it_takes_every_step_of_a_river_hills_declaration_through_the_api(self):
        _, _, dog = self.owner_and_dog("river-hills", "Apex", vaccinated_on=date(2025, 5, 1))
        with on(date(2026, 3, 2)):
            r = self.call(
                "POST",
                "/municipalities/river-hills/cases/declaration",
                {
                    "animal": dog.pk,
                    "evidence": "bite report",
                    "occurred_on": "2026-02-27",
                    "incident_kind": "bite_injury",
                    "victim": "person",
                },
            )
            self.assertEqual(r.status_code, 201, r.content)
            case = r.json()["id"]
            steps = [
                ("declaration-serve", {"service_method": "personal_service", "served_on": "2026-03-02"}),
                ("declaration-hearing-request", {"requested_on": "2026-03-02"}),  # not a future day
                ("declaration-hearing", {"scheduled_on": "2026-03-10", "time": "09:30", "place": "Village Hall"}),
            ]
            for step, body in steps:
                r = self.call("POST", f"/cases/{case}/steps/{step}", body)
                self.assertEqual(r.status_code, 200, (step, r.content))
                # The same call again (a client retrying after a lost answer) writes nothing.
                before = written()
                again = self.call("POST", f"/cases/{case}/steps/{step}", body)
                self.assertIn(again.status_code, (200, 422), (step, again.content))
                self.assertEqual(written(), before, step)
            hearing = next(d for d in r.json()["deadlines"] if d["key"] == "hearing" and d["done_on"] is None)
            self.assertEqual(hearing["due_on"], "2026-03-10")
            # [c](3): the hearing "not more than fourteen days" after service
            r = self.call(
                "POST",
                f"/cases/{case}/steps/declaration-hearing",
                {"scheduled_on": "2026-03-17", "time": "09:30", "place": "Hall"},
            )
            self.assertEqual(r.status_code, 422)
            self.assertIn("between March 9, 2026 and March 16, 2026", r.json()["errors"]["scheduled_on"][0])
            r = self.call("POST", f"/cases/{case}/steps/declaration-hearing", {"place": "Hall"})
            self.assertEqual(r.json()["errors"]["scheduled_on"], ["This field is required."])
            self.assertEqual(self.call("POST", f"/cases/{case}/steps/impoundment-release", {}).status_code, 404)
            self.assertEqual(self.call("POST", f"/cases/{case}/steps/no-such-step", {}).status_code, 404)
