"""Writing a planned import: bulk inserts, one transaction and one audit event per batch.

Each batch commits its records together with the ImportRow of every source row it wrote, so an
interrupted run leaves whole batches behind and a rerun (which plans again from the database)
skips exactly the rows already written."""

from contextlib import contextmanager
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import connection, transaction
from django.utils import timezone

from dogtag.accounts.models import Role
from dogtag.accounts.scope import require_role
from dogtag.audit.record import record
from dogtag.imports.bulk import Maker, insert
from dogtag.imports.exports import MANIFEST
from dogtag.imports.models import ImportBatch, ImportRow, ImportRun
from dogtag.imports.rolls import Plan
from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Municipality, Ownership, Person, RabiesVaccination, today

IMPORTERS = (Role.CLERK, Role.ADMINISTRATOR)
BATCH_SIZE = 5000
make_ownership, make_row = Maker(Ownership), Maker(ImportRow)


def _pk(ref):
    return ref if isinstance(ref, int) else ref.pk


def run_import(plan: Plan, *, acting_user, municipality, batch_size: int = BATCH_SIZE, progress=None) -> ImportRun:
    require_role(acting_user, municipality.pk, IMPORTERS)
    run = ImportRun.objects.create(
        municipality=municipality,
        file_name=plan.file_name[:300],
        file_sha256=plan.sha256,
        started_by=acting_user,
        rows=plan.rows,
        skipped=plan.already + len(plan.duplicates),
        invalid=len(plan.invalid_lines),
    )
    bar = progress(len(plan.todo)) if progress else None
    for number, start in enumerate(range(0, len(plan.todo), batch_size), start=1):
        chunk = plan.todo[start : start + batch_size]
        _write_batch(run, number, chunk, acting_user=acting_user, municipality=municipality)
        run.written += len(chunk)
        if bar:
            bar.advance(len(chunk))
    run.finished_at = timezone.now()
    ImportRun.objects.filter(pk=run.pk).update(written=run.written, finished_at=run.finished_at)
    return run


@transaction.atomic
def _write_batch(run, number, rows, *, acting_user, municipality) -> ImportBatch:
    m = municipality.pk
    people = {id(r.person): r.person for r in rows if isinstance(r.person, Person) and r.person.pk is None}
    insert(Person, list(people.values()))
    animals = {id(r.animal): r for r in rows if isinstance(r.animal, Animal) and r.animal.pk is None}
    insert(Animal, [r.animal for r in animals.values()])
    start = today()
    insert(
        Ownership,
        [
            make_ownership(
                municipality_id=m,
                animal_id=r.animal.pk,
                person_id=_pk(r.person),
                started_on=r.animal.acquired_on or r.animal.birth_date or start,
            )
            for r in animals.values()
        ],
    )
    vaccinations = []
    licenses = []
    for r in rows:
        if r.vaccination is not None:
            r.vaccination.animal_id = _pk(r.animal)
            vaccinations.append(r.vaccination)
        if r.license is not None:
            r.license.animal_id, r.license.holder_id, r.license.issued_by = _pk(r.animal), _pk(r.person), acting_user
            licenses.append(r.license)
    insert(RabiesVaccination, vaccinations)
    insert(License, licenses)
    batch = ImportBatch.objects.create(
        municipality=municipality,
        run=run,
        number=number,
        rows=len(rows),
        people=len(people),
        animals=len(animals),
        vaccinations=len(vaccinations),
        licenses=len(licenses),
    )
    insert(
        ImportRow,
        [
            make_row(
                municipality_id=m,
                batch_id=batch.pk,
                row_key=r.key,
                line=r.line,
                person_id=_pk(r.person),
                animal_id=_pk(r.animal),
                vaccination_id=r.vaccination.pk if r.vaccination else None,
                license_id=r.license.pk if r.license else None,
            )
            for r in rows
        ],
    )
    record(acting_user=acting_user, action="import.batch", obj=batch)
    return batch


@contextmanager
def _as_recorded(model):
    """Keep the exported `created_at`/`at` times: auto_now(_add) fields would stamp them anew."""
    stamped = [
        (f, f.auto_now, f.auto_now_add)
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now_add", 0) or getattr(f, "auto_now", 0)
    ]
    for f, _, _ in stamped:
        f.auto_now = f.auto_now_add = False
    try:
        yield
    finally:
        for f, now, now_add in stamped:
            f.auto_now, f.auto_now_add = now, now_add


@transaction.atomic
def restore(directory, *, progress=None) -> dict:
    """Read an export (imports/exports.py) into an empty Dogtag: the same rows with the same pks.
    Refuses when the municipality or any of the accounts is already here. Run from the command
    line by whoever runs the deployment, so no acting user and no audit event of its own: the
    export's audit trail comes back as it was."""
    folder = Path(directory)
    manifest = folder / MANIFEST
    if not manifest.exists():
        raise ValidationError(f"{folder} holds no Dogtag export (no {MANIFEST}).")
    names = [line.split("\t")[0] for line in manifest.read_text().splitlines() if line and not line.startswith("#")]
    counts, restored = {}, []
    for name in names:
        with open(folder / name, encoding="utf-8") as f:
            objects = list(serializers.deserialize("jsonl", f))
        if not objects:
            counts[name] = 0
            continue
        model = type(objects[0].object)
        clash = model._default_manager.filter(pk__in=[o.object.pk for o in objects])
        if model is get_user_model():
            clash = model._default_manager.filter(username__in=[o.object.username for o in objects])
            for o in objects:
                o.object.set_unusable_password()
        elif model is Municipality:
            clash = Municipality.objects.filter(slug__in=[o.object.slug for o in objects])
        if clash.exists():
            raise ValidationError(f"{name}: {clash.first()} is already here; restore into an empty Dogtag.")
        with _as_recorded(model):
            model._default_manager.bulk_create([o.object for o in objects], batch_size=2000)
        for o in objects:
            for field, values in (o.m2m_data or {}).items():
                getattr(o.object, field).set(values)
        counts[name] = len(objects)
        restored.append(model)
        if progress:
            progress(model, len(objects))
    # Rows came with their pks: move PostgreSQL's sequences past them.
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), restored):
            cursor.execute(sql)
    return counts
