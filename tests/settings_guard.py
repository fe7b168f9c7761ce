"""Each test ends with the Django settings it began with (tests/conftest.py wraps every test).

An @override_settings around a test that also sets `settings.X` through pytest-django's fixture
is undone out of order: the decorator restores the settings first, then the fixture puts back
what it saw when it began, the decorator's, and they stay for every later test. A
DOGTAG_TASKS_INLINE=False left so by tests/worker/test_health.py made the outbox's inline task
a silent queue row in a test that ran minutes later."""

from contextlib import contextmanager

import pytest

ADVICE = "use either @override_settings or the `settings` fixture in one test, not both"


def overridden_names(settings_now, settings_before) -> list[str]:
    names, holder = set(), settings_now
    while holder is not settings_before and hasattr(holder, "default_settings"):
        names |= {k for k in vars(holder) if k.isupper()} | set(getattr(holder, "_deleted", ()))
        holder = holder.default_settings
    return sorted(names)


@contextmanager
def settings_restored():
    """Fails (and puts the settings back, so the next test starts clean) if the body leaves
    Django's settings other than it found them."""
    from django.conf import settings

    before = settings._wrapped
    yield
    after = settings._wrapped
    if after is not before:
        settings._wrapped = before
        names = ", ".join(overridden_names(after, before))
        pytest.fail(f"this test left Django settings overridden: {names} ({ADVICE})", pytrace=False)
