"""An import of a municipality's old rolls: a run per file, a batch per transaction, and a row
record per source row whose natural key (a hash of the row as mapped) makes a rerun or a resumed
run add nothing it already added."""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from dogtag.licensing.models import License, ReminderLetters
from dogtag.registry.models import Animal, Person, RabiesVaccination, Scoped


class ImportRun(Scoped):
    """One roll's import. The worker checks the uploaded file first (a dry run: `summary`), the
    clerk confirms what it found, then the worker writes it, beating `heartbeat_at` with each
    batch. It ends finished, failed (the file could not be read) or interrupted (the heartbeat
    stopped: the worker or process was killed), in which case the clerk resumes it from its page."""

    class State(models.TextChoices):
        CHECKING = "checking", "Checking the file"
        CHECKED = "checked", "Checked; waiting for your confirmation"
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        FAILED = "failed", "Failed"
        INTERRUPTED = "interrupted", "Interrupted"

    file_name = models.CharField(max_length=300)
    file_sha256 = models.CharField(max_length=64, help_text="the roll as uploaded, kept under imports/ by this hash")
    mapping_sha256 = models.CharField(max_length=64, blank=True)
    encoding = models.CharField(max_length=20, blank=True, help_text="the encoding the clerk chose; found if empty")
    read_as = models.CharField(max_length=60, blank=True)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rows = models.PositiveIntegerField(default=0)
    written = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0, help_text="already imported or repeated in the file")
    invalid = models.PositiveIntegerField(default=0)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    summary = models.JSONField(null=True, blank=True, help_text="what the check found: counts and first problems")
    confirmed_at = models.DateTimeField(null=True, blank=True)
    plan_sha256 = models.CharField(
        max_length=64, blank=True, help_text="the check's plan, kept under imports/ for the write (imports/plans.py)"
    )
    checked_as_of = models.BigIntegerField(
        null=True, blank=True, help_text="the audit trail's last event when the check began (the write compares)"
    )
    resumed = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self):
        return f"Import of {self.file_name} ({self.started_at:%Y-%m-%d %H:%M})"

    @property
    def state(self) -> "ImportRun.State":
        if self.finished_at:
            return self.State.FINISHED
        if self.error:
            return self.State.FAILED
        if self.summary is not None and self.confirmed_at is None:
            return self.State.CHECKED
        if self.heartbeat_at is None:
            return self.State.QUEUED if self.confirmed_at else self.State.CHECKING
        if timezone.now() - self.heartbeat_at >= timedelta(seconds=settings.DOGTAG_IMPORT_STALE_SECONDS):
            return self.State.INTERRUPTED
        return self.State.RUNNING if self.confirmed_at else self.State.CHECKING

    @property
    def percent(self) -> int:
        return min(100, round(100 * (self.written + self.skipped + self.invalid) / self.rows)) if self.rows else 0


class ImportBatch(Scoped):
    run = models.ForeignKey(ImportRun, on_delete=models.PROTECT, related_name="batches")
    number = models.PositiveIntegerField()
    rows = models.PositiveIntegerField()
    people = models.PositiveIntegerField(default=0)
    animals = models.PositiveIntegerField(default=0)
    vaccinations = models.PositiveIntegerField(default=0)
    licenses = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "number"]

    def __str__(self):
        return f"Import batch {self.number} of {self.run.file_name}: {self.rows} rows"


_RECORD_OF = {"db_constraint": False, "db_index": False}


class ImportRow(Scoped):
    batch = models.ForeignKey(ImportBatch, on_delete=models.PROTECT, related_name="import_rows")
    row_key = models.CharField(max_length=64, help_text="sha256 of the row as mapped")
    line = models.PositiveIntegerField()
    # What the row made. A record of the write, like an audit event's object id, made in the same
    # transaction as the records it names; nothing looks rows up by them and no record is ever
    # deleted, so the database neither checks nor indexes them (four checks and four index
    # entries a source row, a fifth of an import's write on PostgreSQL: bench/import.py).
    person = models.ForeignKey(Person, null=True, on_delete=models.PROTECT, related_name="+", **_RECORD_OF)
    animal = models.ForeignKey(Animal, null=True, on_delete=models.PROTECT, related_name="+", **_RECORD_OF)
    vaccination = models.ForeignKey(
        RabiesVaccination, null=True, on_delete=models.PROTECT, related_name="+", **_RECORD_OF
    )
    license = models.ForeignKey(License, null=True, on_delete=models.PROTECT, related_name="+", **_RECORD_OF)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["municipality", "row_key"], name="import_row_once")]


