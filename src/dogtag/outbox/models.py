from django.db import models
from django.utils import timezone

from dogtag.registry.models import Scoped


class Message(Scoped):
    """An email Dogtag owes someone. Written in the transaction that caused it and sent by the
    worker after commit. A sender claims it first (claim, claimed_until) so no two senders send
    it; a server that refuses it puts it back with a later next_attempt_at (exponential backoff);
    after DOGTAG_OUTBOX_MAX_ATTEMPTS refusals it is a dead letter (dead_at) until an administrator
    sends it again."""

    to = models.EmailField()
    subject = models.CharField(max_length=200)
    text = models.TextField()
    html = models.TextField(blank=True)
    attachment_name = models.CharField(max_length=100, blank=True)
    attachment = models.BinaryField(null=True, blank=True)
    kind = models.CharField(max_length=40, help_text="what caused it, e.g. renewal-notice")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    claim = models.CharField(max_length=32, blank=True, help_text="the sender holding it")
    claimed_until = models.DateTimeField(null=True, blank=True)
    dead_at = models.DateTimeField(null=True, blank=True, help_text="given up after the last attempt")

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["sent_at", "created_at"]),
            models.Index(fields=["sent_at", "dead_at", "next_attempt_at"], name="outbox_due"),
        ]

    def __str__(self):
        return f"{self.subject} → {self.to}"

    @property
    def status(self) -> str:
        if self.sent_at:
            return "sent"
        if self.dead_at:
            return "undeliverable"
        return "queued"
