"""The audit chain's daily check, recorded for /healthz."""

from django.db import transaction

from dogtag.audit import chain
from dogtag.audit.models import ChainCheck

SHOWN = 20  # problems kept per check; `dogtag audit verify` lists them all


def check() -> chain.Verdict:
    verdict = chain.verify()
    with transaction.atomic():
        ChainCheck.objects.create(events=verdict.events, problems=verdict.problems[:SHOWN])
    return verdict


def status() -> str:
    """"ok" when the last check found the chain whole (or none has run yet), else what it found."""
    last = ChainCheck.objects.values("checked_at", "problems").first()
    if last is None or not last["problems"]:
        return "ok"
    count = len(last["problems"])
    return f"broken at {last['checked_at']:%Y-%m-%d %H:%M} UTC: {last['problems'][0]}" + (
        f" (and {count - 1} more; run `dogtag audit verify`)" if count > 1 else ""
    )
