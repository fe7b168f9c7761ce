"""The outbox against a real SMTP server on loopback: claims, backoff, dead letters, kill -9."""

import subprocess
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from dogtag.accounts.models import Membership, Role
from dogtag.audit.models import AuditEvent
from dogtag.lib.tasks import enqueue
from dogtag.outbox import sender
from dogtag.outbox.models import Message
from dogtag.registry.models import Municipality
from tests.base import PASSWORD, login
from tests.outbox.smtp import HOLD_SECONDS, email_settings, smtp_server
from tests.worker.helpers import DOGTAG, ROOT, running_worker, wait_for, worker_env

pytestmark = pytest.mark.django_db(transaction=True)


def benton():
    return Municipality.objects.create(
        name="Benton", kind="village", county="Lafayette", rule_pack="wi-benton", slug="benton"
    )


def queue(municipality, n):
    Message.objects.bulk_create(
        Message(municipality=municipality, to=f"owner{i}@example.org", subject=f"notice {i}", text="t", kind="test")
        for i in range(n)
    )
    return list(Message.objects.order_by("pk").values_list("pk", flat=True))


def smtp_env(port):
    return {k: str(v) for k, v in email_settings(port).items()}


def test_two_concurrent_senders_send_each_message_once(tmp_path):
    ids = queue(benton(), 30)
    with smtp_server(delay=0.02, wait_for_sessions=2) as (server, port):
        # The first sender's message is held until the second sender starts: its wait for the reply
        # must outlast that hold, or a slow start would read as a refusing server.
        env = worker_env(DOGTAG_OUTBOX_BATCH=4, **{**smtp_env(port), "EMAIL_TIMEOUT": str(HOLD_SECONDS + 10)})
        senders = [
            subprocess.Popen([str(DOGTAG), "send_outbox"], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        outputs = [p.communicate(timeout=HOLD_SECONDS + 60)[0] for p in senders]
    assert [p.returncode for p in senders] == [0, 0], outputs
    assert server.sessions_seen() == 2  # both senders were delivering at the same time
    counts = sorted(int(out.split()[0]) for out in outputs)
    assert sum(counts) == 30 and counts[0] > 0, outputs
    delivered = server.message_ids()
    assert len(delivered) == 30 and len(set(delivered)) == 30  # each message once
    assert sorted(delivered) == sorted(f"<outbox-{pk}@localhost>" for pk in ids)
    assert not Message.objects.filter(sent_at=None).exists()
    assert set(Message.objects.values_list("attempts", flat=True)) == {1}


@override_settings(DOGTAG_OUTBOX_MAX_ATTEMPTS=3, DOGTAG_OUTBOX_BACKOFF_SECONDS=60)
def test_a_refusing_server_means_backoff_then_a_dead_letter_an_administrator_sends_again(settings):
    municipality = benton()
    (pk,) = queue(municipality, 1)
    with smtp_server(refuse="554 5.7.1 Relay refused") as (_, port), override_settings(**email_settings(port)):
        with time_machine.travel(timezone.now(), tick=True) as clock:
            assert sender.send() == (0, 1)
            m = Message.objects.get()
            assert (m.attempts, m.dead_at) == (1, None)
            assert "554" in m.last_error and "Relay refused" in m.last_error
            first_delay = m.next_attempt_at - timezone.now()
            assert timedelta(seconds=55) < first_delay <= timedelta(seconds=60)
            assert sender.send() == (0, 0)  # not due yet
            clock.shift(61)
            assert sender.send() == (0, 1)
            m.refresh_from_db()
            second_delay = m.next_attempt_at - timezone.now()
            assert timedelta(seconds=115) < second_delay <= timedelta(seconds=120)  # doubled
            clock.shift(121)
            assert sender.send() == (0, 1)
            m.refresh_from_db()
            assert m.attempts == 3 and m.dead_at is not None  # the third refusal is the last
            clock.shift(24 * 3600)
            assert sender.send() == (0, 0)  # a dead letter is not tried again by itself

    admin = get_user_model().objects.create_superuser("admin", password=PASSWORD)
    client = Client()
    login(client, admin)
    listing = client.get(reverse("admin:outbox_message_changelist") + "?status=undeliverable")
    assert listing.status_code == 200 and "notice 0" in listing.content.decode()

    clerk = get_user_model().objects.create_user("clerk", password=PASSWORD)
    Membership.objects.create(user=clerk, municipality=municipality, role=Role.CLERK)
    client.force_login(clerk)
    page = client.get(reverse("outbox", args=["benton"]))
    assert "undeliverable: given up after 3 attempts" in page.content.decode()
    with smtp_server() as (server, port), override_settings(**email_settings(port)):
        r = client.post(reverse("outbox", args=["benton"]), {"message": [pk]}, follow=True)
        assert "1 undeliverable message queued again." in r.content.decode()
        assert server.message_ids() == [f"<outbox-{pk}@localhost>"]  # sent by the task run on commit
    m.refresh_from_db()
    assert m.sent_at is not None and m.dead_at is None
    assert AuditEvent.objects.filter(action="outbox.send_again", object_id=str(pk), actor=clerk).count() == 1


def test_a_clerk_of_another_municipality_cannot_send_benton_mail_again():
    municipality = benton()
    (pk,) = queue(municipality, 1)
    Message.objects.filter(pk=pk).update(dead_at=timezone.now(), attempts=8)
    webster = Municipality.objects.create(
        name="Webster", kind="village", county="Vernon", rule_pack="wi-webster", slug="webster"
    )
    clerk = get_user_model().objects.create_user("webster-clerk", password=PASSWORD)
    Membership.objects.create(user=clerk, municipality=webster, role=Role.CLERK)
    client = Client()
    client.force_login(clerk)
    assert client.post(reverse("outbox", args=["benton"]), {"message": [pk]}).status_code == 404
    assert Message.objects.get().dead_at is not None


@override_settings(DOGTAG_TASKS_INLINE=False)
def test_a_worker_killed_mid_batch_and_restarted_sends_every_message_once(tmp_path):
    ids = queue(benton(), 12)
    with transaction.atomic():
        enqueue("dogtag.outbox.tasks.send_outbox", ids)
    with smtp_server(delay=0.4) as (server, port):
        env = dict(
            DOGTAG_OUTBOX_BATCH=3,
            DOGTAG_OUTBOX_CLAIM_SECONDS=3,
            DOGTAG_TASK_TIMEOUT=15,
            DOGTAG_TASK_RETRY=18,
            **smtp_env(port),
        )
        with running_worker(tmp_path / "worker.log", **env) as worker:
            wait_for(lambda: len(server.message_ids()) >= 4, 60, "4 messages delivered", worker=worker)
            # Kill while the server is answering the next one, mid-transaction for the sender.
            wait_for(lambda: server.data_started > len(server.message_ids()), 30, "the next DATA", worker=worker)
            worker.kill_9()
        before_restart = len(server.message_ids())
        assert 4 <= before_restart < 12
        assert Message.objects.filter(sent_at=None).exists()
        with running_worker(tmp_path / "worker-2.log", **env) as worker:
            # the killed task is handed out again once its lease (DOGTAG_TASK_RETRY) ends
            wait_for(
                lambda: not Message.objects.filter(sent_at=None).exists(),
                120,
                "every message sent",
                interval=0.5,
                worker=worker,
            )
        delivered = server.message_ids()
    assert sorted(delivered) == sorted(f"<outbox-{pk}@localhost>" for pk in ids)  # each once, none lost
