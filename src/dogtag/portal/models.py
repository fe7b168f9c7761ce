"""Public self-service: online license applications, whom a finder of a dog should call, the
found-dog lookup log and its rate limiter's counter, rabies reminders and opt-outs."""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from dogtag.licensing.models import License, RenewalNotice
from dogtag.registry.models import Animal, Municipality, Person, RabiesVaccination, Scoped


class MunicipalityContact(models.Model):
    """Whom a finder of a dog calls. Configuration, edited in the admin, shown on the portal."""

    municipality = models.OneToOneField(Municipality, on_delete=models.CASCADE, related_name="contact")
    clerk_office = models.CharField(max_length=200, default="Clerk-Treasurer's office")
    clerk_phone = models.CharField(max_length=30)
    clerk_hours = models.CharField(max_length=200, help_text="e.g. Monday–Friday 8 a.m.–4:30 p.m.")
    office_address = models.CharField(max_length=300, blank=True)
    police_name = models.CharField(max_length=200, default="Police (non-emergency)")
    police_phone = models.CharField(max_length=30)
    police_hours = models.CharField(max_length=200, default="24 hours")

    def __str__(self):
        return f"Contacts — {self.municipality}"


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Application(Scoped):
    """A resident's license application. `data` keeps what the resident typed, valid or not, so
    nothing is lost between visits; the token in the emailed link is the resident's only key."""

    class Kind(models.TextChoices):
        NEW = "new", "New license"
        RENEWAL = "renewal", "Renewal"

    class Status(models.TextChoices):
        DRAFT = "draft", _("Not sent yet")
        SUBMITTED = "submitted", _("Waiting for the clerk")
        APPROVED = "approved", _("License issued")
        REJECTED = "rejected", _("Not approved")

    class PaymentStatus(models.TextChoices):
        NONE = "", "Not started"
        AWAITING = "awaiting", "To be paid at the counter or by mailed check"
        ONLINE = "online", "To be paid online"
        PAID = "paid", "Paid"
        DECLINED = "declined", "Declined"

    token = models.CharField(max_length=64, unique=True, default=new_token)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.NEW)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    license_year = models.PositiveIntegerField()
    email = models.EmailField()
    language = models.CharField(
        max_length=8, default="en", help_text="the language the resident applied in: its emails and the license's"
    )
    # When the resident followed the confirmation link of the first email (a renewal's address is
    # the owner's on record, confirmed when it starts). Until then Dogtag emails nothing else.
    email_confirmed_at = models.DateTimeField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    rabies_certificate = models.FileField(upload_to="portal/certificates/", blank=True)
    altered_evidence = models.FileField(upload_to="portal/altered/", blank=True)
    animal = models.ForeignKey(Animal, null=True, blank=True, on_delete=models.PROTECT)
    person = models.ForeignKey(Person, null=True, blank=True, on_delete=models.PROTECT)
    renewal_notice = models.ForeignKey(RenewalNotice, null=True, blank=True, on_delete=models.PROTECT)
    quoted_total = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    payment_provider = models.CharField(max_length=20, blank=True)
    payment_status = models.CharField(max_length=10, choices=PaymentStatus.choices, blank=True, default="")
    payment_reference = models.CharField(max_length=100, blank=True)
    # Paid online: the municipality's card convenience fee on top of `quoted_total`, and when
    # the processor took the money (the receipt's date, whenever the clerk approves).
    convenience_fee = models.DecimalField(max_digits=9, decimal_places=2, default=0)
    paid_at = models.DateTimeField(null=True, blank=True)
    license = models.ForeignKey(License, null=True, blank=True, on_delete=models.PROTECT)
    reject_reason = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)

    class Meta:
        ordering = ["submitted_at", "pk"]
        indexes = [models.Index(fields=["municipality", "status"])]

    def __str__(self):
        return f"Application {self.pk}: {self.data.get('animal_name') or 'a dog'} ({self.license_year})"


class Lookup(models.Model):
    """One served found-dog lookup (refused ones are counted in LookupCounter, not logged)."""

    client_address = models.GenericIPAddressField()
    query = models.CharField(max_length=60)
    matches = models.PositiveIntegerField(default=0)
    refused = models.BooleanField(default=False, help_text="over the rate limit")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["client_address", "at"])]


class LookupCounter(models.Model):
    """Found-dog lookups from one address in one window of DOGTAG_LOOKUP_WINDOW_MINUTES: the
    rate limiter. One upsert counts each attempt (actions._count_attempt), so concurrent lookups
    cannot all read "under the limit"; refused attempts are this count, not a row each."""

    client_address = models.GenericIPAddressField()
    window_start = models.DateTimeField()
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["client_address", "window_start"], name="one_counter_per_address_window")
        ]

    @property
    def refused(self) -> int:
        from django.conf import settings

        return max(0, self.attempts - settings.DOGTAG_LOOKUP_LIMIT)


class UploadCounter(models.Model):
    """Files uploaded on the portal from one address in one window of DOGTAG_UPLOAD_WINDOW_MINUTES:
    counted by one upsert like LookupCounter, so concurrent uploads cannot all read "under the limit"."""

    client_address = models.GenericIPAddressField()
    window_start = models.DateTimeField()
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["client_address", "window_start"], name="one_upload_counter_per_window")
        ]


class ApplicationStartCounter(models.Model):
    """Applications started in one window of DOGTAG_APPLICATION_WINDOW_MINUTES under one key: the
    client's address (`from <address>`) or the address emailed (`to <email>`). Counted by one
    upsert like LookupCounter (actions._count_attempt), so concurrent starts cannot all read
    "under the limit"."""

    key = models.CharField(max_length=300)
    window_start = models.DateTimeField()
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "window_start"], name="one_start_counter_per_window")]


class RabiesReminder(Scoped):
    """The reminder sent for one certificate: at most one, however often the command runs."""

    vaccination = models.OneToOneField(RabiesVaccination, on_delete=models.PROTECT, related_name="reminder")
    person = models.ForeignKey(Person, on_delete=models.PROTECT)
    due_on = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)


class ReminderOptOut(Scoped):
    person = models.OneToOneField(Person, on_delete=models.PROTECT, related_name="reminder_opt_out")
    created_at = models.DateTimeField(auto_now_add=True)
