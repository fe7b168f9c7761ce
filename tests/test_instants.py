"""`--at INSTANT` (tests/instants.py): a Django test class collected at an instant runs its class
set-up and each of its tests with the clock started there, and stops the clock after. The list of
the tests that read the date (tests/reads_the_date.py) names tests that exist, and its exceptions
are left out of the date-proof run only."""

import importlib
import os
import unittest
from datetime import date, datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import time_machine
from django.test import SimpleTestCase
from django.utils import timezone

from tests import conftest
from tests.instants import _at, label, name_in_module, own_clock
from tests.reads_the_date import FROZEN, MODULES, NOT_THE_DATE

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


class Item(SimpleNamespace):
    """What the marking reads of a collected test, and the marks it was given."""

    def add_marker(self, mark):
        self.marks.append(mark.name)


class ReadsTheDateListTests(unittest.TestCase):
    def test_each_test_not_reading_the_date_is_a_test_of_a_listed_module_with_its_reason(self):
        self.assertLessEqual(set(NOT_THE_DATE), MODULES)
        for module, tests in NOT_THE_DATE.items():
            found = importlib.import_module(module.removesuffix(".py").replace("/", "."))
            for name, why in tests.items():
                *cls, test = name.split("::")
                owner = getattr(found, cls[0]) if cls else found
                if why == FROZEN:  # a whole class, frozen by its own clock
                    owner, clock = getattr(found, name, None), own_clock(getattr(found, name, object))
                    self.assertTrue(isinstance(owner, type) and issubclass(owner, unittest.TestCase), name)
                    self.assertIs(getattr(clock, "tick", None), False, f"{module}::{name} is not frozen by `on`")
                    continue
                self.assertTrue(test.startswith("test_") and callable(getattr(owner, test, None)), f"{module}::{name}")
                self.assertGreater(len(why.split()), 5, f"{module}::{name}: say why it does not read the date")

    def test_a_named_test_is_not_marked_at_any_instant_and_its_neighbours_are(self):
        module = "tests/test_date_format.py"
        (name,) = NOT_THE_DATE[module]
        cls, test = name.split("::")
        at = _at(type(cls, (SimpleTestCase,), {"__test__": False}), NEW_YEARS_EVE)
        items = [Item(nodeid=f"{module}::{at.__name__}::{t}", name=t, cls=at, marks=[]) for t in (test, "test_another")]
        items.append(Item(nodeid="tests/test_instants.py::test_x[at 1]", name="test_x[at 1]", originalname="test_x",
                          cls=None, marks=[]))  # fmt: skip
        # A class named whole: none of its tests is marked.
        frozen = _at(type("StatusTests", (SimpleTestCase,), {"__test__": False}), NEW_YEARS_EVE)
        items.append(Item(nodeid=f"tests/reports/test_status.py::{frozen.__name__}::test_y", name="test_y",
                          cls=frozen, marks=[]))  # fmt: skip
        self.assertEqual(NOT_THE_DATE["tests/reports/test_status.py"], {"StatusTests": FROZEN})
        self.assertEqual(name_in_module(items[0]), name)
        self.assertEqual(name_in_module(items[2]), "test_x")
        conftest.pytest_collection_modifyitems(None, items)
        self.assertEqual([i.marks for i in items], [[], ["reads_the_date"], [], []])
