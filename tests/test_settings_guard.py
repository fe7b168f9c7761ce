"""The guard every test runs in (tests/settings_guard.py) catches settings a test leaves behind."""

import pytest
from django.conf import settings
from django.test import override_settings

from tests.settings_guard import settings_restored


def test_a_decorator_undone_before_the_settings_fixture_is_reported_and_put_back():
    before = settings._wrapped
    with pytest.raises(pytest.fail.Exception, match="left Django settings overridden: DOGTAG_TASKS_INLINE"):
        with settings_restored():
            decorator = override_settings(DOGTAG_TASKS_INLINE=False)  # @override_settings on the test
            decorator.enable()
            fixture = override_settings(DOGTAG_WORKER_STALE_SECONDS=180)  # settings.X = ... in its body
            fixture.enable()
            decorator.disable()  # the test returns: its decorator is undone first
            fixture.disable()  # then the fixture's teardown puts back the decorator's settings
            assert settings.DOGTAG_TASKS_INLINE is False
    assert settings._wrapped is before and settings.DOGTAG_TASKS_INLINE is True


def test_overrides_undone_in_order_pass():
    with settings_restored():
        with override_settings(DOGTAG_TASKS_INLINE=False), override_settings(DOGTAG_WORKER_STALE_SECONDS=180):
            assert settings.DOGTAG_TASKS_INLINE is False
    assert settings.DOGTAG_TASKS_INLINE is True
