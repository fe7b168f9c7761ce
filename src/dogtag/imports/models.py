"""An import of a municipality's old rolls: a run per file, a batch per transaction, and a row
record per source row whose natural key (a hash of the row as mapped) makes a rerun or a resumed
run add nothing it already added."""

from django.conf import settings
from django.db import models

from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Person, RabiesVaccination, Scoped


class ImportRun(Scoped):
    file_name = models.CharField(max_length=300)
    file_sha256 = models.CharField(max_length=64)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rows = models.PositiveIntegerField(default=0)
    written = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0, help_text="already imported or repeated in the file")
    invalid = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self):
        return f"Import of {self.file_name} ({self.started_at:%Y-%m-%d %H:%M})"


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


class ImportRow(Scoped):
    batch = models.ForeignKey(ImportBatch, on_delete=models.PROTECT, related_name="import_rows")
    row_key = models.CharField(max_length=64, help_text="sha256 of the row as mapped")
    line = models.PositiveIntegerField()
    person = models.ForeignKey(Person, null=True, on_delete=models.PROTECT, related_name="+")
    animal = models.ForeignKey(Animal, null=True, on_delete=models.PROTECT, related_name="+")
    vaccination = models.ForeignKey(RabiesVaccination, null=True, on_delete=models.PROTECT, related_name="+")
    license = models.ForeignKey(License, null=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["municipality", "row_key"], name="import_row_once")]
