from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from dogtag.registry.models import Person, Scoped


class Message(Scoped):
    """An email, or a text message (`channel`), Dogtag owes someone. Written in the transaction
        that caused it and sent by the worker after commit. A sender claims it first (claim,
        claimed_until) so no two senders send it; a server that refuses it puts it back with a later
        next_attempt_at (exponential backoff); after DOGTAG_OUTBOX_MAX_ATTEMPTS refusals it is a dead
        letter (dead_at) until an administrator sends it again. Its attachment is either bytes written
    with it (`attachment`) or a document the sender renders when it sends (`attachment_document`,
    outbox/documents.py), so the transaction that queues it does not render a PDF."""

    class Channel(models.TextChoices):
        EMAIL = "email", "Email"
        TEXT = "text", "Text message"

    channel = models.CharField(max_length=5, choices=Channel.choices, default=Channel.EMAIL)
    to = models.CharField(max_length=254, help_text="an email address, or a telephone number in E.164 for a text")
    subject = models.CharField(max_length=200)
    text = models.TextField()
    html = models.TextField(blank=True)
    attachment_name = models.CharField(max_length=100, blank=True)
    attachment = models.BinaryField(null=True, blank=True)
    attachment_document = models.CharField(
        max_length=60, blank=True, help_text="a document the sender renders and attaches (outbox/documents.py)"
    )
    attachment_args = models.JSONField(default=dict, blank=True, help_text="what the document is of, for its renderer")
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


class TextConsent(Scoped):
    """A person's consent to text messages at one number: when, how and who recorded it. A STOP
    reply from the number ends it (`stopped_at`); an UNSTOP reply or a new consent is a new row."""

    class How(models.TextChoices):
        SIGNED_FORM = "signed-form", "Signed form"
        IN_PERSON = "in-person", "In person at the office"
        TELEPHONE = "telephone", "By telephone"
        ONLINE = "online", "Online"
        TEXT_REPLY = "text-reply", "Texted UNSTOP or START"

    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="text_consents")
    phone = models.CharField(max_length=20, help_text="E.164, e.g. +16085550100")
    consented_at = models.DateTimeField()
    how = models.CharField(max_length=12, choices=How.choices)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    wording = models.TextField(blank=True, help_text="the consent's words as the person read them (online)")
    stopped_at = models.DateTimeField(null=True, blank=True)
    stopped_how = models.CharField(max_length=100, blank=True)
    stopped_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-consented_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["municipality", "phone"], condition=Q(stopped_at=None), name="one_live_text_consent_per_number"
            )
        ]

    def __str__(self):
        return f"texts to {self.phone} ({self.person_id})"
