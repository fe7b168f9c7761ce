"""The counter's hot paths in a fixed number of queries, so a change that adds a round trip per
page (or per tag, or per fee) fails here instead of in a county's busiest hour."""

import json
from datetime import date

from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from ninja.responses import NinjaJSONEncoder

from dogtag.accounts.actions import issue_api_token
from dogtag.accounts.models import ApiToken
from dogtag.licensing import actions
from dogtag.licensing.api import LicenseOut
from dogtag.licensing.facts import read_facts
from dogtag.licensing.models import License, ReceiptCounter, TagCounter
from dogtag.licensing.owed import what_is_owed
from dogtag.registry.models import Animal, today
from tests.base import audit_chain_statements, on
from tests.licensing.base import CounterApiTestCase


@on(date(2026, 5, 20))
class QueryCountTests(CounterApiTestCase):
    def setUp(self):
        cache.clear()

    def fee_schedule_reads(self, queries):
        return sum('"licensing_feescheduleentry"' in q["sql"] and q["sql"].startswith("SELECT") for q in queries)

    def test_the_tag_lookup_takes_one_query_once_the_token_is_known(self):
        self.issue_rex()
        self.assertEqual(self.api("/municipalities/benton/tags/2026/300").status_code, 200)
        # Whether the token is still live (accounts/tokens.py: a revocation holds at once in every
        # process); the tag with its license, the license's municipality and all of the license's
        # tags. The lean path in front of Django asks both in one (tests/licensing/test_lean_path.py).
        with self.assertNumQueries(2):
            r = self.api("/municipalities/benton/tags/2026/300")
        self.assertEqual(r.status_code, 200)
        self.assertEqual((r.json()["municipality"], [t["serial"] for t in r.json()["tags"]]), ("benton", [300]))

    def test_the_first_call_with_a_token_adds_the_token_and_the_memberships(self):
        self.issue_rex()
        with self.assertNumQueries(3):
            self.assertEqual(self.api("/municipalities/benton/tags/2026/300").status_code, 200)

    def test_the_tag_lookup_stays_inside_the_users_municipalities(self):
        self.issue_rex()
        outsider_token = issue_api_token(acting_user=self.outsider, user=self.outsider, name="cedarburg script")[1]
        r = self.client.get(
            "/api/v1/municipalities/benton/tags/2026/300", HTTP_AUTHORIZATION=f"Bearer {outsider_token}"
        )
        self.assertEqual(r.status_code, 404)

    def test_the_facts_take_four_queries_and_the_decision_none(self):
        animal = Animal.objects.select_related("municipality").get(pk=self.dog.pk)
        # The fee schedule, the animal's licenses and the multiple-dog licenses covering it (Benton
        # has them; a third read only for a dog some license covers), the rabies certificates.
        with self.assertNumQueries(4):
            facts = read_facts(animal, date(2026, 5, 20))
        with self.assertNumQueries(0):
            owed = what_is_owed(facts)
        self.assertEqual(owed.total, 15)

    def test_the_counter_page_reads_the_fee_schedule_once(self):
        self.login(self.clerk)
        with CaptureQueriesContext(connection) as queries:
            r = self.client.get(f"/animals/{self.dog.pk}/license/")
        self.assertContains(r, "15.00")
        self.assertEqual(self.fee_schedule_reads(queries), 1)

    def test_the_counter_page_takes_eleven_statements(self):
        self.login(self.clerk)
        self.assertEqual(self.client.get(f"/animals/{self.dog.pk}/license/").status_code, 200)
        # The session, the user, their second-factor devices, their memberships (read once: the
        # second-factor check, the scope and the navigation share them), the animal with its
        # municipality and which years have tags in stock, the fee schedule, the animal's licenses
        # and the multiple-dog licenses covering it (Benton has them), the rabies certificates, the
        # animals kept with it, the municipalities of the navigation bar.
        with CaptureQueriesContext(connection) as queries:
            r = self.client.get(f"/animals/{self.dog.pk}/license/")
        self.assertContains(r, "Issue the 2026 license")
        self.assertEqual(len(queries), 11, "\n".join(q["sql"] for q in queries))

    def test_issuing_reuses_the_counters_figures(self):
        animal = Animal.objects.select_related("municipality").get(pk=self.dog.pk)
        owed = what_is_owed(read_facts(animal, date(2026, 5, 20)))
        ReceiptCounter.objects.create(municipality=animal.municipality, year=today().year)  # not the year's first
        TagCounter.objects.create(municipality=animal.municipality, license_year=2026)
        with CaptureQueriesContext(connection) as queries:
            license = actions.issue_license(
                animal, acting_user=self.clerk, payment={"method": "cash", "amount": "15.00"}, owed=owed
            )
        statements = [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
        self.assertEqual(len(statements), self.issue_statements(), "\n".join(statements))
        self.assertEqual(self.fee_schedule_reads(queries), 0)
        self.assertEqual((license.serial, license.tax + license.late_fee), (300, 15))

    def issue_statements(self):
        """The owner read, then the issue's own statements, one row at a time: the next tag after the
        year's tag counter (the counter read, the tag found and claimed in one), the payment, the
        license, its tag;
        then what holds the other clerks until the commit: the counter moved on, the receipt number
        (counted on and read in one UPDATE ... RETURNING) set on the payment, the payment's and the
        license's audit events (one INSERT on PostgreSQL, one each on SQLite); and the audit chain's
        own statements for its two events."""
        audit_inserts = 1 if connection.vendor == "postgresql" else 2
        return 1 + 7 + audit_inserts + audit_chain_statements(2)

    def test_issuing_at_the_counter_reads_the_fee_schedule_once(self):
        self.login(self.clerk)
        with CaptureQueriesContext(connection) as queries:
            r = self.client.post(f"/animals/{self.dog.pk}/license/", {"method": "cash", "amount": "15.00"})
        self.assertEqual(r.status_code, 302)
        self.assertEqual(self.fee_schedule_reads(queries), 1)
        self.assertEqual(License.objects.get(animal=self.dog).serial, 300)

    def post_issue(self):
        """`POST /api/v1/animals/<dog>/licenses`, paid in cash, and the statements it took."""
        with CaptureQueriesContext(connection) as queries:
            r = self.client.post(
                f"/api/v1/animals/{self.dog.pk}/licenses",
                json.dumps({"payment": {"method": "cash", "amount": "15.00"}}),
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {self.token}",
            )
        self.assertEqual(r.status_code, 201, r.content)
        return r, queries

    def test_the_api_issue_reads_the_fee_schedule_once(self):
        _, queries = self.post_issue()
        self.assertEqual(self.fee_schedule_reads(queries), 1)

    def test_the_api_issue_takes_its_statements_once_the_token_is_known(self):
        self.assertEqual(self.api(f"/animals/{self.dog.pk}/fee-preview").status_code, 200)
        ReceiptCounter.objects.create(municipality=self.dog.municipality, year=today().year)  # not the year's first
        TagCounter.objects.create(municipality=self.dog.municipality, license_year=2026)
        r, queries = self.post_issue()
        # Whether the token is still live (read on every request, so a revocation holds at once in
        # every process: accounts/tokens.py); the animal; the fee schedule, the animal's licenses and
        # the multiple-dog licenses covering it (Benton has them), the rabies certificates; the owner
        # and the issue's own (issue_statements). The answer is the
        # license in hand with the tag it took: no statement. (Outside a test's transaction BEGIN and
        # COMMIT add two; savepoints are not counted.)
        statements = [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
        self.assertEqual(len(statements), 6 + self.issue_statements(), "\n".join(statements))
        self.assertEqual([t["serial"] for t in r.json()["tags"]], [300])

    def test_the_api_issue_answers_what_the_schema_serialises(self):
        # The answer is built from the license in hand (licensing/tag_lookup.py `answer`), not by
        # LicenseOut: it must still be what LicenseOut documents and would have serialised.
        r, _ = self.post_issue()
        stored = License.objects.select_related("municipality").get(animal=self.dog)
        expected = json.loads(json.dumps(LicenseOut.model_validate(stored).model_dump(), cls=NinjaJSONEncoder))
        self.assertEqual(r.json(), expected)
        self.assertEqual(r["Content-Type"], "application/json; charset=utf-8")

    def test_the_token_cache_forgets_a_revoked_token(self):
        from django.utils import timezone

        self.assertEqual(self.api(f"/animals/{self.dog.pk}/fee-preview").status_code, 200)
        token = ApiToken.objects.get(user=self.clerk)
        token.revoked_at = timezone.now()
        token.save()
        self.assertEqual(self.api(f"/animals/{self.dog.pk}/fee-preview").status_code, 401)

    def test_the_token_cache_forgets_a_membership_taken_away(self):
        from dogtag.accounts.models import Membership

        self.assertEqual(self.api(f"/animals/{self.dog.pk}/fee-preview").status_code, 200)
        Membership.objects.filter(user=self.clerk).delete()
        self.assertEqual(self.api(f"/animals/{self.dog.pk}/fee-preview").status_code, 404)

    def issue_rex(self):
        actions.issue_license(self.dog, acting_user=self.clerk, payment={"method": "cash", "amount": "15.00"})
