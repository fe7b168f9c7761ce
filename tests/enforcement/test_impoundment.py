"""Impoundment from intake to release or disposition, walked through the staff pages with time
frozen at each step; every date and amount checked against the ordinance text."""

from datetime import date
from decimal import Decimal

from django.urls import reverse

from dogtag.audit.models import AuditEvent
from dogtag.enforcement.models import Case, Impoundment
from dogtag.licensing import actions as licensing
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase
from tests.licensing.base import set_fees


class ImpoundmentTests(EnforcementTestCase):
    def impound(self, slug, **data):
        body = {"found_at": "Main St and 2nd", "reason": "at-large", "held_at": "Village shelter", **data}
        r = self.post("impoundment-new", slug, body)
        self.assert_posted(r)
        return Impoundment.objects.latest("pk")

    def test_it_walks_webster_from_intake_to_an_unclaimed_disposition(self):
        owner, _, dog = self.owner_and_dog("webster", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            # § 98-7: "the impounding officer must see or hear the violation ... or have ... a signed statement"
            r = self.post(
                "impoundment-new",
                "webster",
                {"animal": dog.pk, "found_at": "Main St", "reason": "at-large", "held_at": "Webster shelter"},
            )
            self.refused(r, "§ 98-7", "saw or heard")
            self.assertFalse(Impoundment.objects.exists())
            imp = self.impound("webster", animal=dog.pk, officer_saw_or_heard="on")
            case = imp.case
            self.assertEqual(case.owner, owner)
            self.assertEqual(self.deadline(case, "notice").due_on, date(2026, 3, 2))
        with on(date(2026, 3, 3)):
            self.assert_posted(
                self.post("impoundment-notice", imp.pk, {"notice_method": "mail", "notice_on": "2026-03-03"})
            )
            # "If within seven days after such notice the owner does not claim such animal": March 10.
            claim = self.deadline(case, "claim_by")
            self.assertEqual(claim.due_on, date(2026, 3, 10))
            self.assertEqual(claim.citations[0]["section"], "§ 98-7")
            page = self.client.get(reverse("case", args=[case.pk])).content.decode()
            self.assertIn("March 10, 2026", page)
            self.assertIn("§ 98-7", page)
        with on(date(2026, 3, 5)):
            # No license, and the Village Board's impoundment fee is not set: release refused, nothing written.
            events = AuditEvent.objects.count()
            r = self.post("impoundment-release", imp.pk, {"proof_of_ownership": "on", "charges_paid": "on"})
            body = self.refused(r, "Not released", "a license from the clerk", "impoundment fee” is not set", "§ 98-7")
            self.assertIn("impoundment daily fee", body)
            self.assertNotIn("impoundment_", body)
            self.assertEqual(AuditEvent.objects.count(), events)
        with on(date(2026, 3, 10)):
            r = self.post("impoundment-dispose", imp.pk, {"disposition": "euthanized"})
            self.refused(r, "through March 10, 2026")
        with on(date(2026, 3, 11)):
            self.assert_posted(
                self.post("impoundment-dispose", imp.pk, {"disposition": "other-person", "disposed_to": "Ann Adopter"})
            )
        imp.refresh_from_db()
        case.refresh_from_db()
        self.assertEqual(
            (imp.disposition, imp.disposed_on, imp.decided_by), ("other-person", date(2026, 3, 11), self.chief)
        )
        self.assertEqual(case.closed_on, date(2026, 3, 11))
        self.assertEqual(self.deadline(case, "claim_by").done_on, date(2026, 3, 10))

    def test_it_releases_in_webster_once_licensed_with_the_boards_fee_and_daily_fee(self):
        _, _, dog = self.owner_and_dog("webster", "Max", vaccinated_on=date(2025, 5, 1))
        clerk, webster = self.clerks["webster"], self.places["webster"]
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            imp = self.impound("webster", animal=dog.pk, officer_saw_or_heard="on")
        with on(date(2026, 3, 5)):
            # The Village Board sets the fees (§ 98-7 "as established by the Village Board"); the clerk licenses.
            set_fees(
                clerk,
                webster,
                {
                    "impoundment_fee": "25.00",
                    "impoundment_daily_fee": "5.00",
                    "license_tax.altered": "5.00",
                    "license_tax.unaltered": "10.00",
                    "late_fee": "5.00",
                },
                effective_on=date(2026, 1, 1),
            )
            r = self.post(
                "impoundment-release", imp.pk, {"proof_of_ownership": "on", "charges_paid": "on", "fee_paid": "40.00"}
            )
            self.refused(r, "a license from the clerk, as state law requires", "§ 98-7")
            licensing.receive_tag_lot(
                acting_user=clerk,
                municipality=webster,
                license_year=2026,
                first_serial=1,
                last_serial=50,
                received_on=date(2026, 1, 2),
            )
            licensing.issue_license(dog, acting_user=clerk, payment={"amount": "10.00", "method": "cash"})
            page = self.client.get(reverse("case", args=[imp.case_id])).content.decode()
            # $25 plus $5 for each of the 3 days from March 2 to March 5.
            self.assertIn("$40.00", page)
            r = self.post(
                "impoundment-release", imp.pk, {"proof_of_ownership": "on", "charges_paid": "on", "fee_paid": "30.00"}
            )
            self.refused(r, "release fee of $40.00")
            self.assert_posted(
                self.post(
                    "impoundment-release",
                    imp.pk,
                    {"proof_of_ownership": "on", "charges_paid": "on", "fee_paid": "40.00"},
                )
            )
        imp.refresh_from_db()
        self.assertEqual((imp.disposition, imp.fee_paid), ("owner", Decimal("40.00")))
        self.assertEqual(imp.release_decision["value"]["fee"], "40.00")

    def test_it_releases_in_river_hills_for_25_dollars_then_50_the_next_time(self):
        owner, _, dog = self.owner_and_dog("river-hills", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 4, 1)):
            imp = self.impound("river-hills", animal=dog.pk)
            page = self.client.get(reverse("case", args=[imp.case_id])).content.decode()
            self.assertIn("$25.00", page)
            r = self.post(
                "impoundment-release",
                imp.pk,
                {"proof_of_ownership": "on", "license_prepaid": "on", "charges_paid": "on", "fee_paid": "20.00"},
            )
            self.refused(r, "release fee of $25.00", "§ 2.14(4)[a]")
            self.assert_posted(
                self.post(
                    "impoundment-release",
                    imp.pk,
                    {
                        "proof_of_ownership": "on",
                        "license_prepaid": "on",
                        "charges_paid": "on",
                        "fee_paid": "25.00",
                        "license_note": "license 2026-117",
                    },
                )
            )
            imp.refresh_from_db()
            self.assertEqual((imp.disposition, imp.fee_paid), ("owner", Decimal("25.00")))
        with on(date(2026, 6, 1)):
            # "In the event that the dog is impounded again the owner shall pay a fee of Fifty ($50.00) Dollars"
            again = self.impound("river-hills", animal=dog.pk)
            self.assertEqual(again.impoundment_number, 2)
            r = self.post(
                "impoundment-release",
                again.pk,
                {"proof_of_ownership": "on", "license_prepaid": "on", "charges_paid": "on", "fee_paid": "25.00"},
            )
            self.refused(r, "release fee of $50.00")

    def test_it_refuses_release_without_a_rabies_vaccination_in_the_registry(self):
        _, _, dog = self.owner_and_dog("river-hills", "Nemo")
        self.login(self.chief)
        with on(date(2026, 4, 1)):
            imp = self.impound("river-hills", animal=dog.pk)
            r = self.post(
                "impoundment-release",
                imp.pk,
                {"proof_of_ownership": "on", "license_prepaid": "on", "charges_paid": "on", "fee_paid": "25.00"},
            )
            self.refused(r, "a current rabies vaccination in the registry", "s. 173.23")
            self.assert_posted(
                self.post(
                    "impoundment-release",
                    imp.pk,
                    {
                        "proof_of_ownership": "on",
                        "license_prepaid": "on",
                        "vaccination_prepaid": "on",
                        "charges_paid": "on",
                        "fee_paid": "25.00",
                    },
                )
            )

    def test_it_counts_sampsons_seven_days_from_receipt_of_the_notice_and_for_a_stray_from_custody(self):
        owner, _, dog = self.owner_and_dog("sampson", vaccinated_on=date(2025, 5, 1))
        clerk = self.clerks["sampson"]
        self.login(self.chief)
        with on(date(2026, 4, 6)):
            stray = self.impound("sampson", description="brown hound, no collar")
            # Section 8C: "Unclaimed stray dogs remaining in the custody of the Town for 7 days"
            self.assertEqual(self.deadline(stray.case, "claim_by").due_on, date(2026, 4, 13))
            r = self.post("impoundment-notice", stray.pk, {"notice_method": "mail", "notice_on": "2026-04-06"})
            self.refused(r, "post the written notice in public places (Ord. 3-2007 Section 8C, Ord. 3-2007 Section 8B2")
            known = self.impound("sampson", animal=dog.pk)
        self.login(clerk)
        with on(date(2026, 4, 9)):
            # Section 8B1: "within 7 days after receipt by the dog's owner": received April 8, claim by April 15.
            self.assert_posted(
                self.post(
                    "impoundment-notice",
                    known.pk,
                    {"notice_method": "mail", "notice_on": "2026-04-06", "notice_received_on": "2026-04-08"},
                )
            )
            self.assertEqual(self.deadline(known.case, "claim_by").due_on, date(2026, 4, 15))
            r = self.post(
                "impoundment-release",
                known.pk,
                {"proof_of_ownership": "on", "license_prepaid": "on", "charges_paid": "on"},
            )
            self.refused(r, "the dog properly tagged", "Section 8")
            self.assert_posted(
                self.post(
                    "impoundment-release",
                    known.pk,
                    {"proof_of_ownership": "on", "license_prepaid": "on", "tagged": "on", "charges_paid": "on"},
                )
            )
        self.login(self.chief)
        with on(date(2026, 4, 14)):
            # Section 8C: "released for scientific or research purposes under sec. 174.13"
            self.assert_posted(
                self.post("impoundment-dispose", stray.pk, {"disposition": "research", "disposed_to": "UW lab"})
            )
        self.assertEqual(Case.objects.filter(kind="impoundment", closed_on=None).count(), 0)

    def test_it_holds_a_cedarburg_dog_that_bit_someone_ten_days_and_posts_for_an_unknown_owner(self):
        self.login(self.chief)
        with on(date(2026, 5, 1)):
            r = self.post(
                "impoundment-new",
                "cedarburg",
                {
                    "description": "white terrier",
                    "found_at": "Washington Ave",
                    "reason": "bite",
                    "held_at": "Cedarburg shelter",
                    "bit_person": "on",
                },
            )
            self.refused(r, "§ 7-1-7(b)")
            imp = self.impound(
                "cedarburg", description="white terrier", reason="bite", bit_person="on", sworn_complaint="on"
            )
            r = self.post(
                "impoundment-notice",
                imp.pk,
                {"notice_method": "posting", "notice_on": "2026-05-01", "posted_at": ""},
            )
            self.refused(r, "Name the public places where the notice is posted (§ 7-1-7(c), § 7-1-7(d))")
            self.assert_posted(
                self.post(
                    "impoundment-notice",
                    imp.pk,
                    {
                        "notice_method": "posting",
                        "notice_on": "2026-05-01",
                        "posted_at": "City Hall; Library; Post Office",
                    },
                )
            )
            # § 7-1-7(c): seven days after the notice (May 8), but a biter is "retained ... for ten (10) days": May 11.
            claim = self.deadline(imp.case, "claim_by")
            self.assertEqual(claim.due_on, date(2026, 5, 11))
            # (d): the sale once the seven days pass is cited beside them
            self.assertEqual({c["section"] for c in claim.citations}, {"§ 7-1-7(c)", "§ 7-1-7(d)"})
            posting = self.client.get(reverse("impoundment-posting-pdf", args=[imp.pk]))
            self.assertEqual(posting["Content-Type"], "application/pdf")
            self.assertTrue(posting.content.startswith(b"%PDF"))


