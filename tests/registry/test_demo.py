import io

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import TestCase

from dogtag.accounts.models import Membership
from dogtag.registry.models import Municipality


class DemoCommandTests(TestCase):
    def test_it_loads_the_five_municipalities_with_their_counties(self):
        call_command("demo", stdout=io.StringIO())
        self.assertEqual(
            {(m.name, m.kind, m.county, m.rule_pack) for m in Municipality.objects.all()},
            {
                ("Benton", "village", "Lafayette", "wi-benton"),
                ("Webster", "village", "Burnett", "wi-webster"),
                ("River Hills", "village", "Milwaukee", "wi-river-hills"),
                ("Sampson", "town", "Chippewa", "wi-sampson"),
                ("Cedarburg", "city", "Ozaukee", "wi-cedarburg"),
            },
        )

    def test_it_prints_the_accounts_and_their_password(self):
        out = io.StringIO()
        call_command("demo", stdout=out)
        self.assertIn("dogtag-demo", out.getvalue())
        for username in ("benton-clerk", "cedarburg-clerk", "officer", "vet", "admin"):
            self.assertIn(username, out.getvalue())
        self.assertTrue(get_user_model().objects.get(username="benton-clerk").check_password("dogtag-demo"))

    def test_running_it_again_changes_nothing(self):
        call_command("demo", stdout=io.StringIO())
        before = (Municipality.objects.count(), get_user_model().objects.count(), Membership.objects.count())
        call_command("demo", stdout=io.StringIO())
        self.assertEqual(before, (5, 8, 20))
        self.assertEqual(
            (Municipality.objects.count(), get_user_model().objects.count(), Membership.objects.count()), before
        )


class SampleDataTests(TestCase):
    def test_each_municipality_gets_a_working_village_once(self):
        from dogtag.audit.models import AuditEvent
        from dogtag.enforcement.models import Case
        from dogtag.licensing.models import License
        from dogtag.registry.models import Animal

        out = io.StringIO()
        call_command("demo", "--with-sample-data", stdout=out)
        self.assertIn("sample data: Benton filled", out.getvalue())
        for m in Municipality.objects.all():
            self.assertGreaterEqual(Animal.objects.filter(municipality=m, species="dog").count(), 5, m)
            self.assertTrue(Animal.objects.filter(municipality=m, species="cat").exists(), m)
            self.assertGreaterEqual(License.objects.filter(municipality=m, voided_at=None).count(), 3, m)
            kinds = set(Case.objects.filter(municipality=m, closed_on=None).values_list("kind", flat=True))
            self.assertTrue({"complaint", "impoundment", "bite"} <= kinds, (m, kinds))
        events = AuditEvent.objects.count()
        call_command("demo", "--with-sample-data", stdout=out)
        self.assertEqual(AuditEvent.objects.count(), events)
        self.assertIn("sample data: Benton already has records", out.getvalue())
