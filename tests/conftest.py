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
    # Background tasks run in the test's own process on commit; the tests of the worker
    # (tests/worker/) start `dogtag worker` for real and switch this off.
    settings.DOGTAG_TASKS_INLINE = True
    # Media (PDFs, uploads) in a folder of this test process's own: parallel runs never share names.
    import tempfile

    settings.MEDIA_ROOT = tempfile.mkdtemp(prefix="dogtag-test-media-")
