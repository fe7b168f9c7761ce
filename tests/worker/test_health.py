"""/healthz for a load balancer: 200 when the database, the packs and the worker answer; 503
naming the part that does not."""

import json
import subprocess
import sys
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from dogtag.worker import heartbeat
from tests.outbox.smtp import free_port
from tests.worker.helpers import ROOT, running_worker, wait_for, worker_env

pytestmark = pytest.mark.django_db


def get(client):
    response = client.get("/healthz")
    return response.status_code, response.json()


def test_it_answers_200_when_every_part_is_healthy(client):
    heartbeat.beat()
    assert get(client) == (200, {"database": "ok", "packs": "ok", "worker": "ok", "audit": "ok"})


def test_a_stale_heartbeat_is_a_503_naming_the_worker(client, settings):
    settings.DOGTAG_WORKER_STALE_SECONDS = 180
    with time_machine.travel(timezone.now(), tick=False) as clock:
        heartbeat.beat()
        clock.shift(181)
        status, body = get(client)
        assert status == 503
        assert body["database"] == "ok" and body["packs"] == "ok"
        assert body["worker"] == "stale: last heartbeat 181 s ago (limit 180 s)"
        heartbeat.beat()
        clock.shift(170)
        assert get(client)[0] == 200  # inside the limit


def test_a_worker_that_never_beat_is_a_503(client):
    status, body = get(client)
    assert status == 503 and body["worker"] == "no heartbeat yet: is `dogtag worker` running?"


def test_it_is_open_to_a_load_balancer_over_plain_http(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    heartbeat.beat()
    assert client.get("/healthz").status_code == 200  # not redirected to https


PROBE = """
import json, django
django.setup()
from django.test import Client
r = Client(HTTP_HOST="localhost").get("/healthz")
print(json.dumps([r.status_code, r.json()]))
"""


def test_a_database_that_cannot_be_reached_is_a_503_naming_the_database():
    closed = free_port()  # nothing listens there
    env = {**worker_env(), "DATABASE_URL": f"postgres://postgres@127.0.0.1:{closed}/dogtag", "DEBUG": "true"}
    env["DB_CONN_MAX_AGE"] = "0"
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    status, body = json.loads(out.stdout.strip().splitlines()[-1])
    assert status == 503
    assert body["database"].startswith("unreachable: OperationalError") and str(closed) in body["database"]
    assert body["packs"] == "ok"
    assert body["worker"] == "unknown: the database is unreachable"


@pytest.mark.django_db(transaction=True)
def test_a_running_worker_makes_it_healthy_and_a_killed_one_goes_stale(client, tmp_path, settings):
    # Both through the `settings` fixture: an @override_settings around a test that also sets
    # `settings.X` is undone first, and the fixture then puts back what it saw, the decorator's
    # settings, for every later test (tests/conftest.py's _settings_restored now fails on that).
    settings.DOGTAG_TASKS_INLINE = False
    assert get(client)[0] == 503
    with running_worker(tmp_path / "worker.log") as worker:
        wait_for(lambda: get(client)[0] == 200, 60, "a healthy /healthz", interval=0.2, worker=worker)
        worker.kill_9()
    settings.DOGTAG_WORKER_STALE_SECONDS = 180
    with time_machine.travel(timezone.now() + timedelta(seconds=181), tick=False):
        status, body = get(client)
    assert status == 503 and body["worker"].startswith("stale:")
