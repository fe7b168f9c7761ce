"""A renewal run printed by a real `dogtag worker`, killed with SIGKILL in the middle and
restarted: every notice once, every PDF part once, every email once, nothing lost."""

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from pypdf import PdfReader

from dogtag.licensing import actions
from dogtag.licensing.models import RenewalChunk, RenewalNotice, RenewalRun
from dogtag.outbox.models import Message
from dogtag.registry.models import Municipality
from tests.licensing.bulk import licensed_dogs
from tests.outbox.smtp import email_settings, smtp_server
from tests.worker.helpers import running_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

DOGS, PART = 120, 10


def test_a_worker_killed_mid_run_and_restarted_prints_and_emails_every_notice_once(tmp_path):
    benton = Municipality.objects.create(
        name="Village of Benton", kind="village", county="Lafayette", rule_pack="wi-benton", slug="benton"
    )
    clerk = get_user_model().objects.create_user("clerk")
    licensed_dogs(benton, clerk, DOGS, year=2026)
    media = tmp_path / "media"
    with (
        smtp_server() as (server, port),
        override_settings(MEDIA_ROOT=media, DOGTAG_RENEWAL_CHUNK_SIZE=PART, DOGTAG_TASKS_INLINE=False),
    ):
        run = actions.start_renewal_run(acting_user=None, municipality=benton, license_year=2027)
        assert (run.notices_created, run.chunks_total) == (DOGS, DOGS // PART)
        env = {
            "DOGTAG_VAR_DIR": tmp_path,  # its media folder is the test's
            "DOGTAG_TASK_TIMEOUT": 15,
            "DOGTAG_TASK_RETRY": 18,
            "DOGTAG_OUTBOX_CLAIM_SECONDS": 3,
            **email_settings(port),
        }

        def printed():
            return RenewalChunk.objects.filter(run=run).exclude(done_at=None).count()

        with running_worker(tmp_path / "worker.log", **env) as worker:
            wait_for(lambda: printed() >= 3, 120, "3 parts printed", interval=0.05, worker=worker)
            worker.kill_9()
        killed_at = printed()
        assert killed_at < run.chunks_total, "the run finished before the kill: make it longer"
        with running_worker(tmp_path / "worker-2.log", **env) as worker:
            wait_for(
                lambda: (
                    RenewalRun.objects.filter(pk=run.pk).exclude(finished_at=None).exists()
                    and not Message.objects.filter(sent_at=None).exists()
                ),
                240,
                "the run merged and every email sent",
                interval=0.5,
                worker=worker,
            )
        delivered = server.message_ids()

    run.refresh_from_db()
    notices = RenewalNotice.objects.filter(run=run)
    assert notices.count() == DOGS and notices.values("animal").distinct().count() == DOGS
    assert sorted(notices.values_list("sequence", flat=True)) == list(range(1, DOGS + 1))
    chunks = list(run.chunks.order_by("number"))
    parts = sorted(p.name for p in (media / "renewals").iterdir() if "-part" in p.name)
    assert parts == sorted(Path(c.pdf).name for c in chunks)  # one file per part, none left over
    assert all(len(PdfReader(media / c.pdf).pages) == PART for c in chunks)
    assert len(PdfReader(media / run.pdf).pages) == DOGS
    messages = Message.objects.filter(kind="renewal-notice")
    assert messages.count() == DOGS and messages.values("to").distinct().count() == DOGS  # one email a notice
    assert sorted(delivered) == sorted(f"<outbox-{pk}@localhost>" for pk in messages.values_list("pk", flat=True))
    print(f"killed after {killed_at} of {run.chunks_total} parts; {len(delivered)} emails delivered once each")
