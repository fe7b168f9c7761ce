"""A clinic's certificate file: uploaded by the clinic's veterinarian or by the clerk for it, its
columns mapped (and remembered for the clinic), checked by the worker, confirmed, then written by
the worker through the registry's certificate action, a batch a transaction."""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag.accounts.models import Role
from dogtag.accounts.scope import has_role, require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import record, snapshot
from dogtag.imports.clinics import Check, mapping_problems
from dogtag.imports.models import Clinic, ClinicFile
from dogtag.lib.tasks import enqueue
from dogtag.registry.actions import record_certificates
from dogtag.registry.models import today

UPLOADERS = (Role.CLERK, Role.VETERINARIAN, Role.ADMINISTRATOR)
WRITE_BATCH = 500


def _enqueue(task: str, clinic_file) -> None:
    enqueue(f"dogtag.imports.tasks.{task}", clinic_file.pk, task_name=f"clinic file {clinic_file.pk}: {task}")


def _locked(clinic_file, state) -> ClinicFile:
    clinic_file = ClinicFile.objects.select_for_update().select_related("clinic").get(pk=clinic_file.pk)
    if clinic_file.state != state:
        raise ValidationError(f"This file is {clinic_file.state.label.lower()}; it cannot be {state.label.lower()}.")
    return clinic_file


def own_clinic(user, municipality) -> Clinic | None:
    """The clinic a veterinarian's account is tied to in the municipality, whose files are the
    only ones the veterinarian uploads; None for a clerk or an administrator, who name the clinic
    they upload for, and for a veterinarian tied to none."""
    if has_role(user, municipality.pk, (Role.CLERK, Role.ADMINISTRATOR)):
        return None
    return Clinic.objects.filter(municipality=municipality, veterinarians=user).order_by("pk").first()


@transaction.atomic
def upload_clinic_file(municipality, *, digest, name, header, acting_user, clinic_name="") -> ClinicFile:
    """A clinic's file kept (imports/uploads.py) with its header, for its columns to be mapped:
    the veterinarian's own clinic, or the clinic the clerk names."""
    require_role(acting_user, municipality.pk, UPLOADERS)
    clinic = own_clinic(acting_user, municipality)
    clinic_name = " ".join(clinic_name.split())
    if clinic is None and not clinic_name:
        raise ValidationError({"clinic": "Name the clinic whose certificates these are."})
    if not [h for h in header if h]:
        raise ValidationError({"certificates": f"{name} has no header line naming its columns."})
    if clinic is None:
        clinic = Clinic.objects.filter(municipality=municipality, name__iexact=clinic_name).first()
    if clinic is None:
        clinic = Clinic.objects.create(municipality=municipality, name=clinic_name[:200])
    clinic_file = ClinicFile.objects.create(
        municipality=municipality,
        clinic=clinic,
        file_name=name[:300],
        file_sha256=digest,
        header=header,
        uploaded_by=acting_user,
    )
    record(acting_user=acting_user, action=Action.CLINIC_FILE_UPLOAD, obj=clinic_file)
    return clinic_file


def _date_format_problem(date_format: str) -> str | None:
    sample = date(2026, 11, 23)
    try:
        if datetime.strptime(sample.strftime(date_format), date_format).date() == sample:
            return None
    except ValueError:
        pass
    return f"{date_format!r} is not a date format with a day, a month and a year (e.g. %m/%d/%Y)."


@transaction.atomic
def map_clinic_file(clinic_file, *, columns: dict, date_format: str, acting_user) -> ClinicFile:
    """The file's columns mapped onto the layout and remembered for its clinic; the worker checks it."""
    require_role(acting_user, clinic_file.municipality_id, UPLOADERS)
    clinic_file = _locked(clinic_file, ClinicFile.State.MAPPING)
    columns = {c: h for c, h in columns.items() if h}
    problems = mapping_problems(columns, clinic_file.header)
    bad_format = _date_format_problem(date_format)
    if bad_format:
        problems["date_format"] = bad_format
    if problems:
        raise ValidationError(problems)
    clinic = Clinic.objects.select_for_update().get(pk=clinic_file.clinic_id)
    before = snapshot(clinic)
    clinic.columns, clinic.date_format = columns, date_format
    clinic.save(update_fields=["columns", "date_format"])
    clinic_file.mapped_at = timezone.now()
    clinic_file.save(update_fields=["mapped_at"])
    record(acting_user=acting_user, action=Action.CLINIC_FILE_MAP, obj=clinic, before=before)
    _enqueue("check_clinic_file", clinic_file)
    return clinic_file


def check_clinic_file(clinic_file, path) -> dict:
    """The worker's check of the file (nothing is written but what it found)."""
    clinic = clinic_file.clinic
    found = Check(clinic_file.municipality, clinic.columns, clinic.date_format, today()).run(
        path, clinic_file.file_name
    )
    ClinicFile.objects.filter(pk=clinic_file.pk, summary__isnull=True).update(summary=found)
    return found


@transaction.atomic
def confirm_clinic_file(clinic_file, *, acting_user) -> ClinicFile:
    """Whoever uploaded it, or another of the municipality's certifiers, confirms what the check
    found: the worker records the matched rows' certificates."""
    require_role(acting_user, clinic_file.municipality_id, UPLOADERS)
    clinic_file = _locked(clinic_file, ClinicFile.State.CHECKED)
    if not clinic_file.summary["matched"]:
        raise ValidationError("No row of this file matched an animal: there is nothing to record.")
    clinic_file.confirmed_at, clinic_file.confirmed_by = timezone.now(), acting_user
    clinic_file.save(update_fields=["confirmed_at", "confirmed_by"])
    record(acting_user=acting_user, action=Action.CLINIC_FILE_CONFIRM, obj=clinic_file)
    _enqueue("write_clinic_file", clinic_file)
    return clinic_file


def write_clinic_file(clinic_file) -> int:
    """The confirmed file's certificates, WRITE_BATCH to a transaction, from where an earlier
    write stopped (a certificate already recorded is never recorded twice:
    registry.actions.record_certificates). Returns how many were recorded now."""
    certificates = clinic_file.summary["certificates"]
    added = 0
    for start in range(clinic_file.written, len(certificates), WRITE_BATCH):
        part = certificates[start : start + WRITE_BATCH]
        with transaction.atomic():
            added += len(
                record_certificates(
                    clinic_file.municipality,
                    [fields for _, fields in part],
                    acting_user=clinic_file.confirmed_by,
                )
            )
            ClinicFile.objects.filter(pk=clinic_file.pk).update(written=start + len(part))
    ClinicFile.objects.filter(pk=clinic_file.pk).update(finished_at=timezone.now())
    return added


def fail_clinic_file(clinic_file, message: str) -> None:
    ClinicFile.objects.filter(pk=clinic_file.pk).update(error=message)
