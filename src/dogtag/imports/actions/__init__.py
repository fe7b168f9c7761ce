"""Writing an import: the roll streamed batch by batch, each batch one transaction and one audit
event, and a restore of an export.

Each batch commits its records together with the ImportRow of every source row it wrote, so an
interrupted run leaves whole batches behind and resuming it (which plans again from the database)
skips exactly the rows already written. A run beats a heartbeat with each batch; one whose
heartbeat stopped (its worker or process was killed) shows as interrupted and can be resumed.

The worker's check keeps its plan (imports/plans.py) and the write sends it as it stands; where
something the check matched against was recorded in the meantime, the write checks the file again
from that batch on, as it would without a kept plan."""

import hashlib
import threading
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.files.storage import default_storage
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from dogtag.accounts.models import Role
from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.models import AuditEvent
from dogtag.audit.record import record
from dogtag.imports import plans, uploads
from dogtag.imports.bulk import insert, insert_rows, send, write_rows
from dogtag.imports.exports import CHECKSUMS, FILES, MANIFEST, safe_name, sha256_of
from dogtag.imports.matching import recorded
from dogtag.imports.models import ImportBatch, ImportRow, ImportRun
from dogtag.imports.rolls import BATCH_SIZE, Mapping, Plan, Planner, RollError
from dogtag.lib import collector
from dogtag.lib.dates import today
from dogtag.lib.tasks import enqueue
from dogtag.lib.threads import each_in_turn
from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Municipality, Ownership, Person, RabiesVaccination

IMPORTERS = (Role.CLERK, Role.ADMINISTRATOR)


def _enqueue(task: str, run) -> None:
    """The worker takes the run once this transaction commits."""
    enqueue(f"dogtag.imports.tasks.{task}", run.pk, task_name=f"import {run.pk}: {task}")


@transaction.atomic
def upload_roll(municipality, digest, name, *, acting_user, mapping_sha256="", encoding="") -> ImportRun:
    """A roll uploaded (kept by imports/uploads.py under `digest`) for the worker to check."""
    require_role(acting_user, municipality.pk, IMPORTERS)
    run = ImportRun.objects.create(
        municipality=municipality,
        file_name=name[:300],
        file_sha256=digest,
        mapping_sha256=mapping_sha256,
        encoding=encoding,
        started_by=acting_user,
    )
    record(acting_user=acting_user, action=Action.IMPORT_UPLOAD, obj=run)
    _enqueue("check", run)
    return run


def summary(found) -> dict:
    """What a check found, as the run keeps it (JSON): counts, and the first problems."""
    counts = [
        "rows", "valid", "already", "repeated", "invalid", "problems_found", "owners_new", "owners_matched",
        "animals_new", "animals_matched", "vaccinations_new", "licenses_new",
    ]  # fmt: skip
    return {
        **{name: getattr(found, name) for name in counts},
        "read_as": found.read_as,
        "duplicates": found.duplicates,
        "problems": [[p.line, p.column, p.value[:200], p.rule] for p in found.problems],
    }


def check_roll(run, path, mapping: Mapping | None = None) -> Plan:
    """The dry run of `run`'s roll (in the worker), kept on the run for the clerk to confirm."""
    if not _claim(run):
        raise ValidationError("This import is already being checked by another process.")
    try:
        planner = Planner(run.municipality, path, run.file_name, mapping, keep=True, encoding=run.encoding)
        with collector.paused():
            for _ in planner.batches():
                _beat(run)
    except RollError as e:
        fail(run, str(e))
        raise
    found = planner.plan
    ImportRun.objects.filter(pk=run.pk).update(
        summary=summary(found),
        rows=found.rows,
        read_as=found.read_as,
        plan_sha256=found.kept,
        checked_as_of=found.as_of,
        heartbeat_at=timezone.now(),
    )
    return found


@transaction.atomic
def confirm_import(run, *, acting_user) -> ImportRun:
    """The clerk confirms what the check found: the worker writes the valid rows."""
    require_role(acting_user, run.municipality_id, IMPORTERS)
    run = ImportRun.objects.select_for_update().get(pk=run.pk)
    if run.state != ImportRun.State.CHECKED:
        raise ValidationError(f"This import is {run.state.label.lower()}; only a checked import is confirmed.")
    run.confirmed_at, run.heartbeat_at = timezone.now(), None
    ImportRun.objects.filter(pk=run.pk).update(confirmed_at=run.confirmed_at, heartbeat_at=None)
    record(acting_user=acting_user, action=Action.IMPORT_CONFIRM, obj=run)
    _enqueue("write", run)
    return run


