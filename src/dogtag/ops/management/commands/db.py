import os

from django.core.management.base import BaseCommand, CommandError

from dogtag.ops import dbrole


class Command(BaseCommand):
    help = (
        "`dogtag db grant ROLE [--create] [--password-env VAR]`, run as the tables' owner (PostgreSQL): give the "
        "app's role what it needs and no more: read and write the tables, only add to and read the audit trail, "
        "own nothing. Refuses a superuser or a role that owns tables. Run again after each migrate "
        "(or set DATABASE_APP_ROLE and migrate does it)."
    )

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="what", required=True)
        grant = sub.add_parser("grant", help="grant the app's role its privileges")
        grant.add_argument("role")
        grant.add_argument("--create", action="store_true", help="create the role (LOGIN) if there is none")
        grant.add_argument("--password-env", help="set the role's password from this environment variable")

    def handle(self, *args, what, role, create=False, password_env=None, **options):
        password = None
        if password_env:
            password = os.environ.get(password_env)
            if not password:
                raise CommandError(f"{password_env} is empty: it should hold {role}'s password")
        try:
            dbrole.grant(role, create=create, password=password)
        except dbrole.RoleRefused as e:
            raise CommandError(str(e)) from None
        self.stdout.write(f"{role} may read and write Dogtag's tables, only add to the audit trail, and owns nothing.")
