"""Online payments: a checkout started on a processor's hosted page, the processor's
notifications (each stored once by its id), refunds sent back through the processor, and the
daily reconciliation of the processor's charges and refunds with Dogtag's receipts. No card
number is ever held: the processor's page takes the card."""

from django.db import models

from dogtag.enforcement.models import Citation
from dogtag.licensing.models import Payment, Refund
from dogtag.portal.models import Application
from dogtag.registry.models import Scoped


class Processor(models.TextChoices):
    STRIPE = "stripe", "Stripe"
    HOSTED = "hosted", "Hosted payment page"


class Checkout(Scoped):
    """One attempt to pay online: the amount asked for, the processor's session, and what the
    processor's notification, re-read from the processor, settled it as."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for the processor"
        PAID = "paid", "Paid"
        REFUSED = "refused", "Paid but refused (refunded)"
        EXPIRED = "expired", "Not paid"

    processor = models.CharField(max_length=10, choices=Processor.choices)
    application = models.ForeignKey(
        Application, null=True, blank=True, on_delete=models.PROTECT, related_name="checkouts"
    )
    # Or a citation's forfeiture paid online, where the municipality allows it.
    citation = models.ForeignKey(
        Citation, null=True, blank=True, on_delete=models.PROTECT, related_name="checkouts"
    )
    amount = models.DecimalField(max_digits=9, decimal_places=2, help_text="the whole amount charged")
    convenience_fee = models.DecimalField(
        max_digits=9, decimal_places=2, default=0, help_text="the part of `amount` that is the card convenience fee"
    )
    currency = models.CharField(max_length=3, default="usd")
    quoted_on = models.DateField()
    session_id = models.CharField(max_length=255, blank=True)
    url = models.URLField(max_length=2000, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    reference = models.CharField(max_length=255, blank=True, help_text="the processor's payment id")
    paid_amount = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    outcome = models.CharField(max_length=500, blank=True)
    payment = models.ForeignKey(Payment, null=True, blank=True, on_delete=models.PROTECT, related_name="checkouts")
    started_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["processor", "session_id"],
                condition=~models.Q(session_id=""),
                name="one_checkout_per_processor_session",
            )
        ]
        indexes = [models.Index(fields=["processor", "reference"])]

    def __str__(self):
        return f"Checkout {self.pk}: ${self.amount} by {self.get_processor_display()} ({self.get_status_display()})"


class CheckoutItem(Scoped):
    """One application of a household's cart paid in one checkout: what the law
    computed for it when the checkout started, and what became of it when the payment settled."""

    checkout = models.ForeignKey(Checkout, on_delete=models.PROTECT, related_name="items")
    application = models.ForeignKey(Application, on_delete=models.PROTECT, related_name="checkout_items")
    amount = models.DecimalField(max_digits=9, decimal_places=2)
    outcome = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["checkout", "application"], name="one_item_per_application")]

    def __str__(self):
        return f"${self.amount} for application {self.application_id}"


class Notification(Scoped):
    """A processor's signed notification, verified, stored once by its id: a replay finds it here
    and changes nothing. `handled_at` is set once the checkout it names is settled from a fresh
    reading of the processor."""

    processor = models.CharField(max_length=10, choices=Processor.choices)
    event_id = models.CharField(max_length=255)
    kind = models.CharField(max_length=100)
    session_id = models.CharField(max_length=255, blank=True)
    occurred_at = models.DateTimeField()
    received_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=500, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["processor", "event_id"], name="one_notification_per_event")]

    def __str__(self):
        return f"{self.get_processor_display()} {self.kind} {self.event_id}"


class ProcessorRefund(Scoped):
    """Money sent back through the processor for a card refund the clerk recorded (or for a
    payment Dogtag refused). Failed ones stay listed for the clerk and are retried by the worker
    until the processor confirms."""

    class Status(models.TextChoices):
        PENDING = "pending", "Being sent"
        SUCCEEDED = "succeeded", "Refunded"
        FAILED = "failed", "Failed: being retried"

    checkout = models.ForeignKey(Checkout, on_delete=models.PROTECT, related_name="refunds")
    refund = models.OneToOneField(
        Refund, null=True, blank=True, on_delete=models.PROTECT, related_name="processor_refund"
    )
    amount = models.DecimalField(max_digits=9, decimal_places=2)
    reason = models.CharField(max_length=300)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    processor_refund_id = models.CharField(max_length=255, blank=True)
    error = models.CharField(max_length=500, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    last_tried_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"Refund of ${self.amount} through {self.checkout.get_processor_display()} ({self.get_status_display()})"


class Reconciliation(Scoped):
    """One day's comparison of the processor's charges and refunds with Dogtag's receipts: the
    latest run's counts and every difference found, for the clerk."""

    processor = models.CharField(max_length=10, choices=Processor.choices)
    day = models.DateField()
    ran_at = models.DateTimeField()
    charges = models.PositiveIntegerField(default=0)
    refunds = models.PositiveIntegerField(default=0)
    differences = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["municipality", "processor", "day"], name="one_reconciliation_per_day")
        ]
        ordering = ["-day"]

    def __str__(self):
        return f"{self.day}: {len(self.differences)} differences"
