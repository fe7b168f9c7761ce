"""Logging in (issue 14, finding 1): a lockout after repeated wrong passwords that only an
administrator lifts, an idle timeout, and a second factor required of administrators."""

import io
import re
from datetime import datetime, timedelta
from html import unescape

import time_machine
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from dogtag.accounts.models import Membership, Role
from dogtag.audit.models import AuditEvent
from dogtag.registry.management.commands.demo import DEMO_ADMIN_TOTP_KEY
from tests.base import CHICAGO, PASSWORD, BaseTestCase, make_user
from tests.test_settings import PRODUCTION, setting

VERIFY = "/account/two-factor/verify/?next=%2F"
START = datetime(2026, 12, 1, 9, 0, tzinfo=CHICAGO)


def code(key_hex):
    return f"{totp(bytes.fromhex(key_hex), t0=0, step=30, digits=6):06d}"


def log_in(client, username, password=PASSWORD):
    return client.post("/login/", {"username": username, "password": password})


class LockoutTests(BaseTestCase):
    @override_settings(AXES_FAILURE_LIMIT=5)
    def test_five_wrong_passwords_lock_the_account_until_an_administrator_unlocks_it(self):
        for _ in range(5):
            r = log_in(self.client, "alice", "wrong password")
        self.assertEqual(r.status_code, 429)
        r = log_in(self.client, "alice")  # the right password, refused
        self.assertContains(r, "This account is locked", status_code=429)
        self.assertNotIn("_auth_user_id", self.client.session)
        self.assertEqual(self.client.get("/m/benton/").status_code, 302)

        # The administrator sees the lockout in the admin and lifts it.
        admin = get_user_model().objects.create_superuser("root", password=PASSWORD)
        other = self.client_class()
        other.force_login(admin)
        self.client, mine = other, self.client
        self.login(admin)  # verified second factor, as after the verify page
        (attempt,) = AccessAttempt.objects.filter(username="alice")
        self.assertGreaterEqual(attempt.failures_since_start, 5)
        self.assertContains(self.client.get("/admin/axes/accessattempt/"), "alice")
        r = self.client.post(f"/admin/axes/accessattempt/{attempt.pk}/delete/", {"post": "yes"})
        self.assertEqual(r.status_code, 302)
        self.client = mine

        r = log_in(self.client, "alice")
        self.assertEqual(r.status_code, 302)
        self.assertEqual(self.client.get("/m/benton/").status_code, 200)

    @override_settings(AXES_FAILURE_LIMIT=5)
    def test_sixty_wrong_passwords_then_the_right_one_does_not_log_in(self):
        for _ in range(60):
            log_in(self.client, "alice", "wrong password")
        self.assertEqual(log_in(self.client, "alice").status_code, 429)
        self.assertNotIn("_auth_user_id", self.client.session)


@override_settings(DOGTAG_SESSION_IDLE_MINUTES=30)
class IdleTimeoutTests(BaseTestCase):
    def test_a_staff_session_ends_after_thirty_idle_minutes(self):
        with time_machine.travel(START, tick=False) as clock:
            self.assertEqual(log_in(self.client, "alice").status_code, 302)
            self.assertEqual(self.client.get("/m/benton/").status_code, 200)
            clock.shift(timedelta(minutes=29))
            self.assertEqual(self.client.get("/m/benton/").status_code, 200)  # in use: the clock restarts
            clock.shift(timedelta(minutes=29))
            self.assertEqual(self.client.get("/m/benton/").status_code, 200)
            clock.shift(timedelta(minutes=31))
            r = self.client.get("/m/benton/")
            self.assertRedirects(r, "/login/?next=/m/benton/", fetch_redirect_response=False)
            self.assertNotIn("_auth_user_id", self.client.session)
            self.assertContains(self.client.get("/login/"), "logged out after a time without use")

    def test_the_api_says_so_in_json(self):
        with time_machine.travel(START, tick=False) as clock:
            log_in(self.client, "alice")
            self.client.get("/m/benton/")
            clock.shift(timedelta(minutes=31))
            r = self.client.get("/api/v1/people")
            self.assertEqual(r.status_code, 401)
            self.assertIn("log in again", r.json()["detail"])


class SecondFactorTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.administrator = make_user("ada", (cls.benton, Role.ADMINISTRATOR))

    def enrol(self, client, expect_next="/"):
        r = client.get("/account/two-factor/")
        self.assertContains(r, "otpauth://totp/")
        self.assertContains(r, "<svg")
        key = client.session["dogtag_totp_setup_key"]
        secret = re.search(r"<code>([A-Z2-7]{32})</code>", r.content.decode()).group(1)
        self.assertIn(f"secret={secret}", unescape(r.content.decode()))
        r = client.post("/account/two-factor/", {"token": "000000" if code(key) != "000000" else "111111"})
        self.assertContains(r, "That code does not match")
        r = client.post("/account/two-factor/", {"token": code(key), "next": expect_next})
        self.assertRedirects(r, expect_next, fetch_redirect_response=False)
        return key

    def test_an_administrator_must_enrol_before_reaching_any_page(self):
        with time_machine.travel(START, tick=False) as clock:
            self.assertEqual(log_in(self.client, "ada").status_code, 302)
            r = self.client.get("/m/benton/")
            self.assertRedirects(r, "/account/two-factor/?next=%2Fm%2Fbenton%2F", fetch_redirect_response=False)
            r = self.client.get("/api/v1/people")
            self.assertEqual((r.status_code, r.json()["detail"]), (403, "Set up a second factor first."))
            key = self.enrol(self.client, "/m/benton/")
            self.assertEqual(self.client.get("/m/benton/").status_code, 200)
            self.assertEqual(TOTPDevice.objects.get(user=self.administrator).confirmed, True)
            event = AuditEvent.objects.get(action="second_factor.enrol")
            self.assertNotIn(key, str(event.after))  # the secret is not in the audit trail

            # The next login asks for the code after the password; a wrong one is refused.
            self.client.post("/logout/")
            clock.shift(timedelta(minutes=1))
            log_in(self.client, "ada")
            self.assertRedirects(self.client.get("/"), VERIFY, fetch_redirect_response=False)
            wrong = "000000" if code(key) != "000000" else "111111"
            self.assertContains(self.client.post("/account/two-factor/verify/", {"token": wrong}), "does not match")
            self.assertEqual(self.client.get("/m/benton/").status_code, 302)
            clock.shift(timedelta(seconds=30))  # past django-otp's throttle, and a new code
            r = self.client.post("/account/two-factor/verify/", {"token": code(key), "next": "/"})
            self.assertRedirects(r, "/", fetch_redirect_response=False)
            self.assertEqual(self.client.get("/m/benton/").status_code, 200)
            self.assertEqual(
                list(
                    AuditEvent.objects.filter(action__startswith="second_factor").order_by("pk").values_list("action")
                ),
                [("second_factor.enrol",), ("second_factor.refused",), ("second_factor.verify",)],
            )

    def test_a_code_is_not_accepted_twice(self):
        with time_machine.travel(START, tick=False) as clock:
            log_in(self.client, "ada")
            key = self.enrol(self.client)
            self.client.post("/logout/")
            log_in(self.client, "ada")
            clock.shift(timedelta(seconds=5))  # the same 30-second step as the enrolment's code
            self.assertContains(self.client.post("/account/two-factor/verify/", {"token": code(key)}), "does not match")

    def test_a_clerk_may_choose_a_second_factor_and_is_then_asked_for_it(self):
        with time_machine.travel(START, tick=False) as clock:
            log_in(self.client, "alice")
            self.assertEqual(self.client.get("/m/benton/").status_code, 200)  # not required of a clerk
            self.assertContains(self.client.get("/account/two-factor/"), "You may give a one-time code")
            key = self.enrol(self.client)
            self.client.post("/logout/")
            clock.shift(timedelta(minutes=1))
            log_in(self.client, "alice")
            self.assertEqual(self.client.get("/m/benton/").status_code, 302)
            self.client.post("/account/two-factor/verify/", {"token": code(key)})
            self.assertEqual(self.client.get("/m/benton/").status_code, 200)

    def test_the_demo_admin_logs_in_with_the_key_demo_prints(self):
        out = io.StringIO()
        call_command("demo", stdout=out)
        self.assertIn("MRXWO5DBM4QGIZLNN4QGCZDNNFXCA5DP", out.getvalue())
        log_in(self.client, "admin", "dogtag-demo")
        self.assertRedirects(self.client.get("/"), VERIFY, fetch_redirect_response=False)
        self.client.post("/account/two-factor/verify/", {"token": code(DEMO_ADMIN_TOTP_KEY)})
        self.assertEqual(self.client.get("/m/benton/").status_code, 200)
        self.assertEqual(self.client.get("/admin/").status_code, 200)

    def test_the_admin_site_also_needs_the_second_factor(self):
        Membership.objects.filter(user=self.administrator).delete()
        self.administrator.is_staff = True
        self.administrator.save()
        log_in(self.client, "ada")
        r = self.client.get("/admin/")
        self.assertRedirects(r, "/account/two-factor/?next=%2Fadmin%2F", fetch_redirect_response=False)


def test_a_session_lives_a_working_day_at_most_and_thirty_idle_minutes_by_default():
    """Finding 1: "Sessions last 14 days, no idle timeout" — the defaults in a fresh process."""
    assert setting("SESSION_COOKIE_AGE", **PRODUCTION).stdout.strip() == str(12 * 3600)
    assert setting("DOGTAG_SESSION_IDLE_MINUTES", **PRODUCTION).stdout.strip() == "30"
    assert setting("AXES_FAILURE_LIMIT", **PRODUCTION).stdout.strip() == "5"
