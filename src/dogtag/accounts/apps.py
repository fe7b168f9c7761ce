from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "dogtag.accounts"
    verbose_name = "Accounts and roles"
