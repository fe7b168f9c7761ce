import os

import pytest
from django.db import transaction
from django.test import override_settings
from django_q.models import Schedule, Success

from dogtag.lib.tasks import enqueue
from dogtag.worker.models import Heartbeat
from tests.worker.helpers import running_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@override_settings(DOGTAG_TASKS_INLINE=False)
def test_it_runs_a_task_enqueued_after_commit_in_a_worker_process(tmp_path):
    from django_q.models import OrmQ

    marker = tmp_path / "ran"
    with transaction.atomic():
        enqueue("tests.worker.tasks.write_pid", str(marker), task_name="write pid")
        assert not marker.exists()  # nothing is handed over before the commit
        assert OrmQ.objects.count() == 1  # ...but the task is a row of the action's own transaction
    with running_worker(tmp_path / "worker.log") as worker:
        pid = int(wait_for(lambda: marker.exists() and marker.read_text(), 60, "the task", worker=worker))
        assert pid not in (os.getpid(), worker.pid)  # one of the cluster's worker processes ran it
        wait_for(lambda: Success.objects.filter(name="write pid").exists(), 30, "the task's result", worker=worker)
        wait_for(lambda: Heartbeat.objects.exists(), 30, "the first heartbeat", worker=worker)


@override_settings(DOGTAG_TASKS_INLINE=False)
def test_a_rolled_back_action_hands_nothing_to_the_worker(tmp_path):
    from django_q.models import OrmQ

    marker = tmp_path / "ran"
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue("tests.worker.tasks.write_pid", str(marker))
        raise RuntimeError("the action failed")
    assert not OrmQ.objects.exists()


def test_the_schedules_are_the_settings_and_syncing_twice_changes_nothing(settings):
    from dogtag.worker import schedules

    schedules.sync()
    schedules.sync()
    names = {s.name: (s.func, s.cron) for s in Schedule.objects.all()}
    assert names["dogtag: outbox"] == ("dogtag.outbox.tasks.send_outbox", "* * * * *")
    assert names["dogtag: rabies reminders"] == ("dogtag.portal.tasks.send_rabies_reminders", "0 6 * * *")
    assert len(names) == len(settings.DOGTAG_SCHEDULES)
    settings.DOGTAG_SCHEDULES = {**settings.DOGTAG_SCHEDULES, "outbox": ("dogtag.outbox.tasks.send_outbox", None)}
    settings.DOGTAG_SCHEDULES["rabies reminders"] = ("dogtag.portal.tasks.send_rabies_reminders", "30 5 * * *")
    schedules.sync()
    assert not Schedule.objects.filter(name="dogtag: outbox").exists()
    assert Schedule.objects.get(name="dogtag: rabies reminders").cron == "30 5 * * *"
