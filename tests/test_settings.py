import os
import subprocess
import sys

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
