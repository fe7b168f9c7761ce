"""Nobody can lock a clerk out of her counter (issue 27, finding 2): wrong passwords lock the
username and address together for a cool-off; the username alone only after many more, for
longer; both lift by themselves. The clock is moved with time_machine."""

from datetime import datetime, timedelta

import time_machine
from django.test import override_settings

from tests.base import CHICAGO, PASSWORD, BaseTestCase

START = datetime(2026, 12, 1, 9, 0, tzinfo=CHICAGO)
ATTACKER, OFFICE = "198.51.100.66", "203.0.113.10"


@override_settings(
    AXES_FAILURE_LIMIT=5,
    AXES_COOLOFF_MINUTES=15,
    DOGTAG_LOCKOUT_USERNAME_LIMIT=30,
    DOGTAG_LOCKOUT_USERNAME_MINUTES=60,
    AXES_COOLOFF_TIME=timedelta(minutes=60),
)
class LockoutTests(BaseTestCase):
    def log_in(self, address, password=PASSWORD, username="alice"):
        client = self.client_class()
        return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=address)

    def test_an_attacker_elsewhere_cannot_lock_a_clerk_out_at_her_office(self):
        with time_machine.travel(START, tick=False):
            for _ in range(10):
                r = self.log_in(ATTACKER, "wrong password")
            self.assertEqual(r.status_code, 429)  # the attacker's own pair is locked
            self.assertEqual(self.log_in(ATTACKER).status_code, 429)
            self.assertEqual(self.log_in(OFFICE).status_code, 302)  # the clerk logs in at her counter

    def test_a_colleague_behind_the_same_address_is_not_locked_by_anothers_typos(self):
        with time_machine.travel(START, tick=False):
            for _ in range(6):
                self.log_in(OFFICE, "wrong password", username="walter")
            self.assertEqual(self.log_in(OFFICE, username="walter").status_code, 429)
            self.assertEqual(self.log_in(OFFICE).status_code, 302)

    def test_the_pair_lock_lifts_after_its_cool_off(self):
        with time_machine.travel(START, tick=False) as clock:
            for _ in range(5):
                self.log_in(OFFICE, "wrong password")
            self.assertEqual(self.log_in(OFFICE).status_code, 429)
            clock.move_to(START + timedelta(minutes=14))
            self.assertEqual(self.log_in(OFFICE).status_code, 429)
            clock.move_to(START + timedelta(minutes=14 + 16))  # an attempt while locked starts it again
            self.assertEqual(self.log_in(OFFICE).status_code, 302)

    def test_many_addresses_guessing_one_username_lock_it_everywhere_for_longer(self):
        with time_machine.travel(START, tick=False) as clock:
            for i in range(30):
                self.log_in(f"192.0.2.{i + 1}", "wrong password")
            self.assertEqual(self.log_in(OFFICE).status_code, 429)
            clock.move_to(START + timedelta(minutes=30))
            self.assertEqual(self.log_in(OFFICE).status_code, 429)
            clock.move_to(START + timedelta(minutes=30 + 61))
            self.assertEqual(self.log_in(OFFICE).status_code, 302)

    def test_the_lock_page_says_the_pairs_cool_off_in_words(self):
        with time_machine.travel(START, tick=False):
            for _ in range(5):
                self.log_in(OFFICE, "wrong password")
            r = self.log_in(OFFICE)
        self.assertEqual(r.status_code, 429)
        text = r.content.decode()
        self.assertIn("15 minutes", text)
        self.assertIn("from this address", text)
        self.assertNotRegex(text, r"\bPT\d")  # no ISO 8601 duration (PT15M); a CSRF token may hold "PT"
        self.assertNotIn("an hour", text)

    def test_the_lock_page_says_the_username_wide_cool_off_in_words(self):
        with time_machine.travel(START, tick=False):
            for i in range(30):
                self.log_in(f"192.0.2.{i + 1}", "wrong password")
            r = self.log_in(OFFICE)
        self.assertEqual(r.status_code, 429)
        text = r.content.decode()
        self.assertIn("an hour", text)
        self.assertIn("from every address", text)
        self.assertNotIn("from this address", text)
        self.assertNotRegex(text, r"\bPT\d")

    def test_the_clerks_login_resets_only_her_own_pair(self):
        """Her success must not wipe the attacker's pair lock or the username-wide count, or the
        attacker's count would restart at each of her logins."""
        with time_machine.travel(START, tick=False):
            for _ in range(5):
                self.log_in(ATTACKER, "wrong password")
            for i in range(20):
                self.log_in(f"192.0.2.{i + 1}", "wrong password")
            self.log_in(OFFICE, "wrong password")  # her own typo, then the right password
            self.assertEqual(self.log_in(OFFICE).status_code, 302)
            self.assertEqual(self.log_in(ATTACKER).status_code, 429)  # the attacker's pair stays locked
            for i in range(5):  # 5 + 20 + 5 = 30 failures by the username: locked everywhere
                self.log_in(f"192.0.2.{100 + i}", "wrong password")
            self.assertEqual(self.log_in(OFFICE).status_code, 429)
