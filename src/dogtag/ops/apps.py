from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Running Dogtag as a service: the production server, logs, backups, first setup."""

    name = "dogtag.ops"
    verbose_name = "Operations"

    def ready(self):
        from django.db.models.signals import post_migrate

        from dogtag.ops.dbrole import grant_after_migrate

        post_migrate.connect(grant_after_migrate, sender=self)