@transaction.atomic
def start_import(municipality, found, *, acting_user, digest, mapping_sha256="", encoding="") -> ImportRun:
    """A run the clerk confirmed from a dry run made here (the command line), written at once."""
    require_role(acting_user, municipality.pk, IMPORTERS)
    run = ImportRun.objects.create(
        municipality=municipality,
        file_name=found.file_name[:300],
        file_sha256=digest,
        mapping_sha256=mapping_sha256,
        encoding=encoding,
        read_as=found.read_as,
        started_by=acting_user,
        rows=found.rows,
        summary=summary(found),
        plan_sha256=found.kept,
        checked_as_of=found.as_of,
        confirmed_at=timezone.now(),
    )
    record(acting_user=acting_user, action=Action.IMPORT_CONFIRM, obj=run)
    return run


@transaction.atomic
def resume_import(run, *, acting_user) -> ImportRun:
    """Let an interrupted run continue: its check again, or its writing from the last committed
    batch (the rows of committed batches are recorded, so nothing is written twice)."""
    require_role(acting_user, run.municipality_id, IMPORTERS)
    run = ImportRun.objects.select_for_update().get(pk=run.pk)
    if run.state != ImportRun.State.INTERRUPTED:
        raise ValidationError(f"This import is {run.state.label.lower()}; only an interrupted import is resumed.")
    run.heartbeat_at = None
    run.resumed += 1
    ImportRun.objects.filter(pk=run.pk).update(heartbeat_at=None, resumed=run.resumed)
    record(acting_user=acting_user, action=Action.IMPORT_RESUME, obj=run)
    _enqueue("write" if run.confirmed_at else "check", run)
    return run


def run_import(
    run, path, mapping: Mapping | None = None, *, acting_user, batch_size: int = BATCH_SIZE, progress=None
) -> ImportRun:
    """Write the valid rows of the roll at `path` into `run`'s municipality, batch by batch: the
    check's kept plan as it stands while nothing it matched against has changed, else (from the
    first batch where something has) the file checked again as it is written."""
    municipality = run.municipality
    require_role(acting_user, municipality.pk, IMPORTERS)
    if not _claim(run):
        raise ValidationError("This import is already being written by another process.")
    bar = progress(run.rows) if progress else None
    number = run.batches.order_by("-number").values_list("number", flat=True).first() or 0
    _beat(run)
    try:
        with collector.paused():
            number, done = _write_plan(run, number, acting_user=acting_user, bar=bar)
            if done:
                found = run.summary
                rows, skipped, invalid = found["rows"], found["already"] + found["repeated"], found["invalid"]
            else:
                planner = Planner(
                    municipality, path, run.file_name, mapping, write=True, encoding=run.encoding, run=run
                )
                for todo in planner.batches(batch_size):
                    if todo:
                        number += 1
                        _write_batch(run, number, todo, acting_user=acting_user)
                    _beat(run)
                    if bar:
                        bar.advance(max(0, planner.plan.rows - bar.done))
                found = planner.plan
                rows, skipped, invalid = found.rows, found.already + found.repeated, found.invalid
    except RollError as e:  # the file changed under the run, or cannot be read past a point
        fail(run, str(e))
        raise
    run.rows, run.skipped, run.invalid, run.finished_at = rows, skipped, invalid, timezone.now()
    ImportRun.objects.filter(pk=run.pk).update(
        rows=run.rows, skipped=run.skipped, invalid=run.invalid, finished_at=run.finished_at
    )
    run.refresh_from_db(fields=["written"])  # counted by each batch as it committed
    return run


def _write_plan(run, number, *, acting_user, bar) -> tuple[int, bool]:
    """The check's kept plan written batch by batch (imports/plans.py); (the last batch's
    number, whether the whole plan was written). It stops before the first batch where
    something the check matched against was recorded since, for the file to be checked again;
    a batch this run already wrote (it was interrupted) is passed over. On PostgreSQL the batches
    go over `_writers()` connections at once, numbered as they are written."""
    if not run.plan_sha256 or run.checked_as_of is None or not plans.intact(run.plan_sha256):
        return number, False
    lock, last = threading.Lock(), [number]

    def write_batch(todo, earlier_finished) -> bool:
        with transaction.atomic():
            if plans.changed_since(run.municipality_id, run.checked_as_of, run.pk):
                return False
            if not recorded(run.municipality_id, [todo.refs[0][1]]):
                with lock:
                    last[0] += 1
                    n = last[0]
                _write_kept_batch(
                    run, n, todo, acting_user=acting_user, after=earlier_finished if todo.names_earlier else None
                )
        _beat(run)
        if bar:
            with lock:
                bar.advance(len(todo.refs))
        return True

    batches = plans.read(run.plan_sha256)
    try:
        done = each_in_turn(write_batch, batches, _writers())
    finally:
        batches.close()
    return last[0], done


