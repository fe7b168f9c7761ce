from base64 import b32encode

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django_otp.plugins.otp_totp.models import TOTPDevice

from dogtag.accounts.models import Membership, Role
from dogtag.registry.models import Municipality

MUNICIPALITIES = [
    # slug, name, kind, county, rule pack
    ("benton", "Benton", Municipality.Kind.VILLAGE, "Lafayette", "wi-benton"),
    ("webster", "Webster", Municipality.Kind.VILLAGE, "Burnett", "wi-webster"),
    ("river-hills", "River Hills", Municipality.Kind.VILLAGE, "Milwaukee", "wi-river-hills"),
    ("sampson", "Sampson", Municipality.Kind.TOWN, "Chippewa", "wi-sampson"),
    ("cedarburg", "Cedarburg", Municipality.Kind.CITY, "Ozaukee", "wi-cedarburg"),
]
DEMO_PASSWORD = "dogtag-demo"
# The demo administrator's authenticator key (administrators must give a one-time code after
# the password): a demo secret, printed below; a real administrator enrols at /account/two-factor/.
DEMO_ADMIN_TOTP_KEY = "646f677461672064656d6f2061646d696e20746f"


DEMO_NAMES = {
    "benton-clerk": "Joan Miller",
    "webster-clerk": "Dale Peterson",
    "river-hills-clerk": "Ann Kowalski",
    "sampson-clerk": "Ray Olson",
    "cedarburg-clerk": "Lisa Schmidt",
    "officer": "Tom Brandt",
    "vet": "Maria Lopez",
    "admin": "Sam Fischer",
}


class Command(BaseCommand):
    help = "Load the five municipalities and the demo accounts. Running it again changes nothing."

    def add_arguments(self, parser):
        parser.add_argument(
            "--with-sample-data",
            action="store_true",
            help="also fill each municipality with owners, animals, licenses and a few open cases",
        )

    def handle(self, *args, **options):
        with transaction.atomic():
            self.load(*args, **options)
        if options["with_sample_data"]:
            call_command("sample_data", stdout=self.stdout)

    def load(self, *args, **options):
        municipalities = self.load_municipalities()
        accounts = [(f"{m.slug}-clerk", [(m, Role.CLERK)]) for m in municipalities]
        accounts += [
            ("officer", [(m, Role.OFFICER) for m in municipalities]),
            ("vet", [(m, Role.VETERINARIAN) for m in municipalities]),
            ("admin", [(m, Role.ADMINISTRATOR) for m in municipalities]),
        ]
        self.stdout.write(f"Demo accounts (password for each: {DEMO_PASSWORD}):")
        for username, roles in accounts:
            self.ensure_user(username, roles)
            self.stdout.write(
                f"  {username:20} {', '.join(sorted({r.label for _, r in roles}))}"
                f" — {', '.join(m.name for m, _ in roles)}"
            )
        device = self.ensure_admin_device()
        self.stdout.write(
            f"The admin account also asks for a one-time code: add the key {b32encode(device.bin_key).decode()}"
            f" to an authenticator app (or: {device.config_url})."
        )

    def load_municipalities(self):
        return [
            Municipality.objects.update_or_create(
                slug=slug, defaults={"name": name, "kind": kind, "county": county, "rule_pack": pack}
            )[0]
            for slug, name, kind, county, pack in MUNICIPALITIES
        ]

    def ensure_admin_device(self):
        admin = get_user_model().objects.get(username="admin")
        device, _ = TOTPDevice.objects.get_or_create(
            user=admin, name="Demo authenticator", defaults={"key": DEMO_ADMIN_TOTP_KEY, "confirmed": True}
        )
        return device

    def ensure_user(self, username, roles):
        User = get_user_model()
        user, created = User.objects.get_or_create(username=username)
        if created:
            # A person's name, not the username, on certificates and receipts.
            user.first_name, _, user.last_name = DEMO_NAMES.get(username, "").partition(" ")
            user.set_password(DEMO_PASSWORD)
            user.is_staff = user.is_superuser = username == "admin"
            user.save()
        for municipality, role in roles:
            Membership.objects.get_or_create(user=user, municipality=municipality, role=role)
