"""The deployment files. Docker cannot run on this machine (no container engine), so the image's
entry command is tested directly: deploy/docker-entrypoint.sh's serve path migrates an empty
database and serves it; the Dockerfile, compose.yaml and the systemd units are checked to name
commands and files that exist."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from tests.ops.served import REPO, database, production_env, run, serving

ENTRYPOINT = REPO / "deploy" / "docker-entrypoint.sh"


def entry_env(tmp: Path, url: str) -> dict:
    env = production_env(tmp, url)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # `dogtag` as in the image
    return env


def test_the_entrypoint_migrates_an_empty_database_then_serves_it(tmp_path):
    with database(tmp_path) as url:
        env = entry_env(tmp_path, url)
        with serving(env, tmp_path, command=["sh", str(ENTRYPOINT)]) as server:
            server.wait_until_accepting(deadline_s=300)
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            conn.request("GET", "/login/")
            assert conn.getresponse().status == 200
            conn.close()
            run(env, "migrate", "--check")  # nothing left unapplied
            assert server.stop() == 0
        assert any("Applying registry.0001_initial" in line for line in server.log_lines())


def test_the_entrypoint_runs_any_other_dogtag_command(tmp_path):
    env = entry_env(tmp_path, f"sqlite:///{tmp_path / 'x.sqlite3'}")
    r = subprocess.run(["sh", str(ENTRYPOINT), "version"], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and re.fullmatch(r"5\.2\.\d+", r.stdout.strip()), r.stderr


def dogtag_commands_in(text: str) -> set[str]:
    return set(re.findall(r"dogtag(?:-entrypoint\.sh)? (?!-)([a-z_-]+)", text))


def test_the_image_and_the_units_run_commands_that_exist(tmp_path):
    dockerfile = (REPO / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim", dockerfile, re.M)
    user = re.findall(r"^USER (\S+)", dockerfile, re.M)
    assert user and user[-1] not in ("root", "0")
    assert 'ENTRYPOINT ["docker-entrypoint.sh"]' in dockerfile and 'CMD ["serve"]' in dockerfile
    assert "COPY deploy/docker-entrypoint.sh" in dockerfile and ENTRYPOINT.exists()
    for copied in re.findall(r"^COPY (.+) \S+$", dockerfile, re.M):
        for name in copied.split():
            assert (REPO / name).exists(), name

    compose = yaml.safe_load((REPO / "compose.yaml").read_text())
    assert set(compose["services"]) == {"db", "migrate", "web", "worker"}
    # Only the one-off migration step has the owner's password; the app runs as a role that owns nothing.
    owner = compose["services"]["migrate"]["environment"]
    assert owner["DATABASE_URL"].startswith("postgres://dogtag:") and owner["DATABASE_APP_ROLE"] == "dogtag_app"
    for app in ("web", "worker"):
        env = compose["services"][app]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://dogtag_app:") and env["POSTGRES_PASSWORD"] == ""
        assert compose["services"][app]["depends_on"] == {"migrate": {"condition": "service_completed_successfully"}}
    assert compose["services"]["web"]["command"] == "serve" and compose["services"]["worker"]["command"] == "worker"
    assert {"pgdata", "media"} <= set(compose["volumes"])

    units = "\n".join(p.read_text() for p in (REPO / "deploy" / "systemd").glob("*.service"))
    commands = dogtag_commands_in(units) | {"serve", "worker", "migrate", "backup", "restore-backup"}
    env = entry_env(tmp_path, f"sqlite:///{tmp_path / 'x.sqlite3'}")
    listed = run(env, "help", "--commands").stdout.split()
    assert commands <= set(listed), commands - set(listed)
    assert "collectstatic_if_changed" in listed
