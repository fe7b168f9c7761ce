from django.apps import AppConfig
from django.db.models.signals import post_migrate


class WorkerConfig(AppConfig):
    name = "dogtag.worker"
    verbose_name = "Background work"

    def ready(self):
        from dogtag.worker.schedules import sync_after_migrate

        post_migrate.connect(sync_after_migrate, sender=self)
