"""Licensing: the local fee schedule, tag stock, licenses, payments and renewal notices.
A license, tag or payment is voided or replaced, never deleted."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from dogtag.lib.dates import shown
from dogtag.registry.models import Animal, Person, Premises, RabiesVaccination, Scoped


class Voidable(models.Model):
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        abstract = True


class FeeScheduleEntry(Scoped, Voidable):
    """An amount the ordinance leaves to the municipality ("as prescribed in § 173-1"), in
    force from `effective_on` until a later entry for the same key."""

    key = models.CharField(max_length=80, help_text="the local amount the rule pack declares")
    amount = models.DecimalField(max_digits=9, decimal_places=2)
    effective_on = models.DateField()
    authority = models.CharField(max_length=200, help_text="the resolution or section that set it")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["key", "-effective_on"]
        verbose_name_plural = "fee schedule entries"
        constraints = [
            models.UniqueConstraint(
                fields=["municipality", "key", "effective_on"], condition=Q(voided_at=None), name="one_fee_per_day"
            )
        ]

    def __str__(self):
        return f"{self.key.replace('_', ' ').replace('.', ' — ')} ${self.amount} from {shown(self.effective_on)}"


class TagLot(Scoped):
    """A lot of license tags received from the county clerk (s. 174.07)."""

    license_year = models.PositiveIntegerField()
    first_serial = models.PositiveIntegerField()
    last_serial = models.PositiveIntegerField()
    received_on = models.DateField()
    received_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)

    class Meta:
        ordering = ["-license_year", "first_serial"]

    def __str__(self):
        return f"{self.license_year} tags {self.first_serial}–{self.last_serial}"


class Tag(Scoped):
    class Status(models.TextChoices):
        IN_STOCK = "in-stock", "In stock"
        ISSUED = "issued", "Issued"
        VOIDED = "voided", "Voided"
        LOST = "lost", "Lost (replaced)"

    lot = models.ForeignKey(TagLot, on_delete=models.PROTECT, related_name="tags")
    license_year = models.PositiveIntegerField()
    serial = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.IN_STOCK)
    license = models.ForeignKey("License", null=True, blank=True, on_delete=models.PROTECT, related_name="tags")
    # The charge paid for this tag when it replaced a lost one and the fee schedule set a charge.
    replacement_payment = models.ForeignKey(
        "Payment", null=True, blank=True, on_delete=models.PROTECT, related_name="replacement_tags"
    )

    class Meta:
        ordering = ["license_year", "serial"]
        constraints = [
            models.UniqueConstraint(fields=["municipality", "license_year", "serial"], name="tag_once_per_year")
        ]
        indexes = [
            models.Index(fields=["municipality", "license_year", "status", "serial"]),
            # The district's lookup of an issued tag by its serial, any year; partial, so the claim of
            # the next tag in stock keeps the index above.
            models.Index(fields=["municipality", "serial"], name="issued_tags_by_serial", condition=Q(status="issued")),
        ]

    def __str__(self):
        return f"tag {self.serial} ({self.license_year})"


class TagCounter(models.Model):
    """The serial of the last tag the counter handed out in a municipality's license year. A clerk
    takes the next tag in stock after it and moves it on, holding this row until the issue
    commits: the next tag is found from the stock's index at that serial, never by reading past
    the tags already issued (whose old index entries stay until the table is vacuumed)."""

    municipality = models.ForeignKey("registry.Municipality", on_delete=models.PROTECT)
    license_year = models.PositiveIntegerField()
    last_serial = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["municipality", "license_year"], name="one_tag_counter_per_year")
        ]

    def __str__(self):
        return f"Tags of {self.license_year}: last {self.last_serial}"


class Payment(Scoped, Voidable):
    class Method(models.TextChoices):
        CASH = "cash", "Cash"
        CHECK = "check", "Check"
        CARD = "card", "Card"

    payer = models.ForeignKey(Person, null=True, on_delete=models.PROTECT)
    amount = models.DecimalField(max_digits=9, decimal_places=2)
    method = models.CharField(max_length=5, choices=Method.choices)
    check_number = models.CharField(max_length=30, blank=True)
    card_reference = models.CharField(max_length=60, blank=True)
    received_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    # When the money arrived: now at the counter; the processor's time for a card paid online
    # and approved by the clerk later.
    received_at = models.DateTimeField(default=timezone.now)
    # The municipality's own card convenience fee (licensing/charges.py), received on top of
    # `amount`: its own receipt line, not license tax, not remitted to the county (s. 174.08).
    convenience_fee = models.DecimalField(max_digits=9, decimal_places=2, default=0)
    # The receipt's number: 1, 2, 3 ... in each municipality's calendar year ("2026-0042").
    receipt_year = models.PositiveIntegerField(null=True)
    receipt_serial = models.PositiveIntegerField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["municipality", "receipt_year", "receipt_serial"], name="one_receipt_number_per_year"
            )
        ]

    def __str__(self):
        return f"${self.amount} {self.get_method_display().lower()}"

    @property
    def receipt_number(self) -> str:
        return f"{self.receipt_year}-{self.receipt_serial:04d}" if self.receipt_serial else ""

    @property
    def received_by_name(self) -> str:
        return self.received_by.get_full_name() or self.received_by.username


class ReceiptCounter(models.Model):
    """The last receipt number given in a municipality's year. Taking the next one updates this
    row, which holds the other clerks' transactions until the payment commits, so two receipts
    never reach for the same number (counting existing payments would race)."""

    municipality = models.ForeignKey("registry.Municipality", on_delete=models.PROTECT)
    year = models.PositiveIntegerField()
    last = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["municipality", "year"], name="one_receipt_counter_per_year")]

    def __str__(self):
        return f"Receipts of {self.year}: {self.last}"


class Refund(Scoped):
    """Money handed back when a license is voided: on the day it is paid out, in the day's close
    of that day, so the close already deposited never changes."""

    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, related_name="refunds")
    license = models.ForeignKey("License", null=True, blank=True, on_delete=models.PROTECT, related_name="refunds")
    amount = models.DecimalField(max_digits=9, decimal_places=2)
    method = models.CharField(max_length=5, choices=Payment.Method.choices)
    check_number = models.CharField(max_length=30, blank=True)
    reason = models.CharField(max_length=300)
    refunded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    refunded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["refunded_at"]

    def __str__(self):
        return f"${self.amount} refunded by {self.get_method_display().lower()}"


class Revocation(models.TextChoices):
    """Why a multiple-dog license was revoked (a void with a reason category)."""

    REFUSED_INSPECTION = "refused-inspection", "Refused inspection"
    PUBLIC_NUISANCE = "public-nuisance", "Public nuisance"
    NEGLECT = "neglect", "Failure to provide proper food, drink or shelter"


class License(Scoped, Voidable):
    """A dog or cat license for one license year: what s. 174.07(1) says it must state, as it
    stood when issued, with the amounts charged and the citations that produced them."""

    class Kind(models.TextChoices):
        INDIVIDUAL = "individual", "Individual"
        MULTIPLE_DOG = "multiple-dog", "Multiple-dog"

    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.INDIVIDUAL)
    license_year = models.PositiveIntegerField()
    serial = models.PositiveIntegerField()
    animal = models.ForeignKey(Animal, null=True, blank=True, on_delete=models.PROTECT, related_name="licenses")
    holder = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="licenses")
    issued_on = models.DateField()
    expires_on = models.DateField()
    tax = models.DecimalField(max_digits=9, decimal_places=2)
    late_fee = models.DecimalField(max_digits=9, decimal_places=2)
    late_fee_trigger = models.CharField(max_length=20, blank=True)
    free_license = models.BooleanField(default=False)
    payment = models.ForeignKey(Payment, null=True, blank=True, on_delete=models.PROTECT, related_name="licenses")
    vaccination = models.ForeignKey(RabiesVaccination, null=True, blank=True, on_delete=models.PROTECT)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    # What the license states (s. 174.07(1)), as it stood when issued.
    owner_name = models.CharField(max_length=200)
    owner_address = models.CharField(max_length=300)
    animal_name = models.CharField(max_length=100, blank=True)
    species = models.CharField(max_length=10, blank=True)
    sex = models.CharField(max_length=10, blank=True)
    altered = models.BooleanField(default=False)
    breed = models.CharField(max_length=100, blank=True)
    color = models.CharField(max_length=100, blank=True)
    county = models.CharField(max_length=100)
    dogs_authorized = models.PositiveIntegerField(null=True, blank=True)
    citations = models.JSONField(default=list)
    # Only a multiple-dog license has these.
    covered_animals = models.ManyToManyField(Animal, blank=True, related_name="multiple_dog_licenses")
    inspection_consent_on = models.DateField(null=True, blank=True)
    revocation = models.CharField(max_length=20, choices=Revocation.choices, blank=True)

    class Meta:
        ordering = ["-license_year", "serial"]
        constraints = [
            models.UniqueConstraint(
                fields=["animal", "license_year"], condition=Q(voided_at=None), name="one_license_per_animal_year"
            ),
        ]
        indexes = [models.Index(fields=["municipality", "serial"], name="licenses_by_serial")]

    def __str__(self):
        return f"{self.license_year} license {self.serial}"

    @property
    def total(self):
        return self.tax + self.late_fee

    @property
    def current_tag(self):
        return next((t for t in self.tags.all() if t.status == Tag.Status.ISSUED), None)


def own_or_covering(animals) -> Q:
    """`License.objects.filter(own_or_covering(a))`: licenses that are the animal's own or a
    multiple-dog license covering it (only those cover animals); `animals` is an animal's id or a
    list of ids. Asked as license ids from each side's own index: `Q(animal=a) |
    Q(covered_animals=a)` joins the covered animals to every license and reads all of them."""
    lookup = "animal_id__in" if isinstance(animals, (list, tuple, set)) else "animal_id"
    own = License.objects.filter(**{lookup: animals}).order_by().values("pk")
    covered = License.covered_animals.through.objects.filter(**{lookup: animals}).values("license_id")
    return Q(pk__in=own.union(covered, all=True))


class KennelLicense(Scoped, Voidable):
    """Benton § 115-3B: an annual kennel license, applied for, inspected, then approved."""

    class Use(models.TextChoices):
        PERSONAL = "personal", "Personal"
        BUSINESS = "business", "Business"

    class Status(models.TextChoices):
        APPLIED = "applied", "Applied"
        ISSUED = "issued", "Issued"
        REFUSED = "refused", "Refused"

    license_year = models.PositiveIntegerField()
    owner = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="kennel_licenses")
    operator_name = models.CharField("operator's name, if not the owner", max_length=200, blank=True)
    premises = models.ForeignKey(Premises, on_delete=models.PROTECT)
    capacity = models.PositiveIntegerField("kennel capacity")
    description = models.TextField("description of the kennel and facility")
    use = models.CharField(max_length=10, choices=Use.choices)
    signed_on = models.DateField("owner's signature date")
    from_other_structures_ft = models.DecimalField(max_digits=7, decimal_places=1)
    from_lot_lines_ft = models.DecimalField(max_digits=7, decimal_places=1)
    kennel_sq_ft = models.DecimalField(max_digits=8, decimal_places=1)
    privacy_fence = models.BooleanField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.APPLIED)
    renewal = models.BooleanField(default=False)
    fee = models.DecimalField(max_digits=9, decimal_places=2, null=True)
    issued_on = models.DateField(null=True, blank=True)
    expires_on = models.DateField(null=True, blank=True)
    payment = models.ForeignKey(Payment, null=True, blank=True, on_delete=models.PROTECT)
    citations = models.JSONField(default=list)
    dogs_kept = models.PositiveIntegerField("dogs kept when approved", null=True, blank=True)
    refusal_reason = models.CharField(max_length=300, blank=True)

    def __str__(self):
        return f"{self.license_year} kennel license — {self.premises}"


class Inspection(Scoped):
    class Inspector(models.TextChoices):
        HEALTH_OFFICER = "health-officer", "County Health Officer"
        BUILDING_INSPECTOR = "building-inspector", "Building Inspector"
        VETERINARIAN = "veterinarian", "Licensed veterinarian"

    kennel_license = models.ForeignKey(KennelLicense, on_delete=models.PROTECT, related_name="inspections")
    inspector = models.CharField(max_length=20, choices=Inspector.choices)
    inspector_name = models.CharField(max_length=200)
    inspected_on = models.DateField()
    findings = models.TextField(blank=True, help_text="health problems or violations found; empty if none")
    corrected_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["inspected_on"]

    def __str__(self):
        return f"Inspection by {self.inspector_name} ({self.get_inspector_display()}) on {shown(self.inspected_on)}"

    @property
    def open_findings(self):
        return bool(self.findings.strip()) and self.corrected_on is None


class RenewalNotice(Scoped):
    """One animal's renewal notice for a license year; `sequence` is its place in its run (the
    printed order), which the run's PDF chunks are cut by."""

    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="renewal_notices")
    license_year = models.PositiveIntegerField()
    owner = models.ForeignKey(Person, on_delete=models.PROTECT)
    created_at = models.DateTimeField(auto_now_add=True)
    emailed = models.BooleanField(default=False)
    run = models.ForeignKey("RenewalRun", null=True, on_delete=models.PROTECT, related_name="notices")
    sequence = models.PositiveIntegerField(null=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["animal", "license_year"], name="one_notice_per_animal_year")]
        indexes = [models.Index(fields=["run", "sequence"])]


class RenewalRun(Scoped):
    """A clerk's renewal run: its notices are committed at once; the worker then prints them in
    chunks (RenewalChunk) and merges the chunks into `pdf`, a name in the default storage."""

    license_year = models.PositiveIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, help_text="every chunk printed and merged")
    notices_created = models.PositiveIntegerField(default=0)
    emails_queued = models.PositiveIntegerField(default=0)
    pdf = models.CharField(max_length=300, blank=True, help_text="the merged PDF, in the default storage")
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT)
    chunk_size = models.PositiveIntegerField(default=200)
    chunks_total = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"{self.license_year} renewal run {self.pk} ({self.municipality_id})"

    @property
    def chunks_done(self) -> int:
        return sum(1 for c in self.chunks.all() if c.done_at)


class RenewalChunk(Scoped):
    """Notices `first_sequence`..`last_sequence` of a run, printed as one PDF by one task."""

    run = models.ForeignKey(RenewalRun, on_delete=models.PROTECT, related_name="chunks")
    number = models.PositiveIntegerField()
    first_sequence = models.PositiveIntegerField()
    last_sequence = models.PositiveIntegerField()
    pdf = models.CharField(max_length=300, blank=True, help_text="in the default storage")
    emails_queued = models.PositiveIntegerField(default=0)
    done_at = models.DateTimeField(null=True)

    class Meta:
        ordering = ["run", "number"]
        constraints = [models.UniqueConstraint(fields=["run", "number"], name="one_chunk_per_run_number")]

    def __str__(self):
        return f"chunk {self.number} of run {self.run_id}"


class TagReturnList(Scoped):
    """The year-end list of unused and voided tags the clerk returns to the county clerk
    (s. 174.07(3)(b)), stored by the worker on its schedule: one per municipality and year."""

    license_year = models.PositiveIntegerField()
    return_by = models.DateField()
    tags = models.PositiveIntegerField()
    pdf = models.CharField(max_length=300, help_text="in the default storage")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["municipality", "license_year"], name="one_tag_return_list_per_year")
        ]

    def __str__(self):
        return f"{self.license_year} tag return list ({self.municipality_id})"


class ReminderLetters(Scoped):
    """The renewal reminders of one delivery for owners without an email address, or the
    invitations to license of one part of a clinic file's canvassing (imports.LicenseInvitation):
    one PDF, a page each, in the default storage, for the clerk to print and mail."""

    created_at = models.DateTimeField(auto_now_add=True)
    pdf = models.CharField(max_length=300, help_text="in the default storage")
    letters = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.letters} renewal reminder letters ({self.municipality_id})"


class RenewalReminder(Scoped):
    """A reminder owed to an animal's owner `lead_days` from the end of its license's year
    (negative: before; positive: after, still unlicensed). Written by the daily sweep; at most one
    per animal, license year and lead time, however often the sweep runs. The worker then delivers
    it (an outbox email, or a page of the day's letters) or withdraws it, if by then the animal is
    licensed again, no longer active, or no longer this person's."""

    class Channel(models.TextChoices):
        EMAIL = "email", "Email"
        PAPER = "paper", "Printed letter"

    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="renewal_reminders")
    license = models.ForeignKey(License, on_delete=models.PROTECT, related_name="reminders")
    license_year = models.PositiveIntegerField(help_text="the year of the license that runs out")
    lead_days = models.IntegerField()
    due_on = models.DateField()
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="renewal_reminders")
    channel = models.CharField(max_length=5, choices=Channel.choices)
    created_at = models.DateTimeField()
    delivered_at = models.DateTimeField(null=True, blank=True)
    message = models.ForeignKey(
        "outbox.Message", null=True, blank=True, on_delete=models.PROTECT, related_name="renewal_reminders"
    )
    text = models.ForeignKey(
        "outbox.Message",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="renewal_reminder_texts",
        help_text="the text message that also went, to an owner with a live consent to texts",
    )
    letters = models.ForeignKey(
        ReminderLetters, null=True, blank=True, on_delete=models.PROTECT, related_name="reminders"
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_because = models.CharField(max_length=100, blank=True)

    class Meta:
        ordering = ["-due_on", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["animal", "license_year", "lead_days"], name="one_renewal_reminder_per_year_and_lead"
            )
        ]
        indexes = [models.Index(fields=["municipality", "delivered_at", "withdrawn_at"], name="renewal_reminders_due")]

    def __str__(self):
        return f"renewal reminder for animal {self.animal_id}, {self.license_year}, {self.lead_days:+d} days"

    @property
    def when(self) -> str:
        days = abs(self.lead_days)
        side = "before the license year ends" if self.lead_days < 0 else "after the license ran out"
        return f"{days} {'day' if days == 1 else 'days'} {side}"

    @property
    def status(self) -> str:
        if self.withdrawn_at:
            return f"Not sent: {self.withdrawn_because}"
        if self.delivered_at:
            return "Emailed" if self.channel == self.Channel.EMAIL else "Printed for mailing"
        return "Waiting to be sent"
