"""The daily renewal reminders sent by a real `dogtag worker`, killed with SIGKILL in the middle of
their delivery and restarted: every reminder written once and sent once (one outbox email each,
delivered once, or one page of the letters), none lost.

The worker keeps the real clock (it is another process), so the licenses are made to run out a
week from today and the worker's lead time is that week: the reminders are owed on whatever day
the test runs."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django_q.tasks import async_task
from pypdf import PdfReader

from dogtag.lib.dates import today
from dogtag.licensing.models import License, ReminderLetters, RenewalReminder
from dogtag.outbox.models import Message
from dogtag.registry.models import Municipality
from tests.licensing.bulk import licensed_dogs
from tests.outbox.smtp import email_settings, smtp_server
from tests.worker.helpers import running_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

DOGS, BATCH, LEAD = 240, 8, -7


def test_a_worker_killed_mid_reminders_and_restarted_sends_every_reminder_exactly_once(tmp_path):
    benton = Municipality.objects.create(
        name="Village of Benton", kind="village", county="Lafayette", rule_pack="wi-benton", slug="benton"
    )
    clerk = get_user_model().objects.create_user("clerk")
    licensed_dogs(benton, clerk, DOGS, year=2026, emailed=lambda i: i % 4 != 0)  # a quarter by letter
    License.objects.update(expires_on=today() - timedelta(days=LEAD))
    media = tmp_path / "media"
    env = {
        "DOGTAG_VAR_DIR": tmp_path,  # its media folder is the test's
        "DOGTAG_TASK_TIMEOUT": 15,
        "DOGTAG_TASK_RETRY": 18,
        "DOGTAG_OUTBOX_CLAIM_SECONDS": 3,
        "DOGTAG_RENEWAL_REMINDER_DAYS": LEAD,
        "DOGTAG_RENEWAL_REMINDER_BATCH": BATCH,
    }

    def delivered():
        return RenewalReminder.objects.exclude(delivered_at=None).count()

    with smtp_server() as (server, port), override_settings(MEDIA_ROOT=media, DOGTAG_TASKS_INLINE=False):
        env.update(email_settings(port))
        async_task("dogtag.licensing.tasks.send_renewal_reminders", q_options={"task_name": "renewal reminders"})
        with running_worker(tmp_path / "worker.log", **env) as worker:
            wait_for(lambda: delivered() >= 3 * BATCH, 120, "three batches delivered", interval=0.02, worker=worker)
            worker.kill_9()
        killed_at = delivered()
        assert killed_at < DOGS, "the delivery finished before the kill: make it longer"
        with running_worker(tmp_path / "worker-2.log", **env) as worker:
            wait_for(
                lambda: (
                    RenewalReminder.objects.count() == DOGS
                    and delivered() == DOGS
                    and not Message.objects.filter(sent_at=None).exists()
                ),
                240,
                "every reminder delivered and every email sent",
                interval=0.5,
                worker=worker,
            )
        sent = server.message_ids()

    reminders = RenewalReminder.objects.all()
    assert reminders.count() == DOGS and reminders.values("animal").distinct().count() == DOGS
    assert not reminders.exclude(lead_days=LEAD).exists() and not reminders.exclude(withdrawn_at=None).exists()
    emailed = reminders.filter(channel=RenewalReminder.Channel.EMAIL)
    assert emailed.count() == DOGS - DOGS // 4
    messages = Message.objects.filter(kind="renewal-reminder")
    # One outbox message a reminder, each its own, each delivered to the server once.
    assert messages.count() == emailed.count() == emailed.values("message").distinct().count()
    assert not emailed.filter(message=None).exists()
    assert sorted(sent) == sorted(f"<outbox-{pk}@localhost>" for pk in messages.values_list("pk", flat=True))
    # One page a letter, in the letters the clerk prints; no file left by a batch the kill rolled back.
    paper = reminders.filter(channel=RenewalReminder.Channel.PAPER)
    assert paper.count() == DOGS // 4 and not paper.filter(letters=None).exists()
    letters = list(ReminderLetters.objects.all())
    assert sum(len(PdfReader(media / lot.pdf).pages) for lot in letters) == paper.count()
    assert sum(lot.letters for lot in letters) == paper.count()
    assert sorted(p.name for p in (media / "reminders").iterdir()) == sorted(
        lot.pdf.rsplit("/", 1)[1] for lot in letters
    )
    print(f"killed after {killed_at} of {DOGS} reminders delivered; {len(sent)} emails delivered once each")