def _writers() -> int:
    """Connections writing a kept plan's batches at once: PostgreSQL checks one batch's foreign
    keys while another's rows are sent. One on SQLite (one writer at a time), and one inside a
    caller's transaction, which every batch must then join."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return 1
    return settings.DOGTAG_IMPORT_WRITERS


def _claim(run) -> bool:
    """One writer per run: the run is taken only if nobody beat its heartbeat since we read it."""
    now = timezone.now()
    taken = ImportRun.objects.filter(pk=run.pk, finished_at=None, heartbeat_at=run.heartbeat_at).update(
        heartbeat_at=now, error=""
    )
    run.heartbeat_at = now
    run.written = ImportRun.objects.values_list("written", flat=True).get(pk=run.pk)
    return bool(taken)


def _beat(run):
    run.heartbeat_at = timezone.now()
    ImportRun.objects.filter(pk=run.pk).update(heartbeat_at=run.heartbeat_at)


def fail(run, message: str) -> None:
    """The run stops with a message the clerk reads on its page (the file could not be read), and
    its stored files (the roll, its mapping, the check's plan) are deleted once that is committed,
    each unless another import not failed refers to the same file (they are kept by content hash:
    imports/uploads.py). A failed run is never resumed, so nothing reads them again."""
    ImportRun.objects.filter(pk=run.pk).update(error=message[:2000], heartbeat_at=timezone.now())
    transaction.on_commit(lambda: _delete_files_of_failed(run.pk))


def _delete_files_of_failed(run_id) -> None:
    found = ImportRun.objects.filter(pk=run_id).exclude(error="")
    digests = {d for row in found.values_list("file_sha256", "mapping_sha256", "plan_sha256") for d in row if d}
    others = ImportRun.objects.exclude(pk=run_id).filter(error="")
    for digest in digests:
        if not others.filter(Q(file_sha256=digest) | Q(mapping_sha256=digest) | Q(plan_sha256=digest)).exists():
            uploads.delete(digest)


@transaction.atomic
def _write_batch(run, number, rows, *, acting_user) -> AuditEvent:
    """One batch of RowPlans (the file checked as it is written): its records, its row records and
    its audit event (returned), in one transaction."""
    people = [r.new_person for r in rows if r.new_person is not None]
    insert(Person, people)
    animals = [r for r in rows if r.new_animal is not None]
    insert(Animal, [r.new_animal for r in animals])
    vaccinations = [r.new_vaccination for r in rows if r.new_vaccination is not None]
    insert(RabiesVaccination, vaccinations)
    licenses = [r.new_license for r in rows if r.new_license is not None]
    for lic in licenses:
        lic.issued_by_id = acting_user.pk
    insert(License, licenses)
    return _record_batch(
        run,
        number,
        [(r.line, r.key, r.person, r.animal, r.vaccination, r.license) for r in rows],
        [(r.person, r.animal, r.new_animal.acquired_on or r.new_animal.birth_date) for r in animals],
        (len(people), len(animals), len(vaccinations), len(licenses)),
        acting_user=acting_user,
    )


_ISSUED_BY = plans.FIELDS[License].index("issued_by_id")
_ACQUIRED, _BORN = (plans.FIELDS[Animal].index(name) for name in ("acquired_on", "birth_date"))


@transaction.atomic
def _write_kept_batch(run, number, kept, *, acting_user, after=None) -> AuditEvent:
    """One batch of a kept plan (plans.KeptBatch), sent as it stands, in one transaction; `after`
    waits for the batches before it, where it names what they add (each_in_turn)."""
    now = timezone.now()
    for values in kept.records[License]:
        values[_ISSUED_BY] = acting_user.pk
    for model, rows in kept.records.items():
        send(model, rows, now)
    return _record_batch(
        run,
        number,
        kept.refs,
        [
            (person, animal, a[_ACQUIRED] or a[_BORN])
            for (person, animal), a in zip(kept.animal_refs, kept.records[Animal], strict=True)
        ],
        tuple(len(kept.records[model]) for model in (Person, Animal, RabiesVaccination, License)),
        acting_user=acting_user,
        after=after,
    )


def _record_batch(run, number, refs, owners, counts, *, acting_user, after=None) -> AuditEvent:
    """What every batch writes beside its records: the new animals' ownerships (person, animal,
    since when), the batch, the record of each source row (`refs`: line, key, person, animal,
    vaccination, license), the run's count and the audit event.

    Batches written at once on PostgreSQL: a batch that names an owner or a dog an earlier batch
    adds can find it by its foreign keys only once that batch has committed, so they are checked
    after `after()` (the wait for it); and before the run's row is taken for its count, so that
    the next batch waits on that row only for this one's commit, not for its checks."""
    m, start = run.municipality_id, today()
    insert_rows(
        Ownership,
        ("municipality_id", "person_id", "animal_id", "started_on"),
        [(m, person, animal, since or start) for person, animal, since in owners],
    )
    people, animals, vaccinations, licenses = counts
    batch = ImportBatch.objects.create(
        municipality_id=m,
        run=run,
        number=number,
        rows=len(refs),
        people=people,
        animals=animals,
        vaccinations=vaccinations,
        licenses=licenses,
    )
    insert_rows(
        ImportRow,
        ("municipality_id", "batch_id", "line", "row_key", "person_id", "animal_id", "vaccination_id", "license_id"),
        [(m, batch.pk, *ref) for ref in refs],
    )
    if after is not None:
        after()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    # The count moves with its rows: a worker killed after this commit leaves them counted.
    ImportRun.objects.filter(pk=run.pk).update(written=F("written") + len(refs))
    return record(acting_user=acting_user, action=Action.IMPORT_BATCH, obj=batch)


