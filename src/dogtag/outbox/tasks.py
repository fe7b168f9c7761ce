"""The outbox's work in the worker: every minute on the schedule, and right after an action
commits the messages it queued."""

from dogtag.outbox import mail


def send_outbox(ids=None):
    return mail.send(ids)
