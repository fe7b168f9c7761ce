from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "dogtag.enforcement"
    verbose_name = "Animal control"

    def ready(self):
        from dogtag.enforcement.transfers import declared_dog_transfer
        from dogtag.registry.actions import register_transfer_check

        register_transfer_check(declared_dog_transfer)
