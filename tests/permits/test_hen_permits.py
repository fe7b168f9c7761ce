"""Cedarburg hen permits (§ 7-1-26): issued or refused with the reasons, the fee, December 31;
renewed for $25 without changes or anew with them; revoked with the reason (the text names no
procedure); the site plan checked by its content and size."""

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction
from django.test import override_settings
from django.urls import reverse

from dogtag.audit.models import AuditEvent
from dogtag.licensing.models import Payment
from dogtag.permits.actions import ISSUERS
from dogtag.permits.models import HenPermit
from dogtag.registry import actions as registry
from dogtag.registry.actions import save_record
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase
from tests.enforcement.test_complaints import pdf_text
from tests.portal.helpers import MEDIA, PDF, PNG

RENEWAL_FEE = {"method": "cash", "amount": "25.00"}


def plan(content=PDF, name="plan.pdf"):
    return SimpleUploadedFile(name, content, content_type="application/pdf")


@MEDIA
class HenPermitTests(EnforcementTestCase):
    def apply(self, premises, person, **data):
        body = {
            "applicant": person.pk,
            "premises": premises.pk,
            "zoning": "single_family_residential",
            "owners_of_record": "Hattie Hen",
            "hens": 4,
            "roosters": 0,
            "method": "cash",
            "amount": "25.00" if data.get("renewal_of") and not data.get("changes") else "50.00",
            **data,
        }
        return self.client.post(reverse("hen-permit-new", args=["cedarburg"]), body)

    def test_it_issues_a_permit_and_renews_it_for_25_dollars(self):
        person, premises, _ = self.owner_and_dog("cedarburg", "Clucky")
        self.login(self.clerks["cedarburg"])
        with on(date(2026, 5, 4)):
            plan = SimpleUploadedFile("plan.pdf", PDF, content_type="application/pdf")
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

    def test_it_issues_only_on_payment_of_the_fee_and_the_pdf_says_how_it_was_paid(self):
        person, premises, _ = self.owner_and_dog("cedarburg", "Clucky")
        self.login(self.clerks["cedarburg"])
        ok = {"all_owners_signed": "on", "premises_registration": "WI-0042"}
        with on(date(2026, 5, 4)):
            r = self.apply(premises, person, site_plan=plan(), method="", amount="", **ok)
            self.assertContains(r, "$50.00 is due; record the payment.")
            r = self.apply(premises, person, site_plan=plan(), amount="20.00", **ok)
            self.assertContains(r, "$20.00 received but $50.00 is due")
            self.assertFalse(HenPermit.objects.exists())
            self.assertFalse(Payment.objects.exists())
            r = self.apply(premises, person, site_plan=plan(), method="check", amount="50.00", check_number="314", **ok)
            permit = HenPermit.objects.get()
            self.assertEqual((permit.payment.amount, permit.payment.method), (Decimal("50.00"), "check"))
            self.assertEqual(permit.payment.payer, person)
            text = pdf_text(self.client.get(reverse("hen-permit-pdf", args=[permit.pk])))
            self.assertIn("paid May 4, 2026, check", text)
            close = self.client.get(reverse("report-day-close", args=["cedarburg"]), {"day": "2026-05-04"})
            self.assertEqual(close.context["report"].tables[0].rows, [["Check", 1, Decimal("50.00")]])
            # A refusal takes nothing.
            self.apply(premises, person, hens=9, **ok)
            self.assertEqual(HenPermit.objects.filter(status="refused", payment=None).count(), 1)
            self.assertEqual(Payment.objects.count(), 1)

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
        # Not offered where the law has none (issue 29): the form itself answers 404, naming why.
        self.assertContains(r, "has no hen permit", status_code=404)

    def issued(self, day, name="Clucky"):
        person, premises, _ = self.owner_and_dog("cedarburg", name)
        self.login(self.clerks["cedarburg"])
        with on(day):
            r = self.apply(premises, person, all_owners_signed="on", premises_registration="WI-0042", site_plan=plan())
            self.assertEqual(r.status_code, 302, r.content[-2000:])
        return HenPermit.objects.latest("pk")

    def test_the_site_plan_is_checked_by_its_content_and_size(self):
        person, premises, _ = self.owner_and_dog("cedarburg", "Plan")
        self.login(self.clerks["cedarburg"])
        with on(date(2026, 5, 4)):
            ok = {"all_owners_signed": "on", "premises_registration": "WI-1"}
            r = self.apply(premises, person, site_plan=plan(b"MZ\x90\x00 not a plan", "plan.pdf"), **ok)
            self.assertContains(r, "Upload a photo (JPEG or PNG) or a PDF.")
            with override_settings(DOGTAG_UPLOAD_MAX_BYTES=100):
                r = self.apply(premises, person, site_plan=plan(PDF + b" " * 200), **ok)
                self.assertContains(r, "the largest accepted is")
            self.assertFalse(HenPermit.objects.exists())
            # A photo of the plan is fine; it is stored under its real kind and served to staff.
            self.assertEqual(self.apply(premises, person, site_plan=plan(PNG, "plan.pdf"), **ok).status_code, 302)
            permit = HenPermit.objects.get()
            self.assertTrue(permit.site_plan.name.endswith(".png"), permit.site_plan.name)
            r = self.client.get(reverse("hen-permit-site-plan", args=[permit.pk]))
            self.assertEqual(b"".join(r.streaming_content), PNG)

    def test_a_site_plan_missing_from_storage_is_a_404_page_that_says_so(self):
        person, premises, _ = self.owner_and_dog("cedarburg", "Lost")
        self.login(self.clerks["cedarburg"])
        with on(date(2026, 5, 4)):
            ok = {"all_owners_signed": "on", "premises_registration": "WI-1"}
            self.assertEqual(self.apply(premises, person, site_plan=plan(), **ok).status_code, 302)
            permit = HenPermit.objects.get()
            default_storage.delete(permit.site_plan.name)  # lost, or records restored without their files
            r = self.client.get(reverse("hen-permit-site-plan", args=[permit.pk]))
            self.assertContains(r, "File missing", status_code=404)
            self.assertContains(r, "The site plan this record names", status_code=404)

    def test_renewal_without_changes_in_late_december_covers_the_next_year_once(self):
        permit = self.issued(date(2026, 5, 4))
        with on(date(2026, 12, 28)):
            self.login(self.clerks["cedarburg"])
            page = self.client.get(reverse("hen-permit-renew", args=[permit.pk])).content.decode()
            self.assertIn("carried forward", page)
            r = self.client.post(reverse("hen-permit-renew", args=[permit.pk]), RENEWAL_FEE)
            renewal = HenPermit.objects.latest("pk")
            self.assertRedirects(r, reverse("hen-permit", args=[renewal.pk]))
            # (d)(7) "renew the permit annually by paying the renewal fee": the plan on file is kept.
            self.assertEqual(
                (renewal.renewal_of, renewal.fee, renewal.fee_kind, renewal.expires_on, renewal.site_plan.name),
                (permit, Decimal("25.00"), "renewal", date(2027, 12, 31), permit.site_plan.name),
            )
            r = self.client.post(reverse("hen-permit-renew", args=[permit.pk]), RENEWAL_FEE)
            self.assertContains(r, f"already renewed by permit #{renewal.pk}")
        with on(date(2027, 12, 15)):
            self.login(self.clerks["cedarburg"])
            # With changes, a new full application for the next year: $50 and a site plan (sections from the pack).
            r = self.apply(
                permit.premises,
                permit.applicant,
                hens=3,
                all_owners_signed="on",
                premises_registration="WI-0042",
                renewal_of=renewal.pk,
                changes="on",
            )
            self.assertContains(r, "§ 7-1-26(d)(1)(iv), § 7-1-26(d)(7)")
            form = self.client.get(reverse("hen-permit-new", args=["cedarburg"]), {"renewal_of": renewal.pk})
            self.assertContains(form, f'<option value="{renewal.pk}" selected>')
            r = self.apply(
                permit.premises,
                permit.applicant,
                hens=3,
                all_owners_signed="on",
                premises_registration="WI-0042",
                renewal_of=renewal.pk,
                changes="on",
                site_plan=plan(),
            )
            changed = HenPermit.objects.latest("pk")
            self.assertEqual(
                (changed.fee, changed.fee_kind, changed.hens, changed.expires_on),
                (Decimal("50.00"), "application", 3, date(2028, 12, 31)),
            )

    def test_the_clerk_revokes_with_a_reason_and_nothing_is_deleted(self):
        permit = self.issued(date(2026, 5, 4))
        with on(date(2026, 12, 20)):
            self.login(self.clerks["cedarburg"])
            self.assertEqual(
                self.client.post(reverse("hen-permit-renew", args=[permit.pk]), RENEWAL_FEE).status_code, 302
            )
            renewal = HenPermit.objects.latest("pk")
        with on(date(2026, 12, 22)):
            self.login(self.clerks["cedarburg"])
            page = self.client.get(reverse("hen-permit-revoke", args=[permit.pk])).content.decode()
            # The text names no procedure; the choice and (c)(3) come from the pack.
            self.assertIn("§ 7-1-26(c)(3)", page)
            self.assertIn("contrary to the terms of any permit issued under this section", page)
            self.assertIn("names no revocation procedure", page)
            r = self.client.post(reverse("hen-permit-revoke", args=[permit.pk]), {"reason": " "})
            self.assertContains(r, "This field is required")
            r = self.client.post(
                reverse("hen-permit-revoke", args=[permit.pk]), {"reason": "a rooster crowing, seen 12/21"}
            )
            self.assertRedirects(r, reverse("hen-permit", args=[permit.pk]))
            permit.refresh_from_db()
            renewal.refresh_from_db()
            self.assertEqual(
                (permit.status, permit.revoked_on, permit.revocation_reason),
                ("revoked", date(2026, 12, 22), "a rooster crowing, seen 12/21"),
            )
            self.assertEqual(renewal.status, "revoked")  # next year's renewal goes with it
            self.assertEqual(AuditEvent.objects.filter(action="hen_permit.revoke").count(), 2)
            page = self.client.get(reverse("hen-permit", args=[permit.pk])).content.decode()
            self.assertIn("Revoked December 22, 2026", page)
            self.assertIn("§ 7-1-26(c)(3)", page)
            self.assertNotIn(reverse("hen-permit-renew", args=[permit.pk]), page)
            # A revoked permit is not renewed, revoked again or printed.
            self.assertContains(self.client.get(reverse("hen-permit-renew", args=[permit.pk])), "cannot be renewed")
            r = self.client.post(reverse("hen-permit-renew", args=[renewal.pk]), RENEWAL_FEE)
            self.assertContains(r, f"Hen permit #{renewal.pk} was revoked; it cannot be renewed")
            r = self.client.post(reverse("hen-permit-revoke", args=[permit.pk]), {"reason": "again"})
            self.assertContains(r, "only an issued permit is revoked")
            self.assertEqual(self.client.get(reverse("hen-permit-pdf", args=[permit.pk])).status_code, 404)
            self.assertEqual(HenPermit.objects.count(), 2)
            listing = self.client.get(reverse("hen-permits", args=["cedarburg"]), {"status": "revoked"})
            self.assertContains(listing, "December 22, 2026")

    def test_a_refused_permit_is_not_renewed_or_revoked(self):
        person, _, _ = self.owner_and_dog("cedarburg", "Rooster")
        duplex = registry.create_premises(
            acting_user=self.clerks["cedarburg"],
            municipality=self.places["cedarburg"],
            street="5 Duplex Ln",
            use="duplex",
        )
        self.login(self.clerks["cedarburg"])
        with on(date(2026, 5, 4)):
            self.apply(duplex, person, all_owners_signed="on", premises_registration="WI-7")
            refused = HenPermit.objects.get()
            self.assertEqual(refused.status, "refused")
            r = self.client.post(reverse("hen-permit-renew", args=[refused.pk]), RENEWAL_FEE)
            self.assertContains(r, "was refused; it cannot be renewed")
            r = self.client.post(reverse("hen-permit-revoke", args=[refused.pk]), {"reason": "x"})
            self.assertContains(r, "only an issued permit is revoked")
            self.assertEqual(HenPermit.objects.count(), 1)

    def test_only_the_clerk_revokes_and_other_municipalities_get_404(self):
        permit = self.issued(date(2026, 5, 4))
        with on(date(2026, 6, 1)):
            self.login(self.chief)
            self.assertEqual(
                self.client.post(reverse("hen-permit-revoke", args=[permit.pk]), {"reason": "x"}).status_code, 403
            )
            self.login(self.clerks["webster"])
            for name in (
                "hen-permit",
                "hen-permit-revoke",
                "hen-permit-renew",
                "hen-permit-site-plan",
                "hen-permit-pdf",
            ):
                self.assertEqual(self.client.get(reverse(name, args=[permit.pk])).status_code, 404, name)
            self.assertEqual(self.client.get(reverse("hen-permits", args=["cedarburg"])).status_code, 404)
        permit.refresh_from_db()
        self.assertEqual(permit.status, "issued")


