"""Email as a trio of templates (subject, text, HTML) rendered by one helper, queued in the
outbox inside the caller's transaction and handed to the worker once it commits."""

from django.template import Context
from django.template.loader import get_template, render_to_string
from django.utils import translation

from dogtag.lib.tasks import enqueue
from dogtag.outbox.models import Message
from dogtag.outbox.sender import send  # noqa: F401 - the outbox's one sender, for callers of mail.send

SEND = "dogtag.outbox.tasks.send_outbox"


def _plain(name: str, context: dict) -> str:
    """A plain-text template is text, not HTML: what people typed is not escaped."""
    return get_template(name).template.render(Context(context, autoescape=False))


def render(name: str, context: dict, language: str | None = None) -> tuple[str, str, str]:
    """The trio in `language` (the recipient's, kept on the person or the application), or in the
    language active now."""
    with translation.override(language or translation.get_language()):
        subject = _plain(f"{name}-subject.txt", context).strip()
        return subject, _plain(f"{name}.txt", context), render_to_string(f"{name}.html", context)


def queue(*, municipality, to: str, template: str, context: dict, kind: str, attachment=None, document=None) -> Message:
    """`attachment`: (file name, bytes) written with the message; `document`: (file name, the
    document's name, its renderer's arguments), rendered by the sender when it sends
    (outbox/documents.py) so the caller's transaction renders nothing."""
    subject, text, html = render(template, context)
    name, data = attachment or ("", None)
    document_name, args = "", {}
    if document:
        name, document_name, args = document
    message = Message.objects.create(
        municipality=municipality,
        to=to,
        subject=subject,
        text=text,
        html=html,
        kind=kind,
        attachment_name=name,
        attachment=data,
        attachment_document=document_name,
        attachment_args=args,
    )
    enqueue(SEND, [message.pk], task_name=f"outbox: message {message.pk}")
    return message


def queue_many(messages: list[Message]) -> list[Message]:
    """Batch work: the caller builds unsaved Messages; one insert, sent by the worker after commit."""
    if not messages:
        return []
    created = Message.objects.bulk_create(messages, batch_size=1000)
    ids = [m.pk for m in created] if all(m.pk for m in created) else None
    enqueue(SEND, ids)
    return created
