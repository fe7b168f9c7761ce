"""/healthz for a load balancer: the database answers, the rule packs are loaded, and the
worker's heartbeat is recent. 200 when all three are "ok"; 503 naming what is not."""

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from dogtag.worker import heartbeat


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as e:  # noqa: BLE001 - any failure to reach the database is the answer
        return f"unreachable: {type(e).__name__}: {str(e).strip()[:200]}"
    return "ok"


def _packs() -> str:
    from dogtag.rules.packs import all_packs

    try:
        all_packs()
    except Exception as e:  # noqa: BLE001
        return f"not loaded: {e}"[:300]
    return "ok"


def _worker() -> str:
    try:
        age = heartbeat.age()
    except Exception as e:  # noqa: BLE001 - reported under "database" too
        return f"unknown: {type(e).__name__}"
    if age is None:
        return "no heartbeat yet: is `dogtag worker` running?"
    limit = settings.DOGTAG_WORKER_STALE_SECONDS
    if age.total_seconds() > limit:
        return f"stale: last heartbeat {int(age.total_seconds())} s ago (limit {limit} s)"
    return "ok"


@never_cache
@require_GET
def healthz(request):
    parts = {"database": _database(), "packs": _packs()}
    parts["worker"] = _worker() if parts["database"] == "ok" else "unknown: the database is unreachable"
    healthy = all(v == "ok" for v in parts.values())
    return JsonResponse(parts, status=200 if healthy else 503)
