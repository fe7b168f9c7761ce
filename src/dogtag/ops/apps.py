from django.apps import AppConfig, apps


class OpsConfig(AppConfig):
    """Running Dogtag as a service: the production server, logs, backups, first setup."""

    name = "dogtag.ops"
    verbose_name = "Operations"

    def ready(self):
        from django.db.models.signals import post_migrate

        from dogtag.ops.dbrole import grant_after_migrate

        # Django sends post_migrate once per migrate for each app that has a models module, and this app
        # has none: the grant listens to the audit trail's, whose table is the one it guards.
        post_migrate.connect(grant_after_migrate, sender=apps.get_app_config("audit"))