def _restore_rows(model, objects) -> None:
    """The rows as exported, every value as recorded: auto_now(_add) fields keep their exported
    times because the values are sent as they are, not through the field's `pre_save`."""
    fields = model._meta.concrete_fields
    rows = [[f.get_db_prep_save(getattr(o.object, f.attname), connection) for f in fields] for o in objects]
    for start in range(0, len(rows), 2000):
        write_rows(model._meta.db_table, [f.column for f in fields], rows[start : start + 2000])
    for m2m in model._meta.many_to_many:
        through = m2m.remote_field.through
        source, target = m2m.m2m_column_name(), m2m.m2m_reverse_name()
        pairs = [[o.object.pk, pk] for o in objects for pk in (o.m2m_data or {}).get(m2m.name, [])]
        if pairs:
            write_rows(through._meta.db_table, [source, target], pairs)


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
    files = _checked_files(folder)
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
        _restore_rows(model, objects)
        counts[name] = len(objects)
        restored.append(model)
        if progress:
            progress(model, len(objects))
    # Rows came with their pks: move the sequences past them (PostgreSQL; SQLite's AUTOINCREMENT
    # counter follows explicit ids by itself).
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), restored):
            cursor.execute(sql)
    for name, path in files:
        _store(name, path)
    counts[CHECKSUMS] = len(files)
    return counts


def _checked_files(folder: Path) -> list[tuple[str, Path]]:
    """The export's stored files as (storage name, path in the export), each checked against its
    listed SHA-256 before anything is restored; refused, naming every file that fails, if any is
    missing, altered or already in this Dogtag's storage with other content."""
    listed = folder / CHECKSUMS
    if not listed.exists():
        return []  # an export made before files were exported: rows only
    files, failed = [], []
    for number, line in enumerate(listed.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        expected, _, relative = line.partition("  ")
        name = relative.removeprefix(f"{FILES}/")
        if not relative.startswith(f"{FILES}/") or not safe_name(name) or len(expected) != 64:
            failed.append(f"line {number} of {CHECKSUMS} is not a checksum and a file under {FILES}/")
            continue
        path = folder / relative
        if not path.is_file():
            failed.append(f"{name}: missing from the export")
        elif sha256_of(path) != expected:
            failed.append(f"{name}: its SHA-256 does not match {CHECKSUMS} (the copy is damaged or altered)")
        elif default_storage.exists(name) and not _same(name, expected):
            failed.append(f"{name}: already in this Dogtag's storage with other content")
        else:
            files.append((name, path))
    if failed:
        raise ValidationError(
            f"Nothing was restored: {len(failed)} stored file(s) failed their check — " + "; ".join(failed) + "."
        )
    return files


def _same(name: str, expected: str) -> bool:
    digest = hashlib.sha256()
    with default_storage.open(name, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest() == expected


def _store(name: str, path: Path) -> None:
    """The file at its own storage name (the records name it so), unless it is already there."""
    if default_storage.exists(name):
        return
    with open(path, "rb") as f:
        saved = default_storage.save(name, File(f))
    if saved != name:
        raise ValidationError(f"{name} was stored as {saved}; restore into an empty Dogtag.")