class Clinic(Scoped):
    """A veterinary clinic that reports its month's rabies certificates to the municipality. Its
    export's columns are mapped once (Dogtag's column -> the clinic's header, imports/clinics.py)
    and remembered for its next file."""

    name = models.CharField(max_length=200)
    columns = models.JSONField(default=dict, blank=True, help_text="Dogtag's column -> the clinic's header")
    date_format = models.CharField(max_length=20, default="%m/%d/%Y")
    veterinarians = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="clinics",
        help_text="the clinic's veterinarians: their uploads are the clinic's, without naming it",
    )

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["municipality", "name"], name="clinic_name_once")]

    def __str__(self):
        return self.name


class ClinicFile(Scoped):
    """One clinic's file of rabies certificates: uploaded, its columns mapped, checked by the
    worker (each row matched to an animal and its owner, or listed with why not), confirmed, then
    written by the worker through the certificate action."""

    class State(models.TextChoices):
        MAPPING = "mapping", "Waiting for its columns to be mapped"
        CHECKING = "checking", "Checking the file"
        CHECKED = "checked", "Checked; waiting for your confirmation"
        WRITING = "writing", "Recording the certificates"
        FINISHED = "finished", "Finished"
        FAILED = "failed", "Failed"

    clinic = models.ForeignKey(Clinic, on_delete=models.PROTECT, related_name="files")
    file_name = models.CharField(max_length=300)
    file_sha256 = models.CharField(max_length=64, help_text="the file as uploaded, kept under imports/ by this hash")
    header = models.JSONField(default=list, help_text="the file's column headers, as read on upload")
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    uploaded_at = models.DateTimeField(auto_now_add=True)
    mapped_at = models.DateTimeField(null=True, blank=True)
    summary = models.JSONField(null=True, blank=True, help_text="what the check found: matches, unmatched, problems")
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    written = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-uploaded_at"]

    def __str__(self):
        return f"{self.clinic}'s certificates in {self.file_name} ({self.uploaded_at:%Y-%m-%d %H:%M})"

    @property
    def state(self) -> "ClinicFile.State":
        if self.error:
            return self.State.FAILED
        if self.finished_at:
            return self.State.FINISHED
        if self.confirmed_at:
            return self.State.WRITING
        if self.summary is not None:
            return self.State.CHECKED
        return self.State.CHECKING if self.mapped_at else self.State.MAPPING


class LicenseInvitation(Scoped):
    """An invitation to license an animal a clinic's file showed vaccinated with no license in
    force: an outbox email, or a page of a printed letter in the clerk's print queue for an owner
    without an email address, with the fee the law computes on the day it is sent and a renewal
    code. At most one per animal and license year, however often the clerk asks."""

    class Channel(models.TextChoices):
        EMAIL = "email", "Email"
        PAPER = "paper", "Printed letter"

    clinic_file = models.ForeignKey(ClinicFile, on_delete=models.PROTECT, related_name="invitations")
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="license_invitations")
    license_year = models.PositiveIntegerField()
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="license_invitations")
    channel = models.CharField(max_length=5, choices=Channel.choices)
    fee = models.DecimalField(
        max_digits=8, decimal_places=2, null=True, blank=True, help_text="what licensing cost on the day it was sent"
    )
    code = models.CharField(max_length=8, help_text="the renewal code it carries (registry.RenewalCode)")
    sent_at = models.DateTimeField()
    message = models.ForeignKey(
        "outbox.Message", null=True, blank=True, on_delete=models.PROTECT, related_name="license_invitations"
    )
    letters = models.ForeignKey(
        ReminderLetters, null=True, blank=True, on_delete=models.PROTECT, related_name="license_invitations"
    )

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["animal", "license_year"], name="one_license_invitation_per_animal_year")
        ]

    def __str__(self):
        return f"invitation to license animal {self.animal_id} for {self.license_year}"
