from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "dogtag.permits"
