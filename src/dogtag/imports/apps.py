from django.apps import AppConfig


class ImportsConfig(AppConfig):
    name = "dogtag.imports"
