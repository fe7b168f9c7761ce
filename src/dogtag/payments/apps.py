from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "dogtag.payments"
    verbose_name = "Online payments"

    def ready(self):
        from dogtag.payments import signals

        signals.connect()
