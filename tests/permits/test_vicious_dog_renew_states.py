"""`POST /api/v1/declarations/{id}/vicious-dog-permits/renew` in every state a declaration and
its permits can be in (issue 14, finding 4: a state-dependent 500): each refusal a 4xx in JSON
naming the field or the rule, and nothing written."""

import json
from datetime import date

from dogtag.accounts.actions import issue_api_token
from dogtag.audit.models import AuditEvent
from dogtag.enforcement import actions as enforcement
from dogtag.enforcement.models import Deadline, Declaration
from dogtag.permits.models import ViciousDogPermit
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase

INSURANCE = "Acme bond 77, $100,000"
RENEWAL = {"insurance": INSURANCE, "insurance_statement_signed": True, "fee_paid": "1000.00"}
ISSUED = date(2026, 3, 2)


class RenewStatesTests(EnforcementTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        clerk = cls.clerks["river-hills"]
        cls.token = issue_api_token(acting_user=clerk, user=clerk, name="clerk's script")[1]
        cls.officer_token = issue_api_token(acting_user=cls.chief, user=cls.chief, name="chief's script")[1]

    def declare(self, name, *, vicious=True):
        _, _, dog = self.owner_and_dog("river-hills", name, vaccinated_on=date(2025, 5, 1))
        incidents = [{"occurred_on": ISSUED, "kind": "serious_injury", "victim": "person", "off_owner_property": True}]
        if vicious:  # [a](8): serious injury off the owner's property on two separate occasions
            incidents.insert(0, {**incidents[0], "occurred_on": date(2025, 12, 1)})
        decl = enforcement.declare_dog(
            acting_user=self.chief,
            municipality=self.places["river-hills"],
            animal=dog,
            evidence="bite reports",
            incidents=incidents,
            determined_on=ISSUED,
        )
        self.assertEqual(decl.classification, "vicious" if vicious else "dangerous")
        return decl

    def with_permit(self, name):
        decl = self.declare(name)
        with on(ISSUED):
            r = self.call(f"/declarations/{decl.pk}/vicious-dog-permits", {**RENEWAL, "fee_paid": "835.62"}, "POST")
        self.assertEqual(r.status_code, 201, r.content)
        return decl

    def call(self, path, body, method="POST", token=None):
        return self.client.generic(
            method,
            f"/api/v1{path}",
            body if isinstance(body, str) else json.dumps(body),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token or self.token}",
        )

    def renew(self, decl, body=RENEWAL, token=None):
        return self.call(f"/declarations/{decl.pk}/vicious-dog-permits/renew", body, token=token)

    def written(self):
        return (ViciousDogPermit.objects.count(), AuditEvent.objects.count(), Deadline.objects.count())

    def assert_refused(self, response, field, *fragments, status=422):
        self.assertEqual(response.status_code, status, response.content)
        self.assertTrue(response["Content-Type"].startswith("application/json"))
        body = response.json()
        message = " ".join(body["errors"][field]) if "errors" in body else body["detail"]
        for fragment in fragments:
            self.assertIn(fragment, message)

    def test_no_permit_yet(self):
        decl = self.declare("Nopermit")
        with on(date(2026, 12, 28)):
            before = self.written()
            self.assert_refused(self.renew(decl), "__all__", "issue the first")
            self.assertEqual(self.written(), before)

    def test_an_expired_permit_renews_late_for_the_current_year(self):
        decl = self.with_permit("Expired")
        with on(date(2028, 2, 1)):  # the 2026 permit ran out; nothing was renewed for 2027
            r = self.renew(decl)
        self.assertEqual(r.status_code, 201, r.content)
        self.assertEqual(r.json()["expires_on"], "2028-12-31")
        # Sent again (a retry after a lost answer): not a second renewal, for 2029.
        with on(date(2028, 2, 1)):
            before = self.written()
            self.assert_refused(self.renew(decl), "__all__", "was issued on February 1, 2028", "renew it when due")
            self.assertEqual(self.written(), before)

    def test_a_permit_revoked_for_failure_to_comply(self):
        decl = self.with_permit("Revoked")
        with on(date(2026, 6, 1)):
            enforcement.record_failure_to_comply(
                decl, acting_user=self.chief, found_on=date(2026, 6, 1), failure="no enclosure"
            )
        with on(date(2026, 12, 28)):
            before = self.written()
            self.assert_refused(self.renew(decl), "__all__", "was revoked on June 1, 2026")
            self.assertEqual(self.written(), before)

    def test_already_renewed_for_next_year(self):
        decl = self.with_permit("Twice")
        with on(date(2026, 12, 28)):
            self.assertEqual(self.renew(decl).status_code, 201)
            before = self.written()
            self.assert_refused(self.renew(decl), "__all__", "already runs to December 31, 2027")
            self.assertEqual(self.written(), before)

    def test_a_declaration_no_longer_in_force_or_dangerous_not_vicious(self):
        decl = self.with_permit("Overturned")
        Declaration.objects.filter(pk=decl.pk).update(status=Declaration.Status.OVERTURNED)
        dangerous = self.declare("Dangerous", vicious=False)
        with on(date(2026, 12, 28)):
            before = self.written()
            self.assert_refused(self.renew(decl), "__all__", "no longer in force")
            self.assert_refused(self.renew(dangerous), "__all__", "Only a dog declared vicious")
            self.assertEqual(self.written(), before)

    def test_a_renewal_dated_in_the_wrong_year(self):
        decl = self.with_permit("Wrongyear")
        with on(date(2026, 12, 28)):
            before = self.written()
            for day, fragment in (
                ("9999-12-31", "in the future"),
                ("2027-01-04", "in the future"),
                ("0001-01-01", "before permit"),
                ("2026-03-01", "before permit"),
            ):
                with self.subTest(day):
                    self.assert_refused(self.renew(decl, {**RENEWAL, "renewed_on": day}), "renewed_on", fragment)
            self.assertEqual(self.written(), before)

    def test_a_malformed_body(self):
        decl = self.with_permit("Malformed")
        with on(date(2026, 12, 28)):
            before = self.written()
            bodies = {
                "fee_paid": [
                    {**RENEWAL, "fee_paid": "12abc"},
                    {**RENEWAL, "fee_paid": "NaN"},
                    {**RENEWAL, "fee_paid": "Infinity"},
                    {**RENEWAL, "fee_paid": "-1000.00"},
                    {**RENEWAL, "fee_paid": "1e400"},
                ],
                "insurance": [{"fee_paid": "1000.00"}, {**RENEWAL, "insurance": ""}, {**RENEWAL, "insurance": None}],
                "renewed_on": [{**RENEWAL, "renewed_on": "2026-13-01"}, {**RENEWAL, "renewed_on": 20261228}],
            }
            for field, cases in bodies.items():
                for body in cases:
                    with self.subTest(body=body):
                        r = self.renew(decl, body)
                        self.assertEqual(r.status_code, 422, r.content)
                        self.assertTrue(r["Content-Type"].startswith("application/json"))
                        self.assertTrue(any(field in key for key in r.json()["errors"]), r.json())
            for raw in ("not json", "[]", "null", ""):
                with self.subTest(raw=raw):
                    r = self.renew(decl, raw)
                    self.assertEqual((r.status_code, r["Content-Type"][:16]), (422, "application/json"), r.content)
            self.assertEqual(self.written(), before)

    def test_not_the_clerk_or_not_the_municipality(self):
        decl = self.with_permit("Scoped")
        webster = self.clerks["webster"]
        webster_token = issue_api_token(acting_user=webster, user=webster, name="webster")[1]
        with on(date(2026, 12, 28)):
            before = self.written()
            self.assert_refused(self.renew(decl, token=self.officer_token), "detail", status=403)
            self.assertEqual(self.renew(decl, token=webster_token).status_code, 404)
            self.assertEqual(self.call("/declarations/999999/vicious-dog-permits/renew", RENEWAL).status_code, 404)
            self.assertEqual(self.written(), before)

    def test_a_first_permit_dated_in_the_future_or_before_the_determination(self):
        decl = self.declare("Firstdate")
        with on(date(2026, 3, 10)):
            before = self.written()
            for day, fragment in (("9999-12-31", "in the future"), ("2026-03-01", "before the determination")):
                with self.subTest(day):
                    r = self.call(
                        f"/declarations/{decl.pk}/vicious-dog-permits",
                        {**RENEWAL, "fee_paid": "835.62", "issued_on": day},
                    )
                    self.assert_refused(r, "issued_on", fragment)
            self.assertEqual(self.written(), before)
