import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs a loop in the test thread


def pytest_configure(config):
    from django.conf import settings

    # Tests create many users; the production hasher would spend seconds on them.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SECURE_SSL_REDIRECT = False
    # The concurrency tests queue many writers on SQLite's one lock; on a busy CI machine a
    # writer may wait longer than production's timeout for its turn.
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        settings.DATABASES["default"]["OPTIONS"]["timeout"] = 120


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache: a token's user remembered by one test (with the
    memberships it had then) must not answer for the same token in the next, whose database
    was rolled back."""
    from django.core.cache import cache

    cache.clear()
    yield
