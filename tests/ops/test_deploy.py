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
    assert owner["DATABASE_URL"].startswith("postgres://dogtag_owner:") and owner["DATABASE_APP_ROLE"] == "dogtag_app"
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


def _env_example() -> dict[str, str]:
    lines = (REPO / ".env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def test_compose_makes_the_readmes_roles_and_hands_each_service_only_its_own():
    """README's install: a superuser makes dogtag_owner (owns the database, no CREATEROLE) and
    dogtag_app; the migrations run as the owner with DATABASE_APP_ROLE and no app password; web
    and worker connect as the app's role. compose.yaml, deploy/postgres-init.sh, .env.example and
    README's compose steps must say the same."""
    compose = yaml.safe_load((REPO / "compose.yaml").read_text())
    services = compose["services"]
    db = services["db"]
    mounts = {v.split(":")[1]: v.split(":")[0] for v in db["volumes"] if v.startswith("./")}
    script = mounts["/docker-entrypoint-initdb.d/dogtag-roles.sh"]
    init = (REPO / script).read_text()
    roles = dict(re.findall(r"CREATE ROLE (\w+) ([^;]+);", init))
    (database, owner_role), *others = re.findall(r"CREATE DATABASE (\w+) OWNER (\w+);", init)
    assert not others and set(roles) == {owner_role, "dogtag_app"}
    for role, options in roles.items():
        assert {"LOGIN", "NOSUPERUSER", "NOCREATEROLE"} <= set(options.split()), role
    assert "POSTGRES_USER" not in db["environment"] and "POSTGRES_DB" not in db["environment"]  # the image's superuser

    readme = (REPO / "README.md").read_text()
    assert f"createuser {owner_role} -P && sudo -u postgres createdb -O {owner_role} {database}" in readme
    assert "createuser dogtag_app -P" in readme

    def url(service):
        m = re.fullmatch(
            r"postgres://(\w+):\$\{(\w+)\}@db:5432/(\w+)", services[service]["environment"]["DATABASE_URL"]
        )
        assert m, services[service]["environment"]["DATABASE_URL"]
        return m.groups()

    user, owner_password, name = url("migrate")
    assert (user, name) == (owner_role, database)
    app_role = services["migrate"]["environment"]["DATABASE_APP_ROLE"]
    assert app_role in roles and app_role != owner_role
    assert not services["migrate"]["environment"].get("DATABASE_APP_PASSWORD")  # the owner has no CREATEROLE
    assert "PASSWORD :'owner_password'" in init.split(f"CREATE ROLE {owner_role}", 1)[1].split(";")[0]
    assert f'-v owner_password="${owner_password}"' in init
    for app in ("web", "worker"):
        user, app_password, name = url(app)
        assert (user, name) == (app_role, database)
        assert f'-v app_password="${app_password}"' in init
    for var in (owner_password, app_password):
        assert db["environment"][var] == f"${{{var}:?set {var} in .env}}"

    # Every variable compose interpolates is in .env.example and named in README's compose step;
    # none of them reaches a service of the app (env_file: .env) with a value.
    env_example = _env_example()
    interpolated = set(re.findall(r"\$\{(\w+)", (REPO / "compose.yaml").read_text())) - {"DOGTAG_PORT"}
    assert interpolated == {"POSTGRES_PASSWORD", owner_password, app_password}
    compose_step = readme.split("**With containers**", 1)[1].split("```", 2)[1]
    for var in interpolated:
        assert env_example.get(var, "").startswith("replace-with-"), var
        assert var in compose_step, var
    for service in ("migrate", "web", "worker"):
        assert services[service]["env_file"] == ".env"
        for var in interpolated:
            assert services[service]["environment"][var] == "", (service, var)
    # The host install copies .env.example to dogtag.env and migrates with it and owner.env: a role,
    # a URL or an app password there would run the app as another role or ask the owner for CREATEROLE.
    assert not {"DATABASE_URL", "DATABASE_APP_ROLE", "DATABASE_APP_PASSWORD"} & set(env_example)
