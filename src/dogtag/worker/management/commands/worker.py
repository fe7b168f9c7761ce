from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django_q.tasks import async_task

from dogtag.worker import schedules


class Command(BaseCommand):
    help = (
        "Run the background worker (DOGTAG_WORKERS processes): renewal PDFs, the outbox, reminders, imports, "
        "the year-end tag return list, on the schedules in settings. Stop it with SIGTERM or Ctrl-C."
    )

    def handle(self, *args, **options):
        schedules.sync()
        # A first heartbeat at once, so /healthz reports a fresh worker without waiting for the
        # scheduler's first round.
        async_task("dogtag.worker.tasks.heartbeat", q_options={"sync": False, "task_name": "heartbeat at start"})
        self.stdout.write(f"Worker starting: {settings.Q_CLUSTER['workers']} processes", ending="\n")
        self.stdout.flush()
        call_command("qcluster")
