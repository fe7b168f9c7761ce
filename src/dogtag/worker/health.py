"""/healthz for a load balancer: the database answers, the rule packs are loaded, the worker's
heartbeat is recent, and the audit trail's last daily check found its chain whole. 200 when all
four are "ok"; 503 naming what is not."""

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


def _audit() -> str:
    from dogtag.audit import checks

    try:
        return checks.status()
    except Exception as e:  # noqa: BLE001 - reported under "database" too
        return f"unknown: {type(e).__name__}"


@never_cache
@require_GET
def healthz(request):
    parts = {"database": _database(), "packs": _packs()}
    reachable = parts["database"] == "ok"
    parts["worker"] = _worker() if reachable else "unknown: the database is unreachable"
    parts["audit"] = _audit() if reachable else "unknown: the database is unreachable"
    healthy = all(v == "ok" for v in parts.values())
    return JsonResponse(parts, status=200 if healthy else 503)
