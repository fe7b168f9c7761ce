from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "dogtag.enforcement"
    verbose_name = "Animal control"
