"""`dogtag serve` as an administrator runs it: gunicorn, 2 workers x 4 threads, production settings,
a migrated database with the demo municipalities; a burst of logged-in counter pages and API calls
the moment it accepts connections, a graceful restart under traffic, a graceful stop."""

from __future__ import annotations

import http.client
import json
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.ops.served import REPO, database, install, production_env, serving

# Webster filled with the sample (Benton has the seed's owner already), and a finder's token.
TAG_SEED = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from django.db import transaction
from dogtag.accounts.actions import issue_api_token
from dogtag.licensing.models import Tag
from dogtag.portal.sample import fill
from dogtag.registry.models import Municipality

User = get_user_model()
webster = Municipality.objects.get(slug="webster")
clerk = User.objects.get(username="webster-clerk")
fill(webster, clerk=clerk, officer=User.objects.get(username="officer"), vet=User.objects.get(username="vet"))
tag = Tag.objects.filter(municipality=webster, license__isnull=False).order_by("serial").first()
with transaction.atomic():
    token = issue_api_token(acting_user=None, user=clerk, name="finder")[1]
print(json.dumps({"path": f"/api/v1/municipalities/webster/tags/{tag.license_year}/{tag.serial}",
                  "token": token, "license": tag.license_id, "animal_name": tag.license.animal_name}))
"""
BURST = 400  # requests, half to the counter page, half to the API
CLIENTS = 16  # concurrent connections


def get(port: int, path: str, headers: dict) -> tuple[int, bytes, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers=headers)
        r = conn.getresponse()
        return r.status, r.read(), dict(r.getheaders())
    except OSError as e:
        return -1, repr(e).encode(), {}
    finally:
        conn.close()


def requests_for(seed: dict, n: int) -> list[tuple[str, dict]]:
    counter = (f"/animals/{seed['animal']}/license/", {"Cookie": f"sessionid={seed['session']}"})
    api = (f"/api/v1/animals/{seed['animal']}/fee-preview", {"Authorization": f"Bearer {seed['token']}"})
    return [counter if i % 2 == 0 else api for i in range(n)]


def burst(port: int, seed: dict, n: int = BURST):
    with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
        return list(pool.map(lambda req: (req[0], *get(port, *req)), requests_for(seed, n)))


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """One installation for the module: migrating and loading the demo take most of a minute."""
    tmp = tmp_path_factory.mktemp("served")
    with database(tmp) as url:
        env = production_env(tmp, url)
        yield env, install(env)


def test_a_burst_the_moment_it_starts_gets_no_error(installed, tmp_path):
    env, seed = installed
    with serving({**env, "DOGTAG_WORKERS": "2", "DOGTAG_THREADS": "4"}, tmp_path) as server:
        took = server.wait_until_accepting()
        results = burst(server.port, seed)
        print(f"accepting after {took:.1f} s; {len(results)} requests")

        failed = [(path, status, body[:300]) for path, status, body, _ in results if status != 200]
        assert failed == [], failed[:5]
        counter = next(body.decode() for path, _, body, _ in results if path.endswith("/license/"))
        assert "Rex" in counter and "benton-clerk" in counter
        api = next(json.loads(body) for path, _, body, _ in results if path.endswith("fee-preview"))
        assert isinstance(api, dict) and api

        # Hashed, compressed static files, cached for ever (WhiteNoise's manifest storage).
        css = re.search(r'/static/dogtag/dogtag\.[0-9a-f]{12}\.css', counter)
        assert css, "the page does not name its stylesheet by hash"
        status, body, headers = get(server.port, css[0], {"Accept-Encoding": "gzip"})
        assert status == 200 and headers.get("Content-Encoding") == "gzip"
        assert "max-age=315360000" in headers.get("Cache-Control", "")

        # gunicorn writes a request's access line after its response has gone; a graceful stop
        # lets every worker finish writing before the log is read.
        assert server.stop() == 0
        lines = server.log_lines()
    # Two workers of four threads, and a JSON access line per request with its own fields.
    boots = [json.loads(line) for line in lines if "Booting worker" in line]
    assert len(boots) == 2
    access = [json.loads(line) for line in lines if '"logger": "gunicorn.access"' in line]
    assert len(access) >= BURST
    assert {a["status"] for a in access} == {200}
    assert {a["method"] for a in access} == {"GET"}
    assert all(isinstance(a["duration_ms"], int) for a in access)


def test_sighup_restarts_the_workers_without_dropping_a_request_and_sigterm_stops_it(installed, tmp_path):
    env, seed = installed
    with serving({**env, "DOGTAG_WORKERS": "2", "DOGTAG_THREADS": "4"}, tmp_path) as server:
        server.wait_until_accepting()
        assert {r[1] for r in burst(server.port, seed, 40)} == {200}

        def booted():
            return sum("Booting worker" in line for line in server.log_lines())

        with ThreadPoolExecutor(max_workers=1) as pool:
            during = pool.submit(burst, server.port, seed, 300)
            time.sleep(0.2)  # the restart lands while the burst is under way
            server.process.send_signal(signal.SIGHUP)
            results = during.result()
        deadline = time.monotonic() + 60
        while booted() < 4 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert booted() == 4, "\n".join(server.log_lines()[-20:])
        assert [r for r in results if r[1] != 200] == []
        assert {r[1] for r in burst(server.port, seed, 40)} == {200}

        assert server.stop(signal.SIGTERM) == 0
        assert any("Shutting down" in line for line in server.log_lines())


def test_the_tag_lookup_is_answered_in_front_of_django_as_django_answers_it(installed, tmp_path):
    """dogtag/lean.py answers the lookup; with a query string the same lookup is Django's (the
    lean path leaves it alone), and the two answers are the same but for the Date."""
    env, _ = installed
    seeded = subprocess.run([sys.executable, "-c", TAG_SEED], env={**env, "DJANGO_SETTINGS_MODULE": "dogtag.settings"},
                            capture_output=True, text=True, timeout=300, cwd=REPO)  # fmt: skip
    assert seeded.returncode == 0, seeded.stderr[-3000:]
    tag = json.loads(seeded.stdout.splitlines()[-1])
    with serving({**env, "DOGTAG_WORKERS": "1", "DOGTAG_THREADS": "2"}, tmp_path) as server:
        server.wait_until_accepting()
        auth = {"Authorization": f"Bearer {tag['token']}"}
        status, body, headers = get(server.port, tag["path"], auth)
        assert status == 200, body[:300]
        found = json.loads(body)
        assert (found["id"], found["animal_name"], found["municipality"]) == (tag["license"], tag["animal_name"],
                                                                             "webster")  # fmt: skip
        assert headers["Content-Type"] == "application/json; charset=utf-8"
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        django_status, django_body, django_headers = get(server.port, tag["path"] + "?from=django", auth)
        assert (django_status, django_body) == (status, body)
        assert {k: v for k, v in django_headers.items() if k != "Date"} == {
            k: v for k, v in headers.items() if k != "Date"
        }
        assert get(server.port, tag["path"], {"Authorization": "Bearer dt_unknown"})[0] == 401
