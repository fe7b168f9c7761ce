"""The check's plan, kept for the write: each batch's valid rows with the records they make, as
the check left them (values converted, rules checked, matches made, ids reserved), stored beside
the roll under imports/<sha256> as gzipped JSON lines, a line a batch. Writing a confirmed run
then sends these rows as they are instead of reading and checking the file a second time, for
as long as nothing the check matched against has changed (`changed_since`); once something has,
the write checks the file again from there (imports/actions.py).

The plan is read a batch at a time, so a million-row roll is written in the memory of one batch."""

import gzip
import hashlib
import json
import tempfile
from datetime import date
from decimal import Decimal

from django.db import models
from django.db.models import Q
from django.db.models.base import ModelState

from dogtag.audit.models import AuditEvent
from dogtag.imports import uploads
from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Person, RabiesVaccination

RECORDS = (
    ("new_person", Person),
    ("new_animal", Animal),
    ("new_vaccination", RabiesVaccination),
    ("new_license", License),
)
REFERENCES = ("line", "key", "person", "animal", "vaccination", "license")
# What an import matches on lives in these apps' records (owners, animals, ownerships,
# certificates, licenses, the municipality's county); an import's batches write them too (the
# write moves its own place past each batch it writes).
MATCHED_ON = (
    Q(object_type__startswith="registry.")
    | Q(object_type__startswith="licensing.")
    | Q(object_type="imports.importbatch")
)


def _fields(model) -> tuple[list, list]:
    """A model's attnames in the plan's order, and (position, how its JSON value comes back) of
    the dates and amounts among them (the rest are JSON's own)."""
    names, decoders = [], []
    for i, f in enumerate(model._meta.concrete_fields):
        names.append(f.attname)
        if isinstance(f, models.DateTimeField):
            continue  # auto_now(_add): stamped when the batch is written (imports/bulk.py)
        if isinstance(f, models.DateField):
            decoders.append((i, date.fromisoformat))
        elif isinstance(f, models.DecimalField):
            decoders.append((i, Decimal))
    return names, decoders


FIELDS = {model: _fields(model) for _, model in RECORDS}


def _encode(value):
    if isinstance(value, (date, Decimal)):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not kept in an import's plan")


def _made(model, names, decoders, values):
    """The unsaved record as the check made it (every concrete field is in the plan)."""
    for i, decode in decoders:
        if values[i] is not None:
            values[i] = decode(values[i])
    obj = model.__new__(model)
    obj._state = ModelState()
    obj.__dict__.update(zip(names, values, strict=True))
    return obj


class Writer:
    """Batches of RowPlans written as the check makes them; `close()` stores the plan and
    returns its sha256."""

    def __init__(self):
        self.file = tempfile.TemporaryFile()
        self.zipped = gzip.GzipFile(fileobj=self.file, mode="wb", compresslevel=1)

    def add(self, rows) -> None:
        records = [(attr, FIELDS[model][0]) for attr, model in RECORDS]
        batch = []
        for r in rows:
            row = [getattr(r, name) for name in REFERENCES]
            for attr, names in records:
                obj = getattr(r, attr)
                row.append(None if obj is None else [obj.__dict__[name] for name in names])
            batch.append(row)
        self.zipped.write(json.dumps(batch, default=_encode, separators=(",", ":")).encode())
        self.zipped.write(b"\n")

    def discard(self) -> None:
        self.zipped.close()
        self.file.close()

    def close(self) -> str:
        self.zipped.close()
        self.file.seek(0)
        try:
            return uploads.keep(self.file)
        finally:
            self.file.close()


def read(digest: str, row_plan):
    """The kept plan's batches in order, each a list of `row_plan`s (rolls.RowPlan)."""
    records = [(attr, model, *FIELDS[model]) for attr, model in RECORDS]
    n = len(REFERENCES)
    with uploads.local_copy(digest) as path, gzip.open(path, "rb") as lines:
        for line in lines:
            batch = []
            for r in json.loads(line):
                made = {
                    attr: None if values is None else _made(model, names, decoders, values)
                    for (attr, model, names, decoders), values in zip(records, r[n:], strict=True)
                }
                batch.append(row_plan(*r[:n], **made))
            yield batch


def latest_event() -> int:
    """The audit trail's place now: the check remembers it, and the write compares."""
    return AuditEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def changed_since(municipality_id, event_id: int) -> bool:
    """Whether anything an import matches on was recorded in the municipality, or the
    municipality itself changed, after `event_id` (every change is an audited action)."""
    return (
        AuditEvent.objects.filter(pk__gt=event_id)
        .filter(
            Q(MATCHED_ON, municipality_id=municipality_id)
            | Q(object_type="registry.municipality", object_id=str(municipality_id))
        )
        .exists()
    )


def intact(digest: str) -> bool:
    """Whether the stored plan is there and still the bytes its name says (the write trusts what
    the check found, so a plan changed in storage is not written: the file is checked again)."""
    if not uploads.exists(digest):
        return False
    sha = hashlib.sha256()
    with uploads.local_copy(digest) as path, open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            sha.update(chunk)
    return sha.hexdigest() == digest
