import os
import shutil
import tempfile
from datetime import datetime

import pytest

pytest_plugins = ["tests.instants"]  # --at INSTANT: the tests that read the date, at each instant

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs a loop in the test thread


def _allow_audit_truncate(sender, connection, **kwargs):
    """Transactional tests are emptied with TRUNCATE on PostgreSQL, which the audit trail refuses
    (audit/migrations/0003_no_truncate.py) unless the session says so; only tests say so."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET dogtag.allow_audit_truncate = 'on'")


def _travel_to_the_test_instant(config):
    """DOGTAG_TEST_NOW (an ISO instant with its offset, e.g. 2027-01-01T03:00:00+00:00) starts the
    whole run's clock there, ticking, so the tests that read the date can be run on a Sunday, a
    holiday or New Year's Eve in Chicago whatever day it really is; bin/test-days gives every instant
    at once with `--at` instead (tests/instants.py)."""
    value = os.environ.get("DOGTAG_TEST_NOW", "").strip()
    if not value:
        return
    try:
        instant = datetime.fromisoformat(value)
    except ValueError:
        raise pytest.UsageError(f"DOGTAG_TEST_NOW={value!r} is not an ISO date and time") from None
    if instant.tzinfo is None:
        raise pytest.UsageError(f"DOGTAG_TEST_NOW={value!r} needs its offset, e.g. -06:00 or Z")
    import time_machine

    config._dogtag_clock = time_machine.travel(instant, tick=True)
    config._dogtag_clock.start()


def pytest_report_header(config):
    if os.environ.get("DOGTAG_TEST_NOW"):
        return f"clock: the run starts at DOGTAG_TEST_NOW={os.environ['DOGTAG_TEST_NOW']}"


def pytest_collection_modifyitems(config, items):
    from tests.instants import name_in_module
    from tests.reads_the_date import MODULES, NOT_THE_DATE

    mark = pytest.mark.reads_the_date
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        name = name_in_module(item)
        if module in MODULES and not {name, name.split("::")[0]} & set(NOT_THE_DATE.get(module, {})):
            item.add_marker(mark)


def pytest_configure(config):
    from django.conf import settings

    config.addinivalue_line(
        "markers", "reads_the_date: reads today's date or the time (run at fixed instants by bin/test-days)"
    )
    _travel_to_the_test_instant(config)
    from django.db.backends.signals import connection_created

    connection_created.connect(_allow_audit_truncate)

    # Tests create many users; the production hasher would spend seconds on them.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SECURE_SSL_REDIRECT = False
    # Tests travel in time by days with one logged-in client; the idle timeout and the session's
    # whole life are tested with their production values in tests/accounts/test_login_security.py.
    settings.DOGTAG_SESSION_IDLE_MINUTES = 10 * 366 * 24 * 60
    settings.SESSION_COOKIE_AGE = 10 * 366 * 24 * 3600
    # Production names static files by their hash from a manifest that `dogtag serve` collects
    # (tests/ops/test_serve.py runs it so); the suite serves the sources through the finders
    # instead of collecting ~1 MB into var/static on every run.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.WHITENOISE_USE_FINDERS = True
    # Uploads and PDFs a test stores go to a folder of this run, not the developer's var/media.
    settings.MEDIA_ROOT = config._dogtag_media = tempfile.mkdtemp(prefix="dogtag-test-media-")
    # The concurrency tests queue many writers on SQLite's one lock; on a busy CI machine a
    # writer may wait longer than production's timeout for its turn.
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        settings.DATABASES["default"]["OPTIONS"]["timeout"] = 120
    # A read replica mirroring the default database (Django's TEST MIRROR), so the router's tests
    # (tests/test_replica.py) can route to it; nothing is routed there unless a test says so.
    if "replica" not in settings.DATABASES:
        settings.DATABASES["replica"] = {**settings.DATABASES["default"], "TEST": {"MIRROR": "default"}}
    # Background tasks run in the test's own process on commit; the tests of the worker
    # (tests/worker/) start `dogtag worker` for real and switch this off.
    settings.DOGTAG_TASKS_INLINE = True
    # Tests travel days ahead within one login; the idle limit is tested on its own
    # (tests/accounts/test_login_security.py sets it back to 30 minutes).
    settings.DOGTAG_SESSION_IDLE_MINUTES = 0
    settings.SESSION_COOKIE_AGE = 5 * 365 * 86400


def pytest_unconfigure(config):
    if getattr(config, "_dogtag_clock", None):
        config._dogtag_clock.stop()
    if getattr(config, "_dogtag_media", None):
        shutil.rmtree(config._dogtag_media, ignore_errors=True)


@pytest.fixture(autouse=True)
def _settings_restored():
    """Each test ends with the settings it began with (tests/settings_guard.py). Autouse, so it
    is torn down after the `settings` fixture a test asks for."""
    from tests.settings_guard import settings_restored

    with settings_restored():
        yield


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache: a token's user remembered by one test (with the
    memberships it had then) must not answer for the same token in the next, whose database
    was rolled back."""
    from django.core.cache import cache

    from dogtag.accounts import tokens

    cache.clear()
    tokens.forget_all()
    yield


@pytest.fixture(autouse=True)
def api_responses_match_the_openapi_document(monkeypatch):
    """Every API response any test receives must be one the OpenAPI document declares, with the
    body its schema describes (issue 14: the published document true to the responses)."""
    from django.test.client import Client

    from tests.api.openapi import violations_of

    found = []
    request = Client.request

    def checked(self, **environ):
        response = request(self, **environ)
        found.extend(violations_of(environ, response))
        return response

    monkeypatch.setattr(Client, "request", checked)
    yield
    assert not found, "API responses the OpenAPI document does not describe:\n" + "\n".join(found)
