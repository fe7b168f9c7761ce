"""The worker's online-payment work, named by dotted path (lib/tasks.py)."""

from datetime import timedelta

from dogtag.lib import processors
from dogtag.lib.dates import today
from dogtag.payments import actions
from dogtag.payments.providers import Unreachable
from dogtag.registry.models import Municipality


def settle(notification_id: int) -> str:
    """A processor that does not answer leaves the notification waiting for `retry_waiting`'s
    sweep (every few minutes), rather than for the queue's few quick retries."""
    try:
        return actions.settle(notification_id)
    except Unreachable as e:
        return f"waiting: {e}"


def send_refund(processor_refund_id: int) -> str:
    return actions.send_refund(processor_refund_id)


def retry_waiting() -> str:
    return actions.retry_waiting()


def reconcile_yesterday() -> str:
    """Each connected municipality's yesterday (its local day), reconciled; safe to run again."""
    day = today() - timedelta(days=1)
    done = []
    for municipality in Municipality.objects.order_by("slug"):
        if processors.processor_of(municipality):
            found = actions.reconcile(municipality, day)
            done.append(f"{municipality.slug}: {len(found.differences)} differences")
    return "; ".join(done) or "no municipality has a processor connected"
