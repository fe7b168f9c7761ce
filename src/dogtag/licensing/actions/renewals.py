"""The renewal run: notices committed in one INSERT ... SELECT, printed and emailed by the worker
in chunks, merged into one PDF (licensing/renewals.py reads and prints; these write)."""

import tempfile

from django.conf import settings
from django.core.files.base import ContentFile, File
from django.core.files.storage import default_storage
from django.db import connection, transaction
from django.utils import timezone

from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import record
from dogtag.lib.dates import today
from dogtag.lib.pdf import concatenate
from dogtag.lib.stored_files import save_over
from dogtag.lib.tasks import enqueue, enqueue_many
from dogtag.licensing import renewal_notice_pdf, renewals
from dogtag.licensing.actions.roles import CLERKS
from dogtag.licensing.models import RenewalChunk, RenewalNotice, RenewalRun
from dogtag.licensing.renewal_codes import codes_for
from dogtag.outbox import mail
from dogtag.registry.models import Municipality, RenewalCode

RENDER_CHUNK = "dogtag.licensing.tasks.print_renewal_chunk"
MERGE_RUN = "dogtag.licensing.tasks.merge_renewal_run"


@transaction.atomic
def start_renewal_run(*, acting_user, municipality, license_year: int):
    """Commit a notice for every animal due one, in one INSERT ... SELECT, and the run's chunks;
    the worker prints the chunks (and emails the owners) after commit. Idempotent: a second run
    adds notices only for animals that became due since."""
    if acting_user is not None:
        require_role(acting_user, municipality.pk, CLERKS)
    # One run at a time per municipality: a second waits here, then finds the first one's notices.
    Municipality.objects.select_for_update().filter(pk=municipality.pk).first()
    now = timezone.now()
    size = settings.DOGTAG_RENEWAL_CHUNK_SIZE
    run = RenewalRun.objects.create(
        municipality=municipality, license_year=license_year, started_by=acting_user, chunk_size=size
    )
    with connection.cursor() as cursor:
        cursor.execute(*renewals.notice_insert(municipality, license_year, today(), run.pk, now))
        created = cursor.rowcount
    emailed = RenewalNotice.objects.filter(run=run, emailed=True).count()
    chunks = RenewalChunk.objects.bulk_create(
        RenewalChunk(
            municipality=municipality,
            run=run,
            number=n + 1,
            first_sequence=n * size + 1,
            last_sequence=min((n + 1) * size, created),
        )
        for n in range((created + size - 1) // size)
    )
    run.notices_created, run.emails_queued, run.chunks_total = created, emailed, len(chunks)
    if not chunks:
        run.finished_at = now
    run.save()
    record(acting_user=acting_user, action=Action.RENEWALS_RUN, obj=run)
    enqueue_many(
        RENDER_CHUNK,
        [((chunk.pk,), f"renewal run {run.pk} part {chunk.number}") for chunk in chunks],
        group=f"renewals-{run.pk}",
    )
    return run


def print_renewal_chunk(chunk_id: int) -> str:
    """The worker's part of a run: one chunk's PDF and its emails. Safe to run again after a
    crash: the PDF goes to the same name, and the emails, the notices' new renewal codes and the
    chunk's "done" commit together, so a chunk is done once, with its emails and codes once."""
    chunk = RenewalChunk.objects.select_related("run__municipality").get(pk=chunk_id)
    if chunk.done_at:
        _merge_when_printed(chunk.run_id)
        return "already printed"
    run, municipality = chunk.run, chunk.run.municipality
    rows = renewals.chunk_rows(chunk)
    # Each notice's short renewal code, written with the part's "done" below.
    codes, new_codes = codes_for(municipality, run.license_year, [row["animal"].pk for row in rows])
    for row in rows:
        row["renewal_code"] = codes[row["animal"].pk]
    pdf = renewal_notice_pdf.draw(municipality, run.license_year, rows)
    saved = save_over(renewals.chunk_name(chunk), ContentFile(pdf))
    messages = renewals.emails(municipality, run.license_year, rows)
    with transaction.atomic():
        RenewalRun.objects.select_for_update().filter(pk=run.pk).first()  # finishers one at a time
        locked = RenewalChunk.objects.get(pk=chunk_id)
        if locked.done_at:
            return "already printed"
        mail.queue_many(messages)
        RenewalCode.objects.bulk_create(new_codes)
        locked.pdf, locked.emails_queued, locked.done_at = saved, len(messages), timezone.now()
        locked.save(update_fields=["pdf", "emails_queued", "done_at"])
        record(acting_user=None, action=Action.RENEWALS_CHUNK_PRINTED, obj=locked)
        _merge_when_printed(run.pk)
    return f"{len(rows)} notices printed, {len(messages)} emails queued"


def _merge_when_printed(run_id: int) -> None:
    if (
        RenewalRun.objects.filter(pk=run_id, finished_at=None).exists()
        and not RenewalChunk.objects.filter(run_id=run_id, done_at=None).exists()
    ):
        enqueue(MERGE_RUN, run_id, task_name=f"renewal run {run_id} merge")


def merge_renewal_run(run_id: int) -> str:
    """One PDF of the whole run from its chunks, for a clerk who prints everything at once."""
    run = RenewalRun.objects.select_related("municipality").get(pk=run_id)
    if run.finished_at:
        return "already merged"
    chunks = list(run.chunks.order_by("number"))
    if any(c.done_at is None for c in chunks):
        return "not every chunk is printed yet"

    def parts():  # one part open at a time: the merge's memory is a part's, at any batch size
        for c in chunks:
            with default_storage.open(c.pdf, "rb") as f:
                yield f

    with tempfile.TemporaryFile() as out:
        concatenate(parts(), out)
        out.seek(0)
        saved = save_over(f"renewals/{run.municipality.slug}-{run.license_year}-run{run.pk}.pdf", File(out))
    with transaction.atomic():
        locked = RenewalRun.objects.select_for_update().get(pk=run_id)
        if locked.finished_at:
            return "already merged"
        locked.pdf, locked.finished_at = saved, timezone.now()
        locked.save(update_fields=["pdf", "finished_at"])
        record(acting_user=None, action=Action.RENEWALS_MERGED, obj=locked)
    return f"{len(chunks)} parts merged"
