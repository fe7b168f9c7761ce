"""`--at INSTANT` (tests/instants.py): a Django test class collected at an instant runs its class
set-up and each of its tests with the clock started there, and stops the clock after."""

import os
import unittest
from datetime import date, datetime
from zoneinfo import ZoneInfo

import time_machine
from django.test import SimpleTestCase
from django.utils import timezone

from tests.instants import _at, label

CHICAGO = ZoneInfo("America/Chicago")
NEW_YEARS_EVE = datetime(2026, 12, 31, 23, 30, tzinfo=CHICAGO)
ELSEWHEN = datetime(2030, 6, 1, 12, 0, tzinfo=CHICAGO)


class Seen(SimpleTestCase):
    __test__ = False  # run only through _at, by the test below
    seen: list

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.seen = [("class", timezone.localdate(timezone=CHICAGO), date.today())]

    def test_one(self):
        self.seen.append(("test", timezone.localdate(timezone=CHICAGO), timezone.now()))


class InstantsTests(unittest.TestCase):
    @time_machine.travel(ELSEWHEN, tick=False)
    def test_a_class_at_an_instant_sets_up_and_runs_there_and_the_clock_comes_back(self):
        subclass = _at(Seen, NEW_YEARS_EVE)
        self.assertEqual(subclass.__name__, "Seen[at 2026-12-31T2330-0600]")
        subclass.__test__ = True
        with open(os.devnull, "w") as quiet:
            result = unittest.TextTestRunner(stream=quiet).run(
                unittest.defaultTestLoader.loadTestsFromTestCase(subclass)
            )
        self.assertTrue(result.wasSuccessful(), result.errors + result.failures)
        (kind, day, _), (kind2, day2, now) = subclass.seen
        self.assertEqual((kind, day, kind2, day2), ("class", date(2026, 12, 31), "test", date(2026, 12, 31)))
        self.assertLess(abs((now - NEW_YEARS_EVE).total_seconds()), 60)
        self.assertEqual(timezone.now(), ELSEWHEN)  # the instant's clock stopped with the class

    def test_the_label_has_no_colon(self):
        self.assertEqual(label(NEW_YEARS_EVE), "2026-12-31T2330-0600")
