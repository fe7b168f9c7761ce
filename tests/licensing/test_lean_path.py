"""The tag lookup in front of Django (dogtag/lean.py) answers what Django answers, byte for byte:
for each request below, the lean application and Django's own give the same status, the same
headers in the same order and the same body; it answers the lookup itself (one query, Django's
middleware not entered) and hands everything else to Django."""

import contextlib
import io
import sys
from datetime import date

import psycopg
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test import TransactionTestCase, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import resolve
from django.utils import timezone

from dogtag import lean
from dogtag.accounts.actions import issue_api_token, revoke_api_token
from dogtag.accounts.models import ApiToken, Membership
from dogtag.audit.models import AuditEvent
from dogtag.licensing import actions
from dogtag.licensing.models import License
from tests.base import BaseTestCase, Fixtures, on
from tests.licensing.base import BENTON_FEES, set_fees

PATH = "/api/v1/municipalities/benton/tags/2026/{}"


def environ(path, *, method="GET", query="", token=None, host="127.0.0.1", **extra):
    """A request as gunicorn hands it to the application."""
    return {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": host,
        "HTTP_USER_AGENT": "finder/1.0",
        "HTTP_ACCEPT": "application/json",
        **({"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        **extra,
    }


@contextlib.contextmanager
def in_test_transaction():
    """As Django's test client does: the handler's signals must not close the test's connection."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def call(application, env):
    """(status, headers, body) as a WSGI server would send them; the iterable closed after."""
    answered = {}

    def start_response(status, headers, exc_info=None):
        answered.update(status=status, headers=list(headers))

    with in_test_transaction():
        result = application(env, start_response)
        try:
            body = b"".join(result)
        finally:
            result.close()
    return answered["status"], answered["headers"], body


def django(env, start_response):
    """Django's own application, built for the settings of the moment (a test may override them)."""
    return WSGIHandler()(env, start_response)


class CountingDjango:
    """Django's real application, counting the requests handed to it."""

    def __init__(self):
        self.calls = 0

    def __call__(self, env, start_response):
        self.calls += 1
        return django(env, start_response)


@on(date(2026, 5, 20))
class LeanPathTests(BaseTestCase):
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
        cls.outsider_token = issue_api_token(acting_user=cls.outsider, user=cls.outsider, name="elsewhere")[1]
        revoked, cls.revoked_token = issue_api_token(acting_user=cls.clerk, user=cls.clerk, name="old")
        ApiToken.objects.filter(pk=revoked.pk).update(revoked_at=timezone.now())
        license = actions.issue_license(cls.dog, acting_user=cls.clerk, payment={"method": "cash", "amount": "15.00"})
        cls.license_id = license.pk

    def setUp(self):
        self.django = CountingDjango()
        self.lean = lean.LeanTagLookup(self.django)

    def assertSameAnswer(self, env):
        """Both applications answer `env` alike (Date is the server's, not the application's)."""
        expected = call(django, dict(env, **{"wsgi.input": io.BytesIO()}))
        got = call(self.lean, dict(env, **{"wsgi.input": io.BytesIO()}))
        self.assertEqual(got[0], expected[0])
        self.assertEqual(got[1], expected[1])
        self.assertEqual(got[2], expected[2])
        return got

    def replace_and_void(self):
        license = License.objects.get(pk=self.license_id)
        actions.replace_tag(license, acting_user=self.clerk)
        actions.void_license(
            License.objects.get(pk=self.license_id),
            acting_user=self.clerk,
            reason="issued to the wrong owner",
            refund={"method": "cash", "amount": "15.00"},
        )

    def test_a_found_tag_is_answered_as_django_answers_it(self):
        status, headers, body = self.assertSameAnswer(environ(PATH.format(300), token=self.token))
        self.assertEqual(status, "200 OK")
        names = [name for name, _ in headers]
        for name in (
            "Content-Type",
            "Content-Length",
            "Content-Security-Policy",
            "Permissions-Policy",
            "X-Content-Type-Options",
            "Referrer-Policy",
            "Cross-Origin-Opener-Policy",
            "X-Frame-Options",
            "Vary",
            "Cache-Control",  # no-store: the answer names the owner (issue 27 §9)
        ):
            self.assertIn(name, names)
        self.assertIn(b'"animal_name": "Rex"', body)

    def test_a_replaced_and_a_voided_tag_are_answered_as_django_answers_them(self):
        self.replace_and_void()
        for serial in (300, 301):
            with self.subTest(serial=serial):
                status, _, body = self.assertSameAnswer(environ(PATH.format(serial), token=self.token))
                self.assertEqual(status, "200 OK")
                self.assertIn(b'"status": "voided"', body)

    def test_every_refusal_is_djangos_own(self):
        requests = {
            "tag in stock": environ(PATH.format(302), token=self.token),
            "unknown serial": environ(PATH.format(99999), token=self.token),
            "municipality not served": environ(PATH.format(300), token=self.outsider_token),
            "another municipality's slug": environ("/api/v1/municipalities/webster/tags/2026/300", token=self.token),
            "no such municipality": environ("/api/v1/municipalities/nowhere/tags/2026/300", token=self.token),
            "unknown token": environ(PATH.format(300), token="dt_not-a-token"),
            "revoked token": environ(PATH.format(300), token=self.revoked_token),
            "no token": environ(PATH.format(300)),
            "another scheme": environ(PATH.format(300), HTTP_AUTHORIZATION=f"Token {self.token}"),
            "host not allowed": environ(PATH.format(300), token=self.token, host="evil.example"),
            "serial not a number": environ(PATH.format("abc"), token=self.token),
            "serial too large": environ(PATH.format("99999999999999999999"), token=self.token),
            "serial with a leading zero": environ(PATH.format("0300"), token=self.token),
            "non-ASCII slug": environ(
                "/api/v1/municipalities/bent\u00f6n/tags/2026/300".encode().decode("latin-1"), token=self.token
            ),
            "trailing slash": environ(PATH.format(300) + "/", token=self.token),
            "HEAD": environ(PATH.format(300), method="HEAD", token=self.token),
            "POST": environ(PATH.format(300), method="POST", token=self.token),
            "query string": environ(PATH.format(300), query="fields=id", token=self.token),
            "control character in the query": environ(PATH.format(300), query="x=%00", token=self.token),
            "a session cookie beside the token": environ(
                PATH.format(300), token=self.token, HTTP_COOKIE="sessionid=nonsense"
            ),
        }
        for name, env in requests.items():
            with self.subTest(name):
                before = self.django.calls
                status, _, _ = self.assertSameAnswer(env)
                self.assertEqual(self.django.calls, before + 1, f"{name}: the lean path answered {status}")
                if name not in ("serial with a leading zero", "query string", "a session cookie beside the token"):
                    self.assertNotEqual(status, "200 OK")
                if name == "serial too large":
                    self.assertEqual(status, "404 Not Found")

    def test_an_inactive_user_and_a_lost_membership_are_refused_as_by_django(self):
        env = environ(PATH.format(300), token=self.token)
        self.assertEqual(self.assertSameAnswer(env)[0], "200 OK")  # the token is cached now
        Membership.objects.filter(user=self.clerk).delete()
        self.assertEqual(self.assertSameAnswer(env)[0], "404 Not Found")
        Membership.objects.create(user=self.clerk, municipality=self.benton, role="clerk")
        self.assertEqual(self.assertSameAnswer(env)[0], "200 OK")
        self.clerk.is_active = False
        self.clerk.save()
        self.assertEqual(self.assertSameAnswer(env)[0], "401 Unauthorized")

    def test_a_revoked_token_is_refused_at_once_in_the_process_that_revoked_it(self):
        token, raw = issue_api_token(acting_user=self.clerk, user=self.clerk, name="finder 2")
        env = environ(PATH.format(300), token=raw)
        self.assertEqual(self.assertSameAnswer(env)[0], "200 OK")  # remembered by both paths now
        with self.captureOnCommitCallbacks(execute=True):
            revoke_api_token(acting_user=self.clerk, token=token)
        self.assertEqual(self.assertSameAnswer(env)[0], "401 Unauthorized")
        event = AuditEvent.objects.get(action="api_token.revoke", object_id=str(token.pk))
        self.assertIsNone(event.before["revoked_at"])
        self.assertIsNotNone(event.after["revoked_at"])
        revoke_api_token(acting_user=self.clerk, token=token)  # again: nothing changes, nothing recorded
        self.assertEqual(AuditEvent.objects.filter(action="api_token.revoke", object_id=str(token.pk)).count(), 1)

    def test_a_token_revoked_by_another_process_is_refused_at_once(self):
        """Another process's revocation reaches this one through nothing but the database (CACHES
        is this process's own memory here, and both paths remember the token's user): the very
        next request is refused on both paths, the lean one still in one query (issue 27 §9)."""
        token, raw = issue_api_token(acting_user=self.clerk, user=self.clerk, name="finder 2")
        env = environ(PATH.format(300), token=raw)
        self.assertEqual(self.assertSameAnswer(env)[0], "200 OK")
        self.assertEqual(self.django.calls, 0)
        with CaptureQueriesContext(connection) as queries:
            self.assertEqual(call(self.lean, dict(env, **{"wsgi.input": io.BytesIO()}))[0], "200 OK")
        self.assertEqual(len(queries), 1, [q["sql"] for q in queries])
        ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())  # no signal reaches this process
        self.assertEqual(self.assertSameAnswer(env)[0], "401 Unauthorized")
        self.assertEqual(self.django.calls, 1)

    def test_a_user_deactivated_by_another_process_is_refused_at_once(self):
        token, raw = issue_api_token(acting_user=self.clerk, user=self.clerk, name="finder 2")
        env = environ(PATH.format(300), token=raw)
        self.assertEqual(self.assertSameAnswer(env)[0], "200 OK")
        type(self.clerk).objects.filter(pk=self.clerk.pk).update(is_active=False)  # no signal
        self.assertEqual(self.assertSameAnswer(env)[0], "401 Unauthorized")

    def test_on_postgresql_the_lookup_is_a_prepared_statement(self):
        if connection.vendor != "postgresql":
            self.skipTest("PostgreSQL's prepared statements")
        for _ in range(6):  # prepared from the fifth (settings.py: prepare_threshold)
            call(self.lean, environ(PATH.format(300), token=self.token))
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["%licensing_tag%"])
            self.assertEqual(cursor.fetchone()[0], 1)

    def test_the_request_signals_are_sent_as_djangos_handler_sends_them(self):
        heard = []

        def listener(sender, **kwargs):
            heard.append(sender)

        env = environ(PATH.format(300), token=self.token)
        request_started.connect(listener)
        request_finished.connect(listener)
        try:
            status, _, _ = call(self.lean, env)
        finally:
            request_started.disconnect(listener)
            request_finished.disconnect(listener)
        self.assertEqual((status, self.django.calls), ("200 OK", 0))
        self.assertEqual(heard, [WSGIHandler, WSGIHandler])

    @override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"), SECURE_HSTS_SECONDS=3600)
    def test_over_https_the_answer_carries_hsts_as_djangos(self):
        env = environ(PATH.format(300), token=self.token, HTTP_X_FORWARDED_PROTO="https")
        status, headers, _ = self.assertSameAnswer(env)
        self.assertEqual(status, "200 OK")
        self.assertIn(("Strict-Transport-Security", "max-age=3600; includeSubDomains; preload"), headers)
        self.assertEqual(self.django.calls, 0)  # answered by the lean path

    @override_settings(SECURE_SSL_REDIRECT=True)
    def test_plain_http_is_redirected_by_django_when_https_is_required(self):
        status, _, _ = self.assertSameAnswer(environ(PATH.format(300), token=self.token))
        self.assertEqual(status, "301 Moved Permanently")
        self.assertEqual(self.django.calls, 1)

    @override_settings(X_FRAME_OPTIONS="SAMEORIGIN", SECURE_REFERRER_POLICY="no-referrer")
    def test_the_headers_follow_the_settings(self):
        _, headers, _ = self.assertSameAnswer(environ(PATH.format(300), token=self.token))
        self.assertIn(("X-Frame-Options", "SAMEORIGIN"), headers)
        self.assertIn(("Referrer-Policy", "no-referrer"), headers)

    def test_the_lookup_is_answered_in_one_query_without_entering_django(self):
        env = environ(PATH.format(300), token=self.token)
        call(self.lean, env)  # the token's user and memberships are cached; the headers taken
        self.assertEqual(self.django.calls, 0)
        with CaptureQueriesContext(connection) as queries:
            status, _, body = call(self.lean, dict(env, **{"wsgi.input": io.BytesIO()}))
        self.assertEqual((status, self.django.calls), ("200 OK", 0))
        self.assertEqual(len(queries), 1, [q["sql"] for q in queries])
        self.assertIn("licensing_tag", queries[0]["sql"])
        self.assertNotIn(b"detail", body)

    def test_with_the_token_not_yet_cached_it_takes_three_queries_at_most(self):
        env = environ(PATH.format(300), token=self.token)
        call(self.lean, environ(PATH.format(300), token=self.outsider_token))  # headers taken, not this token
        with self.assertNumQueries(3):
            status, _, _ = call(self.lean, env)
        self.assertEqual(status, "200 OK")
        self.assertEqual(self.django.calls, 1)  # the outsider's 404 only

    def test_nothing_is_written_on_either_path(self):
        env = environ(PATH.format(300), token=self.token)
        for application in (django, self.lean):
            call(application, env)
            with CaptureQueriesContext(connection) as queries:
                call(application, dict(env, **{"wsgi.input": io.BytesIO()}))
            self.assertEqual([q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")], [])

    def test_the_path_it_recognises_is_the_api_operations(self):
        match = resolve(PATH.format(300))
        self.assertEqual(match.view_name, lean.VIEW_NAME)
        self.assertIsNotNone(lean.PATH.fullmatch(PATH.format(300)))

    def test_with_a_middleware_list_it_was_not_checked_against_django_answers_everything(self):
        from django.conf import settings

        with override_settings(MIDDLEWARE=[*settings.MIDDLEWARE, "django.middleware.gzip.GZipMiddleware"]):
            self.assertFalse(self.lean.on)
            status, _, _ = call(self.lean, environ(PATH.format(300), token=self.token))
        self.assertEqual((status, self.django.calls), ("200 OK", 1))
        self.assertTrue(self.lean.on)


@on(date(2026, 5, 20))
class LeanPathConnectionTests(TransactionTestCase):
    """The server's own request cycle: the signals close and replace connections as in production."""

    def setUp(self):
        Fixtures.build(self)
        set_fees(self.clerk, self.benton, BENTON_FEES)
        actions.receive_tag_lot(
            acting_user=self.clerk, municipality=self.benton, license_year=2026, first_serial=300, last_serial=300
        )
        actions.issue_license(self.dog, acting_user=self.clerk, payment={"method": "cash", "amount": "15.00"})
        self.token = issue_api_token(acting_user=self.clerk, user=self.clerk, name="finder")[1]
        self.django = CountingDjango()
        self.lean = lean.LeanTagLookup(self.django)

    def lookup(self):
        answered = {}
        result = self.lean(environ(PATH.format(300), token=self.token), lambda s, h, e=None: answered.update(s=s))
        try:
            return answered["s"], b"".join(result)
        finally:
            result.close()

    def test_a_connection_the_database_ended_is_replaced_and_the_lookup_answered(self):
        if connection.vendor != "postgresql":
            self.skipTest("a connection ended by the server: PostgreSQL's pg_terminate_backend")
        status, body = self.lookup()
        backend = connection.connection.info.backend_pid  # kept for the next request (CONN_MAX_AGE)
        self.assertEqual((status, self.django.calls, self.lookup()), ("200 OK", 0, (status, body)))
        self.assertEqual(connection.connection.info.backend_pid, backend)
        with psycopg.connect(**connection.get_connection_params()) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [backend])
        # No health check before the lookup's statement: it meets the ended connection, and Django's
        # handler answers on a new one; the next lookup is the lean path's again.
        with self.assertLogs("dogtag.api", "ERROR"):
            self.assertEqual(self.lookup(), (status, body))
        self.assertEqual(self.django.calls, 1)
        self.assertNotEqual(connection.connection.info.backend_pid, backend)
        self.assertEqual((self.lookup(), self.django.calls), ((status, body), 1))