@MEDIA
class OnePermitPerParcelTests(EnforcementTestCase):
    apply, issued = HenPermitTests.apply, HenPermitTests.issued

    def test_a_second_permit_for_the_same_parcel_and_year_is_refused(self):
        permit = self.issued(date(2026, 5, 4))
        with on(date(2026, 6, 1)):
            signed = {"all_owners_signed": "on", "premises_registration": "WI-0042"}
            r = self.apply(permit.premises, permit.applicant, **signed, site_plan=plan())
            self.assertContains(r, f"Hen permit #{permit.pk} is already issued for")
        self.assertEqual(HenPermit.objects.filter(status="issued").count(), 1)

    def test_the_database_holds_one_issued_permit_a_parcel_and_year(self):
        permit = self.issued(date(2026, 5, 4))
        copy = {f.attname: getattr(permit, f.attname) for f in HenPermit._meta.concrete_fields if not f.primary_key}
        # A refused or revoked permit for the same parcel and year is kept beside it.
        HenPermit.objects.create(**{**copy, "status": HenPermit.Status.REFUSED})
        HenPermit.objects.create(**{**copy, "status": HenPermit.Status.REVOKED})
        HenPermit.objects.create(**{**copy, "expires_on": date(2027, 12, 31)})  # next year's
        with self.assertRaises(IntegrityError), transaction.atomic():
            HenPermit.objects.create(**copy)  # as a second clerk's insert at the same moment would
        # Through the actions' common save, the clash is a refusal, not a 500.
        with self.assertRaises(ValidationError), transaction.atomic():
            save_record(
                HenPermit(**copy), acting_user=self.clerks["cedarburg"], action="hen_permit.issue", roles=ISSUERS
            )
        self.assertEqual(HenPermit.objects.filter(status="issued", expires_on=date(2026, 12, 31)).count(), 1)

    def test_a_blank_registration_number_is_a_field_to_fill_not_a_refusal_and_a_refusal_sent_twice_is_one(self):
        person, premises, _ = self.owner_and_dog("cedarburg", "Henny")
        self.login(self.clerks["cedarburg"])
        with on(date(2026, 5, 4)):
            r = self.apply(premises, person, all_owners_signed="on", site_plan=plan())
            self.assertEqual(r.status_code, 200)
            self.assertContains(r, "Enter the applicant&#x27;s Livestock Premises Registration number")
            self.assertContains(r, "§ 7-1-26(d)(1)(ii)")
            self.assertFalse(HenPermit.objects.exists())
            # A refusal on its grounds (five hens), pressed twice, is recorded once.
            for _ in range(2):
                self.apply(premises, person, hens=5, all_owners_signed="on", premises_registration="WI-7")
            self.assertEqual(HenPermit.objects.get().reasons, ["more than 4 hens"])
