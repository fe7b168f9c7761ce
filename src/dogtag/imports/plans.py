"""The check's plan, kept for the write: each batch's valid rows with the records they make, as
the check left them (values converted, rules checked, matches made, ids reserved), stored beside
the roll under imports/<sha256> as gzipped JSON lines, a line a batch. Writing a confirmed run
then sends these rows as they are instead of reading and checking the file a second time, for
as long as nothing the check matched against has changed (`changed_since`); once something has,
the write checks the file again from there (imports/actions.py).

The plan is read a batch at a time, so a million-row roll is written in the memory of one batch."""

import gzip
import hashlib
import tempfile
from datetime import date
from decimal import Decimal
from typing import NamedTuple

import orjson
from django.db.models import CharField, Q
from django.db.models.functions import Cast

from dogtag.audit.models import AuditEvent
from dogtag.imports import uploads
from dogtag.imports.models import ImportBatch
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
# certificates, licenses, the municipality's county); an import's batches write them too (a
# run's own batches are no change to its plan: changed_since leaves them out).
MATCHED_ON = (
    Q(object_type__startswith="registry.")
    | Q(object_type__startswith="licensing.")
    | Q(object_type="imports.importbatch")
)


# Every concrete field of each record, in the model's order: the plan's lists and the table's
# columns alike. Dates and amounts are kept as their text, which both engines take as it is.
FIELDS = {model: [f.attname for f in model._meta.concrete_fields] for _, model in RECORDS}


def _encode(value):
    if isinstance(value, (date, Decimal)):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not kept in an import's plan")


class KeptBatch(NamedTuple):
    """One batch of a kept plan as it is written: each row's references (in REFERENCES' order);
    the new records by model, each a list of its FIELDS' values; (person, animal) of each new
    animal's row, in the order of the new animals; and whether a row names an owner or an animal
    that an earlier batch adds."""

    refs: list
    records: dict
    animal_refs: list
    names_earlier: bool


_NAMED = ((REFERENCES.index("person"), Person), (REFERENCES.index("animal"), Animal))


def _names_earlier(refs, added: dict, lowest: dict) -> bool:
    """Whether a row names a person or an animal at or above the lowest id an earlier batch added
    (`lowest`) that is not one this batch adds (`added`). Ids are handed out in increasing order,
    so that takes in every record of an earlier batch (and, to no harm, one added by a clerk
    during the check)."""
    for place, model in _NAMED:
        if lowest[model] is not None:
            if any(r[place] is not None and r[place] >= lowest[model] and r[place] not in added[model] for r in refs):
                return True
    return False


class Writer:
    """Batches of RowPlans written as the check makes them; `close()` stores the plan and
    returns its sha256."""

    def __init__(self):
        self.file = tempfile.TemporaryFile()
        self.zipped = gzip.GzipFile(fileobj=self.file, mode="wb", compresslevel=1)

    def add(self, rows) -> None:
        records = [(attr, FIELDS[model]) for attr, model in RECORDS]
        batch = []
        for r in rows:
            row = [getattr(r, name) for name in REFERENCES]
            for attr, names in records:
                obj = getattr(r, attr)
                row.append(None if obj is None else [obj.__dict__[name] for name in names])
            batch.append(row)
        self.zipped.write(orjson.dumps(batch, default=_encode, option=orjson.OPT_PASSTHROUGH_DATETIME))
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


def read(digest: str):
    """The kept plan's batches in order, as KeptBatches (no model instance is made: the values go
    to the tables as they are)."""
    n, lowest = len(REFERENCES), {model: None for _, model in _NAMED}
    (person, _), (animal, _) = _NAMED
    new_animal = n + 1  # the new animal's place in a row
    with uploads.local_copy(digest) as path, gzip.open(path, "rb") as lines:
        for line in lines:
            rows = orjson.loads(line)
            records = {model: [r[i] for r in rows if r[i] is not None] for i, (_, model) in enumerate(RECORDS, start=n)}
            refs = [r[:n] for r in rows]
            owners = [(r[person], r[animal]) for r in rows if r[new_animal] is not None]
            added = {model: {values[0] for values in records[model]} for model in lowest}
            yield KeptBatch(refs, records, owners, _names_earlier(refs, added, lowest))
            for model, ids in added.items():
                if lowest[model] is None and ids:  # later batches' ids are higher
                    lowest[model] = min(ids)


def latest_event() -> int:
    """The audit trail's place now: the check remembers it, and the write compares."""
    return AuditEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def changed_since(municipality_id, event_id: int, run_id: int) -> bool:
    """Whether anything an import matches on was recorded in the municipality, or the
    municipality itself changed, after `event_id` (every change is an audited action), other
    than the batches of the run `run_id` itself."""
    own_batches = ImportBatch.objects.filter(run_id=run_id).values_list(Cast("pk", CharField()))
    return (
        AuditEvent.objects.filter(pk__gt=event_id)
        .filter(
            Q(MATCHED_ON, municipality_id=municipality_id)
            | Q(object_type="registry.municipality", object_id=str(municipality_id))
        )
        .exclude(object_type="imports.importbatch", object_id__in=own_batches)
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
