"""The outbox's work in the worker: every minute on the schedule (DOGTAG_SCHEDULE_OUTBOX), and
right after an action commits the messages it queued."""

from django.conf import settings

from dogtag.outbox import sender


def send_outbox(ids=None):
    # Half the task timeout: the run ends well before the worker would be stopped for overrunning.
    return sender.send(ids, budget_seconds=settings.DOGTAG_TASK_TIMEOUT / 2)
