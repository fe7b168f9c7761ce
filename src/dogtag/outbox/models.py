from django.db import models

from dogtag.registry.models import Scoped


class Message(Scoped):
    """An email Dogtag owes someone. Written in the transaction that caused it and sent after
    commit; a server that refuses leaves it here, queued for the next attempt."""

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

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["sent_at", "created_at"])]

    def __str__(self):
        return f"{self.subject} → {self.to}"
