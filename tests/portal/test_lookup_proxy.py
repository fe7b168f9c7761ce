"""The found-dog lookup limit: the client's address behind trusted proxies, and a limit that
holds when lookups arrive at once (issue 14, finding 2)."""

from concurrent.futures import ThreadPoolExecutor
from datetime import date

import pytest
from django.db import close_old_connections, connections
from django.test import Client, RequestFactory, SimpleTestCase, override_settings

from dogtag.audit.models import AuditEvent
from dogtag.portal.models import Lookup, LookupCounter
from dogtag.portal.views import client_address
from tests.base import BaseTestCase, on


def request(forwarded, peer="10.0.0.5"):
    return RequestFactory().get("/found/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded)


class ClientAddressTests(SimpleTestCase):
    @override_settings(TRUSTED_PROXY_COUNT=0)
    def test_it_ignores_forwarded_headers_without_a_trusted_proxy(self):
        self.assertEqual(client_address(request("203.0.113.9")), "10.0.0.5")

    @override_settings(TRUSTED_PROXY_COUNT=1)
    def test_behind_one_proxy_it_takes_the_address_the_proxy_appended(self):
        # The client wrote 6.6.6.6 itself; the proxy appended the address it saw.
        self.assertEqual(client_address(request("6.6.6.6, 203.0.113.9")), "203.0.113.9")
        self.assertEqual(client_address(request("203.0.113.9")), "203.0.113.9")

    @override_settings(TRUSTED_PROXY_COUNT=2)
    def test_behind_two_proxies_it_takes_the_second_from_the_right(self):
        self.assertEqual(client_address(request("6.6.6.6, 203.0.113.9, 10.0.0.7")), "203.0.113.9")

    @override_settings(TRUSTED_PROXY_COUNT=1)
    def test_a_malformed_entry_falls_back_to_the_peer(self):
        self.assertEqual(client_address(request("not-an-address")), "10.0.0.5")
        self.assertEqual(client_address(request("")), "10.0.0.5")


@on(date(2026, 2, 10))
@override_settings(TRUSTED_PROXY_COUNT=1, DOGTAG_LOOKUP_LIMIT=20)
class ForgedForwardedForTests(BaseTestCase):
    def test_sixty_lookups_with_forged_first_entries_are_limited_to_twenty(self):
        statuses = [
            self.client.get("/found/", {"q": "RT-555"}, HTTP_X_FORWARDED_FOR=f"198.51.100.{i}, 203.0.113.9").status_code
            for i in range(60)
        ]
        self.assertEqual(statuses.count(200), 20)
        self.assertEqual(statuses.count(429), 40)
        counter = LookupCounter.objects.get()
        self.assertEqual((counter.client_address, counter.attempts, counter.refused), ("203.0.113.9", 60, 40))

    def test_refused_lookups_write_no_log_row_and_no_audit_event(self):
        for _ in range(20):
            self.client.get("/found/", {"q": "RT-555"})
        lookups, events = Lookup.objects.count(), AuditEvent.objects.count()
        for _ in range(30):
            self.assertEqual(self.client.get("/found/", {"q": "RT-555"}).status_code, 429)
        self.assertEqual((Lookup.objects.count(), AuditEvent.objects.count()), (lookups, events))
        self.assertEqual(LookupCounter.objects.get().refused, 30)

    def test_a_new_window_starts_a_new_count(self):
        for _ in range(21):
            self.client.get("/found/", {"q": "RT-555"})
        with on(date(2026, 2, 10), hour=14):
            self.assertEqual(self.client.get("/found/", {"q": "RT-555"}).status_code, 200)


def _look_up(_):
    try:
        return Client(REMOTE_ADDR="203.0.113.50").get("/found/", {"q": "RT-404"}).status_code
    finally:
        close_old_connections()
        connections.close_all()


@pytest.mark.django_db(transaction=True)
@override_settings(DOGTAG_LOOKUP_LIMIT=20, TRUSTED_PROXY_COUNT=0)
def test_forty_concurrent_lookups_against_a_limit_of_twenty_serve_exactly_twenty():
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(_look_up, range(40)))
    assert statuses.count(200) == 20, statuses
    assert statuses.count(429) == 20, statuses
    assert Lookup.objects.count() == 20
    assert LookupCounter.objects.get().attempts == 40
