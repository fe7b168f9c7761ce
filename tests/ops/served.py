"""A real Dogtag installation for the service tests: its own database (SQLite file or a PostgreSQL
database of its own), migrated, with the demo municipalities, one licensable dog in Benton, a
clerk's session and an API token; production settings (DEBUG=false); a server started as an
administrator would start it, on a free port of 127.0.0.1."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import dj_database_url
import psycopg

REPO = Path(__file__).resolve().parents[2]
DOGTAG = [sys.executable, "-m", "dogtag"]
# Collected once per checkout and reused (collection skips sources it collected already).
STATIC_ROOT = REPO / "var" / "test-static"

SEED = r"""
import json
from datetime import date
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from django.db import transaction
from dogtag.accounts.actions import issue_api_token
from dogtag.registry.models import Animal, Municipality, Ownership, Person

benton = Municipality.objects.get(slug="benton")
owner = Person.objects.create(municipality=benton, name="Pat Owner", street="1 Main St", city="Benton",
                              postal_code="53803")
dog = Animal.objects.create(municipality=benton, name="Rex", sex="male", birth_date=date(2023, 1, 1),
                            breed="Mix", color="black")
Ownership.objects.create(municipality=benton, animal=dog, person=owner, started_on=date(2023, 1, 1))
clerk = get_user_model().objects.get(username="benton-clerk")
client = Client()
client.force_login(clerk)
with transaction.atomic():
    token = issue_api_token(acting_user=None, user=clerk, name="serve test")[1]
print(json.dumps({"animal": dog.pk, "token": token,
                  "session": client.cookies["sessionid"].value}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def production_env(tmp: Path, database_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE")}
    return {
        **env,
        "DEBUG": "false",
        "DATABASE_URL": database_url,
        "DOGTAG_VAR_DIR": str(tmp),
        "DOGTAG_STATIC_ROOT": str(STATIC_ROOT),
        "SECRET_KEY": "served-test-" + uuid.uuid4().hex + uuid.uuid4().hex,
        "DOGTAG_BASE_URL": "http://127.0.0.1",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        # plain HTTP on the loopback: no proxy in front to terminate TLS
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "SECURE_HSTS_SECONDS": "0",
    }


@contextlib.contextmanager
def database(tmp: Path):
    """A DATABASE_URL of an empty database of its own, on the engine the suite runs on."""
    base = os.environ.get("DATABASE_URL")
    if not base or base.startswith("sqlite"):
        yield f"sqlite:///{tmp / 'served.sqlite3'}"
        return
    c = dj_database_url.parse(base)
    name = f"{c['NAME']}_served_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    admin = dict(host=c["HOST"] or "127.0.0.1", port=c["PORT"] or 5432, user=c["USER"], password=c["PASSWORD"] or None)
    with psycopg.connect(dbname="postgres", autocommit=True, **admin) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **admin) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run(env: dict, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    r = subprocess.run([*DOGTAG, *args], env=env, capture_output=True, text=True, timeout=timeout, cwd=REPO)
    assert r.returncode == 0, f"dogtag {' '.join(args)}: {r.stderr[-3000:]}"
    return r


def install(env: dict) -> dict:
    """Migrate, load the municipalities, and seed what the requests need."""
    run(env, "migrate", "--noinput", "-v0")
    run(env, "demo")
    seeded = subprocess.run(
        [sys.executable, "-c", SEED],
        env={**env, "DJANGO_SETTINGS_MODULE": "dogtag.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert seeded.returncode == 0, seeded.stderr[-3000:]
    return json.loads(seeded.stdout.splitlines()[-1])


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    log: Path
    started: float = field(default_factory=time.monotonic)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_lines(self) -> list[str]:
        return self.log.read_text(errors="replace").splitlines()

    def wait_until_accepting(self, deadline_s: float = 120) -> float:
        """Seconds until the port accepts a connection (polled, bounded)."""
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "the server exited:\n" + "\n".join(self.log_lines()[-40:])
            with socket.socket() as s:
                s.settimeout(0.2)
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return time.monotonic() - self.started
            time.sleep(0.02)
        raise AssertionError("the server did not accept connections in time:\n" + "\n".join(self.log_lines()[-40:]))

    def stop(self, sig=signal.SIGTERM, timeout: float = 60) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                return self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
                raise AssertionError("the server did not stop on SIGTERM in time") from None
        return self.process.returncode


@contextlib.contextmanager
def serving(env: dict, tmp: Path, command: list[str] | None = None):
    port = free_port()
    log = tmp / f"server-{port}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            command or [*DOGTAG, "serve", "--bind", f"127.0.0.1:{port}"],
            env={**env, "PORT": str(port), "DOGTAG_BIND": f"127.0.0.1:{port}"},
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=REPO,
            start_new_session=True,
        )
    server = Server(process, port, log)
    try:
        yield server
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)
