"""Email as a trio of templates (subject, text, HTML) rendered by one helper, queued in the
outbox inside the caller's transaction and sent once it commits."""

import logging

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.utils import timezone

from dogtag.outbox.models import Message

log = logging.getLogger(__name__)


def _plain(name: str, context: dict) -> str:
    """A plain-text template is text, not HTML: what people typed is not escaped."""
    return get_template(name).template.render(Context(context, autoescape=False))


def render(name: str, context: dict) -> tuple[str, str, str]:
    subject = _plain(f"{name}-subject.txt", context).strip()
    return subject, _plain(f"{name}.txt", context), render_to_string(f"{name}.html", context)


def queue(*, municipality, to: str, template: str, context: dict, kind: str, attachment=None) -> Message:
    subject, text, html = render(template, context)
    name, data = attachment or ("", None)
    message = Message.objects.create(
        municipality=municipality,
        to=to,
        subject=subject,
        text=text,
        html=html,
        kind=kind,
        attachment_name=name,
        attachment=data,
    )
    transaction.on_commit(lambda: send([message.pk]))
    return message


def queue_many(messages: list[Message]) -> list[Message]:
    """Batch work: the caller builds unsaved Messages; one insert, sent after commit."""
    created = Message.objects.bulk_create(messages, batch_size=1000)
    ids = [m.pk for m in created] if all(m.pk for m in created) else None
    transaction.on_commit(lambda: send(ids))
    return created


def send(ids=None) -> tuple[int, int]:
    """Send unsent messages (these ids, or all); returns (sent, failed). Failures stay queued."""
    pending = Message.objects.filter(sent_at=None)
    if ids is not None:
        pending = pending.filter(pk__in=ids)
    sent = failed = 0
    connection = get_connection()
    for message in pending.order_by("created_at").iterator():
        email = EmailMultiAlternatives(
            message.subject, message.text, settings.DEFAULT_FROM_EMAIL, [message.to], connection=connection
        )
        if message.html:
            email.attach_alternative(message.html, "text/html")
        if message.attachment:
            email.attach(message.attachment_name, bytes(message.attachment), "application/pdf")
        try:
            email.send()
        except Exception as e:  # noqa: BLE001 - any refusal leaves the message queued
            log.warning("outbox: %s not sent: %s", message, e)
            Message.objects.filter(pk=message.pk).update(attempts=message.attempts + 1, last_error=str(e)[:500])
            failed += 1
        else:
            Message.objects.filter(pk=message.pk).update(
                attempts=message.attempts + 1, sent_at=timezone.now(), last_error=""
            )
            sent += 1
    return sent, failed