class ReleaseLicensingTests(EnforcementTestCase):
    """The release needs a license: an officer who is also a clerk licenses from the case and
    comes back to it; an officer who is not is told where the owner goes, with the clerk's hours."""

    def test_an_officer_without_the_clerks_role_gets_a_clear_hand_off(self):
        from dogtag.portal.models import MunicipalityContact

        MunicipalityContact.objects.create(
            municipality=self.places["webster"], clerk_phone="608-555-0199", clerk_hours="Mon–Thu 9–3", police_phone="1"
        )
        _, _, dog = self.owner_and_dog("webster", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            intake = {"found_at": "Main St", "reason": "at-large", "held_at": "Webster shelter"}
            self.post("impoundment-new", "webster", {"animal": dog.pk, "officer_saw_or_heard": "on", **intake})
            case = Impoundment.objects.get().case
            page = self.client.get(reverse("case", args=[case.pk]))
            self.assertNotContains(page, reverse("license-counter", args=[dog.pk]))
            self.assertContains(page, "Licenses are issued by the Village of Webster clerk")
            self.assertContains(page, "608-555-0199, Mon–Thu 9–3")
            self.assertContains(page, "Conditions: proof of ownership; licensed or prepaid")
            self.assertContains(page, "Impoundment recorded")  # the history in words, not impoundment.create
            counter = self.client.get(reverse("license-counter", args=[dog.pk]))
            self.assertContains(counter, "Send the owner there")
            self.assertNotContains(counter, '<form class="record"')

    def test_an_officer_who_is_also_the_clerk_licenses_from_the_case_and_returns_to_it(self):
        from dogtag.accounts.models import Membership, Role

        m = self.places["webster"]
        Membership.objects.create(user=self.chief, municipality=m, role=Role.CLERK)
        set_fees(self.chief, m, {"license_tax.altered": "3.00", "license_tax.unaltered": "8.00", "late_fee": "5.00"})
        licensing.receive_tag_lot(
            acting_user=self.chief, municipality=m, license_year=2026, first_serial=1, last_serial=5
        )
        _, _, dog = self.owner_and_dog("webster", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            intake = {"found_at": "Main St", "reason": "at-large", "held_at": "Webster shelter"}
            self.post("impoundment-new", "webster", {"animal": dog.pk, "officer_saw_or_heard": "on", **intake})
            case_url = reverse("case", args=[Impoundment.objects.get().case.pk])
            counter = reverse("license-counter", args=[dog.pk])
            self.assertContains(self.client.get(case_url), f"{counter}?next={case_url}")
            self.assertContains(self.client.get(counter, {"next": case_url}), f'name="next" value="{case_url}"')
            r = self.client.post(counter, {"method": "cash", "amount": "8.00", "next": case_url})
            self.assertRedirects(r, case_url)
            self.assertTrue(dog.licenses.filter(voided_at=None).exists())
            r = self.client.post(counter, {"method": "cash", "amount": "8.00", "next": "https://evil.example/"})
            self.assertEqual(r.status_code, 200)  # already licensed: refused, and never sent off-site
