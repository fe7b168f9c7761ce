import gzip
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from dogtag.lib.env import ImproperlyConfiguredEnv, envbool, envint, envlist


def test_envbool_reads_the_usual_spellings(monkeypatch):
    monkeypatch.setenv("X_FLAG", "yes")
    assert envbool("X_FLAG", False) is True
    monkeypatch.setenv("X_FLAG", "0")
    assert envbool("X_FLAG", True) is False
    monkeypatch.delenv("X_FLAG")
    assert envbool("X_FLAG", True) is True


def test_a_malformed_value_names_the_variable(monkeypatch):
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ImproperlyConfiguredEnv, match="X_FLAG='maybe'"):
        envbool("X_FLAG", False)
    monkeypatch.setenv("X_PORT", "eighty")
    with pytest.raises(ImproperlyConfiguredEnv, match="X_PORT"):
        envint("X_PORT", 80)


def test_envlist_splits_on_commas(monkeypatch):
    monkeypatch.setenv("X_HOSTS", "a.example, b.example,")
    assert envlist("X_HOSTS", "") == ["a.example", "b.example"]


def test_a_secret_can_come_from_a_file(monkeypatch, tmp_path):
    from dogtag.lib.env import envstr

    (tmp_path / "key").write_text("s3cret\n")
    monkeypatch.setenv("X_KEY_FILE", str(tmp_path / "key"))
    assert envstr("X_KEY") == "s3cret"


def dogtag(*args, **env):
    clean = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL")}
    return subprocess.run(
        [sys.executable, "-m", "dogtag", *args], capture_output=True, text=True, env={**clean, **env}, timeout=60
    )


def test_the_deploy_check_is_clean_in_production():
    r = dogtag(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY="Zq8v3n-Kp2x9LmR7tW4yB6cD1fH5jN0sQ8uE3gA7iO2kV9zX4bM6pC1rT5wY8eU0",
        ALLOWED_HOSTS="dogs.example.gov",
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues" in r.stdout


def test_the_deploy_check_flags_a_missing_secret():
    r = dogtag("check", "--deploy", "--fail-level", "WARNING", DEBUG="false", SECRET_KEY="")
    assert r.returncode != 0
    assert "SECRET_KEY" in r.stderr + r.stdout


def test_the_embedded_database_is_sqlite_in_wal_mode_with_a_busy_timeout(tmp_path):
    code = (
        "from django.db import connection as c; cur = c.cursor(); "
        "print(c.vendor, cur.execute('PRAGMA journal_mode').fetchone()[0], "
        "cur.execute('PRAGMA busy_timeout').fetchone()[0])"
    )
    r = dogtag("shell", "--no-imports", "-c", code, DOGTAG_VAR_DIR=str(tmp_path))
    assert r.stdout.split() == ["sqlite", "wal", "20000"], r.stderr


PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "Zq8v3n-Kp2x9LmR7tW4yB6cD1fH5jN0sQ8uE3gA7iO2kV9zX4bM6pC1rT5wY8eU0",
    "DOGTAG_BASE_URL": "https://dogs.example.gov",
}


def setting(name, **env):
    """The value of one setting in a fresh process with these environment variables."""
    code = f"from django.conf import settings; print(settings.{name})"
    return dogtag("shell", "--no-imports", "-c", code, **env)


def test_production_refuses_to_start_without_a_secret_key():
    for key in ("", "django-insecure-development-key-set-SECRET_KEY", "django-insecure-abc"):
        r = setting("SECRET_KEY", **{**PRODUCTION, "SECRET_KEY": key})
        assert r.returncode != 0
        assert "SECRET_KEY is not set (or is the development key) and DEBUG is false" in r.stderr
        assert "Traceback" not in r.stderr  # a message, not a stack


def test_production_refuses_a_key_djangos_deploy_check_calls_weak():
    for key in ("short", "a" * 60, "abcd" * 20):
        r = setting("SECRET_KEY", **{**PRODUCTION, "SECRET_KEY": key})
        assert r.returncode != 0, key
        assert "SECRET_KEY is weak" in r.stderr
        assert "Traceback" not in r.stderr


def test_development_runs_on_the_development_key():
    r = setting("SECRET_KEY", DEBUG="true", SECRET_KEY="")
    assert r.returncode == 0 and r.stdout.strip() == "django-insecure-development-key-set-SECRET_KEY"


def test_production_refuses_to_start_without_a_base_url():
    r = setting("DOGTAG_BASE_URL", **{**PRODUCTION, "DOGTAG_BASE_URL": ""})
    assert r.returncode != 0 and "DOGTAG_BASE_URL is not set and DEBUG is false" in r.stderr
    for bad in ("dogs.example.gov", "ftp://dogs.example.gov", "https://dogs.example.gov/?x=1"):
        r = setting("DOGTAG_BASE_URL", **{**PRODUCTION, "DOGTAG_BASE_URL": bad})
        assert r.returncode != 0 and "expected http(s)://host" in r.stderr, bad


def test_the_base_url_is_the_one_configured_and_localhost_only_in_development():
    assert setting("DOGTAG_BASE_URL", **{**PRODUCTION, "DOGTAG_BASE_URL": "https://d.example.gov/"}).stdout.strip() == (
        "https://d.example.gov"
    )
    assert setting("DOGTAG_BASE_URL", DEBUG="true", DOGTAG_BASE_URL="", PORT="8080").stdout.strip() == (
        "http://127.0.0.1:8080"
    )


def test_mailed_links_start_with_the_base_url(settings):
    from dogtag.lib.links import renewal_url, unsubscribe_url

    settings.DOGTAG_BASE_URL = "https://dogs.example-county.gov"
    assert renewal_url(1, 2027).startswith("https://dogs.example-county.gov/")
    assert unsubscribe_url(1).startswith("https://dogs.example-county.gov/")


