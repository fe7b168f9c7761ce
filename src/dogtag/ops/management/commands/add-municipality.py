from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from dogtag.registry.actions import add_municipality


class Command(BaseCommand):
    help = (
        "Add a municipality from its rule pack id (e.g. wi-benton): name, kind and county come from the pack. "
        "--administrator USERNAME (repeatable) makes that account its administrator."
    )

    def add_arguments(self, parser):
        parser.add_argument("rule_pack")
        parser.add_argument("--slug", default="", help="the short name in its addresses (default: from its name)")
        parser.add_argument("--administrator", action="append", default=[], metavar="USERNAME")

    def handle(self, *args, rule_pack, slug="", administrator=(), **options):
        User = get_user_model()
        users = []
        for username in administrator:
            try:
                users.append(User.objects.get(username=username))
            except User.DoesNotExist:
                raise CommandError(
                    f"--administrator {username}: no such account (create it: dogtag createsuperuser)"
                ) from None
        try:
            municipality = add_municipality(acting_user=None, rule_pack=rule_pack, slug=slug, administrators=users)
        except ValidationError as e:
            messages = [f"{field}: {m}" for field, ms in e.message_dict.items() for m in ms]
            raise CommandError("; ".join(messages)) from None
        self.stdout.write(
            f"Added the {municipality} ({municipality.county} County) under {rule_pack} as {municipality.slug!r}"
            + (f"; administrators: {', '.join(administrator)}" if administrator else "")
        )
