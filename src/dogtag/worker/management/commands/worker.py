import sys

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connections
from django_q.tasks import async_task

from dogtag.worker import schedules, supervisor


class Command(BaseCommand):
    help = (
        "Run the background worker (DOGTAG_WORKERS processes): renewal PDFs, the outbox, reminders, imports, "
        "the year-end tag return list, on the schedules in settings. Stop it with SIGTERM, SIGINT or SIGHUP, "
        "to this process or its whole process group: a task that is running finishes first."
    )

    def handle(self, *args, **options):
        schedules.sync()
        # A first heartbeat at once, so /healthz reports a fresh worker without waiting for the
        # scheduler's first round.
        async_task("dogtag.worker.tasks.heartbeat", q_options={"sync": False, "task_name": "heartbeat at start"})
        connections.close_all()  # the cluster opens its own; a forked child must not share these
        code = supervisor.supervise(supervisor.run_cluster, on_started=self.started)
        self.stdout.write("Worker stopped." if code == 0 else f"Worker stopped with exit code {code}.")
        self.stdout.flush()
        if code:
            sys.exit(code if code > 0 else 128 - code)

    def started(self, cluster_pid: int) -> None:
        self.stdout.write(f"Worker starting: {settings.Q_CLUSTER['workers']} processes (cluster {cluster_pid})")
        self.stdout.flush()
