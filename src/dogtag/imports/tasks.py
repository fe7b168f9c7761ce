"""The worker's side of an import started from the upload page: check the stored roll, then
write it once the clerk confirms. Each task is safe to run again (a killed worker's task is
delivered again): a run already finished, or being written by a live process, is left alone."""

from dogtag.imports import actions, uploads
from dogtag.imports.actions import clinics
from dogtag.imports.models import ClinicFile, ImportRun
from dogtag.imports.rolls import Mapping, RollError


def _run(run_id, *states):
    run = ImportRun.objects.select_related("municipality", "started_by").filter(pk=run_id).first()
    return run if run is not None and run.state in states else None


def _mapping(run):
    return Mapping.parse(uploads.read(run.mapping_sha256)) if run.mapping_sha256 else None


def check(run_id: int) -> None:
    run = _run(run_id, ImportRun.State.CHECKING, ImportRun.State.INTERRUPTED)
    if run is None or run.confirmed_at:
        return
    try:
        with uploads.local_copy(run.file_sha256) as path:
            actions.check_roll(run, path, _mapping(run))
    except (RollError, FileNotFoundError) as e:
        actions.fail(run, str(e))


def write(run_id: int) -> None:
    run = _run(run_id, ImportRun.State.QUEUED, ImportRun.State.INTERRUPTED)
    if run is None or not run.confirmed_at:
        return
    try:
        with uploads.local_copy(run.file_sha256) as path:
            actions.run_import(run, path, _mapping(run), acting_user=run.started_by)
    except (RollError, FileNotFoundError) as e:
        actions.fail(run, str(e))


def _clinic_file(file_id, state):
    found = ClinicFile.objects.select_related("municipality", "clinic", "confirmed_by").filter(pk=file_id).first()
    return found if found is not None and found.state == state else None


def check_clinic_file(file_id: int) -> None:
    clinic_file = _clinic_file(file_id, ClinicFile.State.CHECKING)
    if clinic_file is None:
        return
    try:
        with uploads.local_copy(clinic_file.file_sha256) as path:
            clinics.check_clinic_file(clinic_file, path)
    except (RollError, FileNotFoundError) as e:
        clinics.fail_clinic_file(clinic_file, str(e))


def write_clinic_file(file_id: int) -> None:
    clinic_file = _clinic_file(file_id, ClinicFile.State.WRITING)
    if clinic_file is not None:
        clinics.write_clinic_file(clinic_file)


def send_license_invitations(file_id: int, user_id: int) -> str:
    """The invitations of a clinic file's canvassing list not sent yet (a rerun sends only the rest)."""
    from django.contrib.auth import get_user_model

    from dogtag.imports.actions import canvass
    from dogtag.lib.dates import today

    clinic_file = _clinic_file(file_id, ClinicFile.State.FINISHED)
    if clinic_file is None:
        return "not finished"
    user = get_user_model().objects.get(pk=user_id)
    done = canvass.send_license_invitations(clinic_file, acting_user=user, on=today())
    return f"{done['emailed']} emailed, {done['printed']} printed"
