from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "dogtag.accounts"
    verbose_name = "Accounts and roles"

    def ready(self):
        from dogtag.accounts import tokens

        tokens.connect()