def test_static_files_are_hashed_in_production_and_served_as_is_in_development():
    code = "from django.conf import settings; print(settings.STORAGES['staticfiles']['BACKEND'])"
    production = dogtag("shell", "--no-imports", "-c", code, **PRODUCTION).stdout.strip()
    assert production == "dogtag.ops.static.StaticFilesStorage"
    assert dogtag("shell", "--no-imports", "-c", code, DEBUG="true").stdout.strip() == (
        "django.contrib.staticfiles.storage.StaticFilesStorage"
    )
    from whitenoise.storage import CompressedManifestStaticFilesStorage

    from dogtag.ops.static import StaticFilesStorage

    assert issubclass(StaticFilesStorage, CompressedManifestStaticFilesStorage)


def test_the_media_storage_is_chosen_by_environment_variables():
    code = (
        "from django.core.files.storage import default_storage as s; s._setup(); "
        "w = s._wrapped; print(type(w).__module__ + '.' + type(w).__name__, getattr(w, 'location', ''))"
    )
    r = dogtag("shell", "--no-imports", "-c", code, **PRODUCTION)
    assert r.stdout.split()[0] == "django.core.files.storage.filesystem.FileSystemStorage", r.stderr
    # An object store from django-storages, with its options, and no code changed.
    r = dogtag(
        "shell",
        "--no-imports",
        "-c",
        code,
        **PRODUCTION,
        DOGTAG_MEDIA_STORAGE="storages.backends.ftp.FTPStorage",
        DOGTAG_MEDIA_STORAGE_OPTIONS='{"location": "ftp://dogtag:secret@files.example.gov:21/media/"}',
    )
    location = "ftp://dogtag:secret@files.example.gov:21/media/"
    assert r.stdout.split() == ["storages.backends.ftp.FTPStorage", location], r.stderr
    r = dogtag("shell", "--no-imports", "-c", code, **PRODUCTION, DOGTAG_MEDIA_STORAGE_OPTIONS="{bucket: x}")
    assert r.returncode != 0 and "DOGTAG_MEDIA_STORAGE_OPTIONS: expected a JSON object" in r.stderr


def test_logs_are_json_lines_on_stdout_in_production_and_text_in_development():
    code = "import logging; logging.getLogger('dogtag.licensing').warning('tag %s claimed twice', 1042)"
    r = dogtag("shell", "--no-imports", "-c", code, **PRODUCTION)
    line = json.loads(r.stdout.strip().splitlines()[-1])
    assert (line["level"], line["logger"], line["message"]) == ("WARNING", "dogtag.licensing", "tag 1042 claimed twice")
    assert "time" in line and "process" in line
    r = dogtag("shell", "--no-imports", "-c", code, DEBUG="true")
    assert "WARNING dogtag.licensing" in r.stdout and "tag 1042 claimed twice" in r.stdout
    r = dogtag("shell", "--no-imports", "-c", code, **PRODUCTION, DOGTAG_LOG_FORMAT="xml")
    assert r.returncode != 0 and "DOGTAG_LOG_FORMAT='xml'" in r.stderr


def test_errors_are_reported_to_the_sentry_dsn_when_one_is_set():
    """A real sentry-sdk client posts its envelope to a collector on the loopback."""
    received = []

    class Collector(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            encoding = self.headers.get("Content-Encoding")
            if encoding == "gzip":
                body = gzip.decompress(body)
            elif encoding == "br":  # sentry-sdk compresses with brotli when brotli is installed
                import brotli

                body = brotli.decompress(body)
            received.append((self.path, body))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        code = (
            "import sentry_sdk\n"
            "try:\n    1 / 0\nexcept ZeroDivisionError:\n    sentry_sdk.capture_exception()\n"
            "sentry_sdk.flush(10)"
        )
        dsn = f"http://publickey@127.0.0.1:{server.server_port}/42"
        r = dogtag("shell", "--no-imports", "-c", code, **PRODUCTION, SENTRY_DSN=dsn, SENTRY_ENVIRONMENT="county-test")
        assert r.returncode == 0, r.stderr
    finally:
        server.shutdown()
    assert [path for path, _ in received] == ["/api/42/envelope/"]
    body = received[0][1].decode()
    assert "ZeroDivisionError" in body and "county-test" in body


def test_without_a_dsn_nothing_is_reported():
    r = dogtag("shell", "--no-imports", "-c", "import sentry_sdk; print(sentry_sdk.is_initialized())", **PRODUCTION)
    assert r.stdout.strip() == "False"


def test_the_servers_worker_class_is_gthread_unless_sync_is_asked_and_nothing_else(monkeypatch):
    from dogtag.ops.server import options

    monkeypatch.delenv("DOGTAG_WORKER_CLASS", raising=False)
    assert options()["worker_class"] == "gthread"
    monkeypatch.setenv("DOGTAG_WORKER_CLASS", "sync")
    assert options()["worker_class"] == "sync"
    monkeypatch.setenv("DOGTAG_WORKER_CLASS", "eventlet")
    with pytest.raises(ImproperlyConfiguredEnv, match="DOGTAG_WORKER_CLASS='eventlet'"):
        options()


def test_an_import_writes_over_at_least_one_connection():
    assert setting("DOGTAG_IMPORT_WRITERS", DEBUG="true").stdout.strip() == "2"
    r = setting("DOGTAG_IMPORT_WRITERS", DEBUG="true", DOGTAG_IMPORT_WRITERS="0")
    assert r.returncode != 0 and "DOGTAG_IMPORT_WRITERS=0: expected 1 or more" in r.stderr
