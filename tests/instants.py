"""`pytest --at INSTANT --at INSTANT ...`: each test that reads the date (tests/reads_the_date.py)
runs once at every instant given (without `--at`, once at ORDINARY_INSTANT), in one pytest session,
so the database, the URLconf and Chromium are set up once rather than once per instant
(bin/test-days). A test function is parametrised by
the instant and starts there; a Django test class is collected once per instant as a subclass whose
clock starts there in its class set-up (before setUpTestData) and ticks on through its tests. A
class or test that freezes its own date (tests/base.py `on`) still runs at that date, inside."""

from __future__ import annotations

import os
import unittest
from datetime import datetime

import pytest


def pytest_addoption(parser):
    parser.addoption(
        "--at",
        action="append",
        default=[],
        metavar="INSTANT",
        help="run each test that reads the date at this ISO instant with its offset (repeatable)",
    )


# The ordinary run (no `--at`, no DOGTAG_TEST_NOW): the tests that read the date start at this one
# instant, an ordinary Wednesday with no Sunday, holiday or year's end near its deadlines, so the
# suite passes whatever day it runs on.
ORDINARY_INSTANT = datetime.fromisoformat("2027-06-09T10:00:00-05:00")


def instants(config) -> list[datetime]:
    if not config.getoption("at") and not os.environ.get("DOGTAG_TEST_NOW", "").strip():
        return [ORDINARY_INSTANT]
    found = []
    for value in config.getoption("at"):
        try:
            instant = datetime.fromisoformat(value.strip())
        except ValueError:
            raise pytest.UsageError(f"--at {value!r} is not an ISO date and time") from None
        if instant.tzinfo is None:
            raise pytest.UsageError(f"--at {value!r} needs its offset, e.g. -06:00 or Z")
        found.append(instant)
    return found


def label(instant: datetime) -> str:
    """2027-01-03T10:00:00-06:00 → 2027-01-03T1000-0600 (no colon: it would read as a node separator)."""
    return instant.strftime("%Y-%m-%dT%H%M%z")


def _reads_the_date(path) -> bool:
    from tests.reads_the_date import MODULES

    return any(str(path).endswith("/" + module) for module in MODULES)


def _travel(instant: datetime):
    import time_machine

    return time_machine.travel(instant, tick=True)


@pytest.fixture(autouse=True)
def _dogtag_instant(request):
    """Started before the test's other function fixtures (autouse, from the first plugin), so the
    records a fixture dates from today are dated at the instant."""
    instant = getattr(request, "param", None)
    if instant is None:
        yield
        return
    with _travel(instant):
        yield


def pytest_generate_tests(metafunc):
    at = instants(metafunc.config)
    if at and metafunc.cls is None and _reads_the_date(metafunc.definition.path):
        metafunc.parametrize("_dogtag_instant", at, indirect=True, ids=[f"at {label(i)}" for i in at])


def _at(cls: type[unittest.TestCase], instant: datetime) -> type[unittest.TestCase]:
    name = f"{cls.__name__}[at {label(instant)}]"

    @classmethod
    def setUpClass(sub):
        clock = _travel(instant)
        clock.start()
        sub.addClassCleanup(clock.stop)  # the first cleanup added is the last run
        super(subclass, sub).setUpClass()

    subclass = type(name, (cls,), {"setUpClass": setUpClass, "__module__": cls.__module__, "_dogtag_at": instant})
    subclass.__qualname__ = name
    return subclass


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    at = instants(collector.config)
    if not (at and isinstance(obj, type) and issubclass(obj, unittest.TestCase) and obj.__module__ != "unittest"):
        return None
    if not isinstance(collector, pytest.Module) or not _reads_the_date(collector.path):
        return None
    if obj.__module__ != collector.obj.__name__:  # imported from elsewhere: collected where it is defined
        return None
    if not unittest.TestLoader().getTestCaseNames(obj):
        return None
    from _pytest.unittest import UnitTestCase

    items = []
    for instant in at:
        subclass = _at(obj, instant)
        setattr(collector.obj, subclass.__name__, subclass)  # where pytest looks the class up by its name
        items.append(UnitTestCase.from_parent(collector, name=subclass.__name__, obj=subclass))
    return items


def instant_of(item) -> datetime | None:
    """The instant a collected test runs at (`--at`), or None."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "_dogtag_instant" in callspec.params:
        return callspec.params["_dogtag_instant"]
    return getattr(getattr(item, "cls", None), "_dogtag_at", None)


def name_in_module(item) -> str:
    """ "Class::test" or "test", as tests/reads_the_date.py NOT_THE_DATE names it: without the
    instant or any other parameter."""
    name = getattr(item, "originalname", None) or item.name
    cls = getattr(item, "cls", None)
    return f"{cls.__name__.split('[at ', 1)[0]}::{name}" if cls is not None else name


def own_clock(cls: type[unittest.TestCase]):
    """The time_machine travel a test class was decorated with (tests/base.py `on`), or None."""
    import time_machine

    set_up = cls.__dict__.get("setUpClass")
    cells = getattr(getattr(set_up, "__func__", None), "__closure__", None) or ()
    return next((c.cell_contents for c in cells if isinstance(c.cell_contents, time_machine.travel)), None)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """With `-n N --dist loadgroup` (bin/test-days), a module's tests at one instant go to one
    worker together: a class's data is set up once per instant, not once on each worker, and the
    instants are shared out between the workers."""
    for item in items:
        instant = instant_of(item)
        if instant is not None:
            item.add_marker(pytest.mark.xdist_group(f"{item.nodeid.split('::', 1)[0]}@{label(instant)}"))
