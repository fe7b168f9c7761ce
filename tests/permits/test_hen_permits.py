"""Cedarburg hen permits (§ 7-1-26): issued or refused with the reasons, the fee, December 31."""

from datetime import date
from decimal import Decimal

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from dogtag.permits.models import HenPermit
from dogtag.registry import actions as registry
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase
from tests.enforcement.test_complaints import pdf_text


class HenPermitTests(EnforcementTestCase):
    def apply(self, premises, person, **data):
        body = {
            "applicant": person.pk,
            "premises": premises.pk,
            "zoning": "single_family_residential",
            "owners_of_record": "Hattie Hen",
            "hens": 4,
            "roosters": 0,
            **data,
        }
        return self.client.post(reverse("hen-permit-new", args=["cedarburg"]), body)

    def test_it_issues_a_permit_and_renews_it_for_25_dollars(self):
        person, premises, _ = self.owner_and_dog("cedarburg", "Clucky")
        self.login(self.clerks["cedarburg"])
        with on(date(2026, 5, 4)):
            plan = SimpleUploadedFile("plan.pdf", b"%PDF-1.4 site plan", content_type="application/pdf")
            r = self.apply(premises, person, all_owners_signed="on", premises_registration="WI-0042", site_plan=plan)
            permit = HenPermit.objects.get()
            self.assertRedirects(r, reverse("hen-permit", args=[permit.pk]))
            # § 7-1-26(d)(1)(iii) $50; (d)(6) "will expire on December 31 of that year ... not be pro-rated"
            self.assertEqual(
                (permit.status, permit.fee, permit.fee_kind, permit.expires_on),
                ("issued", Decimal("50.00"), "application", date(2026, 12, 31)),
            )
            text = pdf_text(self.client.get(reverse("hen-permit-pdf", args=[permit.pk])))
            self.assertIn("December 31, 2026", text)
            self.assertIn("§ 7-1-26(d)(6)", text)
        with on(date(2027, 1, 5)):
            self.login(self.clerks["cedarburg"])  # a new session in the new year
            r = self.apply(
                premises, person, all_owners_signed="on", premises_registration="WI-0042", renewal_of=permit.pk
            )
            self.assertEqual(r.status_code, 302)
            renewal = HenPermit.objects.latest("pk")
            self.assertEqual(
                (renewal.fee, renewal.fee_kind, renewal.expires_on), (Decimal("25.00"), "renewal", date(2027, 12, 31))
            )

    def test_it_refuses_with_every_reason_the_ordinance_gives(self):
        person, _, _ = self.owner_and_dog("cedarburg", "Rooster")
        duplex = registry.create_premises(
            acting_user=self.clerks["cedarburg"],
            municipality=self.places["cedarburg"],
            street="4 Duplex Ln",
            use="duplex",
        )
        self.login(self.clerks["cedarburg"])
        with on(date(2026, 5, 4)):
            self.apply(duplex, person, hens=6, roosters=1, applicant_is_tenant="on")
            permit = HenPermit.objects.get()
            self.assertEqual(permit.status, "refused")
            self.assertEqual(
                permit.reasons,
                [
                    "the parcel is not zoned single-family residential only",
                    "more than 4 hens",
                    "roosters or other crowing fowl",
                    "not signed or countersigned by all owners of record",
                    "no Livestock Premises Registration number",
                ],
            )
            page = self.client.get(reverse("hen-permit", args=[permit.pk])).content.decode()
            self.assertIn("more than 4 hens", page)
            self.assertIn("§ 7-1-26(d)(4)", page)
            # An issued permit needs the site plan (§ 7-1-26(d)(1)(iv)); nothing is written without it.
            _, house, _ = self.owner_and_dog("cedarburg", "Hennie")
            r = self.apply(house, person, all_owners_signed="on", premises_registration="WI-7")
            self.assertContains(r, "site plan")
            self.assertEqual(HenPermit.objects.count(), 1)

    def test_it_has_no_hen_permit_outside_cedarburg(self):
        person, premises, _ = self.owner_and_dog("webster", "Henrietta")
        self.login(self.clerks["webster"])
        r = self.client.post(
            reverse("hen-permit-new", args=["webster"]),
            {
                "applicant": person.pk,
                "premises": premises.pk,
                "zoning": "single_family_residential",
                "owners_of_record": "x",
                "hens": 2,
                "roosters": 0,
            },
        )
        self.assertContains(r, "this ordinance has no hen permit")
