"""The outbox's sender, run by the worker.

A sender first claims a batch with one conditional UPDATE (only rows nobody holds, or whose
holder's lease ran out), so two senders never hold the same message: on PostgreSQL the second
UPDATE re-reads a row the first one changed and skips it; SQLite runs one writer at a time.
Each message is marked sent right after the server accepts it. A refusal sets the next attempt
DOGTAG_OUTBOX_BACKOFF_SECONDS × 2^(attempts-1) later (at most DOGTAG_OUTBOX_BACKOFF_MAX_SECONDS);
after DOGTAG_OUTBOX_MAX_ATTEMPTS refusals the message is a dead letter for an administrator.
A sender killed mid-batch leaves its claims to expire after DOGTAG_OUTBOX_CLAIM_SECONDS.
Text messages (channel "text", outbox/texts.py) go through the same claims, backoff and dead
letters; one to a number without a live consent is a dead letter at once. A message naming a
document (outbox/documents.py) has it rendered here, before the batch's connection is used."""

import logging
import time
import uuid
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db.models import Q
from django.utils import timezone

from dogtag.outbox import documents, texts
from dogtag.outbox.models import Message

log = logging.getLogger(__name__)


def due(now):
    return Message.objects.filter(sent_at=None, dead_at=None, next_attempt_at__lte=now).filter(
        Q(claimed_until=None) | Q(claimed_until__lt=now)
    )


def claim(limit: int, ids=None) -> list[Message]:
    now = timezone.now()
    token = uuid.uuid4().hex
    candidates = due(now)
    if ids is not None:
        candidates = candidates.filter(pk__in=ids)
    while True:
        picked = candidates.order_by("next_attempt_at", "pk").values("pk")[:limit]
        claimed = (
            due(now)
            .filter(pk__in=picked)
            .update(claim=token, claimed_until=now + timedelta(seconds=settings.DOGTAG_OUTBOX_CLAIM_SECONDS))
        )
        if claimed:
            return list(Message.objects.filter(claim=token).order_by("next_attempt_at", "pk"))
        # Every row picked was claimed by another sender between the pick and the UPDATE (two
        # senders starting together pick the same rows): pick again while any is left.
        if not candidates.exists():
            return []


def backoff(attempts: int) -> timedelta:
    seconds = settings.DOGTAG_OUTBOX_BACKOFF_SECONDS * 2 ** max(attempts - 1, 0)
    return timedelta(seconds=min(seconds, settings.DOGTAG_OUTBOX_BACKOFF_MAX_SECONDS))


def _email(message: Message) -> EmailMultiAlternatives:
    domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")[2] or "localhost"
    email = EmailMultiAlternatives(
        message.subject,
        message.text,
        settings.DEFAULT_FROM_EMAIL,
        [message.to],
        # The same Message-ID on every attempt: a receiver can tell a repeat from a new message.
        headers={"Message-ID": f"<outbox-{message.pk}@{domain}>"},
    )
    if message.html:
        email.attach_alternative(message.html, "text/html")
    data = attachment_of(message)
    if data:
        email.attach(message.attachment_name, data, "application/pdf")
    return email


def attachment_of(message: Message) -> bytes | None:
    """The PDF a message carries: the document it names, rendered now and not in the transaction
    that queued the message (a renderer that fails is a refusal like the server's: the message is
    tried again later), or the bytes written with it."""
    if message.attachment_document:
        return documents.render(message.attachment_document, message.attachment_args)
    return bytes(message.attachment) if message.attachment else None


def _sent(message: Message) -> None:
    Message.objects.filter(pk=message.pk, claim=message.claim).update(
        sent_at=timezone.now(), attempts=message.attempts + 1, last_error="", claim="", claimed_until=None
    )


def _refused(message: Message, error: Exception) -> None:
    attempts = message.attempts + 1
    now = timezone.now()
    dead = attempts >= settings.DOGTAG_OUTBOX_MAX_ATTEMPTS
    Message.objects.filter(pk=message.pk, claim=message.claim).update(
        attempts=attempts,
        last_error=f"{type(error).__name__}: {error}"[:500],
        next_attempt_at=now + backoff(attempts),
        dead_at=now if dead else None,
        claim="",
        claimed_until=None,
    )
    given_up = ", given up" if dead else ""
    log.warning("outbox: message %s refused (attempt %s%s): %s", message.pk, attempts, given_up, error)


def _not_consented(message: Message, error: Exception) -> None:
    """A text to a number without a live consent is never retried: a dead letter at once."""
    now = timezone.now()
    Message.objects.filter(pk=message.pk, claim=message.claim).update(
        attempts=message.attempts + 1, last_error=str(error)[:500], dead_at=now, claim="", claimed_until=None
    )
    log.info("outbox: text %s not sent: %s", message.pk, error)


def send(ids=None, *, budget_seconds: float | None = None) -> tuple[int, int]:
    """Send the due messages (these ids, or all) in claimed batches; returns (sent, failed).
    Stops claiming new batches once `budget_seconds` have passed (the next run goes on)."""
    started = time.monotonic()
    sent = failed = 0
    connection = None
    try:
        while budget_seconds is None or time.monotonic() - started < budget_seconds:
            batch = claim(settings.DOGTAG_OUTBOX_BATCH, ids)
            if not batch:
                break
            for message in batch:
                if message.channel == Message.Channel.TEXT:
                    try:
                        texts.send(message)
                    except texts.NotConsented as e:
                        _not_consented(message, e)
                        failed += 1
                    except Exception as e:  # noqa: BLE001 - any refusal puts the message back, later
                        _refused(message, e)
                        failed += 1
                    else:
                        _sent(message)
                        sent += 1
                    continue
                try:
                    email = _email(message)
                    if connection is None:
                        connection = get_connection()
                        connection.open()  # one session for the batch
                    email.connection = connection
                    email.send()
                except Exception as e:  # noqa: BLE001 - any refusal puts the message back, later
                    _refused(message, e)
                    failed += 1
                    if connection is not None:
                        connection.close()
                        connection = None
                else:
                    _sent(message)
                    sent += 1
    finally:
        if connection is not None:
            connection.close()
    return sent, failed
