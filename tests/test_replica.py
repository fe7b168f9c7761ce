"""Reports and list pages read from the replica; the counter, the issue and every write stay on
the primary. The replica here is Django's test mirror of the default database (tests/conftest.py),
reached through a connection of its own, so the data is committed (TransactionTestCase) and the
queries each connection ran tell where a page read from."""

from datetime import date

from django.db import connections, transaction
from django.test import TransactionTestCase, override_settings
from django.test.utils import CaptureQueriesContext

from dogtag.lib.replica import ReplicaRouter, replica_reads
from dogtag.registry.models import Animal
from tests.base import Fixtures, on


def domain_queries(queries):
    """The page's own queries (not the session and login checks in front of every page)."""
    skip = ('"django_session"', '"auth_user"', '"otp_', '"axes_')
    return [q["sql"] for q in queries if not any(s in q["sql"] for s in skip)]


@override_settings(DOGTAG_READ_REPLICA="replica")
@on(date(2026, 5, 20))
class ReplicaRoutingTests(TransactionTestCase):
    databases = {"default", "replica"}

    def setUp(self):
        Fixtures.build(self)

    def pages(self, url):
        self.client.force_login(self.clerk)
        with (
            CaptureQueriesContext(connections["default"]) as primary,
            CaptureQueriesContext(connections["replica"]) as replica,
        ):
            r = self.client.get(url)
        self.assertEqual(r.status_code, 200, r.content[:500])
        return domain_queries(primary), domain_queries(replica)

    def test_a_report_reads_from_the_replica(self):
        primary, replica = self.pages("/m/benton/reports/")
        self.assertTrue(replica)
        self.assertFalse([q for q in primary if "registry_municipality" in q], primary)

    def test_the_dashboard_reads_from_the_replica(self):
        primary, replica = self.pages("/m/benton/dashboard/")
        self.assertTrue(any("licensing_license" in q for q in replica), replica)
        self.assertFalse([q for q in primary if "licensing_license" in q], primary)

    def test_the_counter_stays_on_the_primary(self):
        primary, replica = self.pages(f"/animals/{self.dog.pk}/license/")
        self.assertEqual(replica, [])
        self.assertTrue(any("registry_animal" in q for q in primary), primary)

    def test_a_licensing_fact_reads_where_the_router_says(self):
        from dogtag.licensing.law import local_amounts

        with (
            CaptureQueriesContext(connections["default"]) as primary,
            CaptureQueriesContext(connections["replica"]) as replica,
        ):
            with replica_reads():
                local_amounts(self.benton)
            local_amounts(self.benton)
        fees = '"licensing_feescheduleentry"'
        self.assertEqual(([q for q in domain_queries(replica) if fees in q] != [], len(replica)), (True, 1))
        self.assertEqual(len([q for q in domain_queries(primary) if fees in q]), 1)

    def test_writes_and_reads_in_a_transaction_go_to_the_primary(self):
        router = ReplicaRouter()
        with replica_reads():
            self.assertEqual(router.db_for_read(Animal), "replica")
            self.assertEqual(router.db_for_write(Animal), "default")
            with transaction.atomic():
                self.assertIsNone(router.db_for_read(Animal))  # the default: the primary
        self.assertIsNone(router.db_for_read(Animal))

    @override_settings(DOGTAG_READ_REPLICA=None)
    def test_without_a_replica_everything_reads_the_primary(self):
        primary, replica = self.pages("/m/benton/reports/")
        self.assertEqual(replica, [])
        self.assertTrue(primary)
