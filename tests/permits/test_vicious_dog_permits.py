"""River Hills § 2.14(6)[g]: the annual vicious-dog permit — its year, the renewal due each
January 1 as a case deadline, renewal at the full fee with the insurance shown again ([e](1)(x)),
refused once the declaration no longer binds."""

from datetime import date
from decimal import Decimal

from django.urls import reverse

from dogtag.audit.models import AuditEvent
from dogtag.enforcement import actions as enforcement
from dogtag.enforcement.models import Declaration
from dogtag.permits.actions import RENEWAL_KEY
from dogtag.permits.models import ViciousDogPermit
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase

INSURANCE = "Acme bond 77, $100,000"


class ViciousDogPermitTests(EnforcementTestCase):
    def vicious(self, day):
        """[a](8): serious physical injury off the owner's property on two separate occasions."""
        _, _, dog = self.owner_and_dog("river-hills", f"Brutus{day:%m%d}", vaccinated_on=date(2025, 5, 1))
        incidents = [
            {
                "occurred_on": date(2025, 12, 1),
                "kind": "serious_injury",
                "victim": "person",
                "off_owner_property": True,
            },
            {"occurred_on": day, "kind": "serious_injury", "victim": "person", "off_owner_property": True},
        ]
        decl = enforcement.declare_dog(
            acting_user=self.chief,
            municipality=self.places["river-hills"],
            animal=dog,
            evidence="two bite reports",
            incidents=incidents,
            determined_on=day,
        )
        self.assertEqual(decl.classification, "vicious")
        return decl

    def renewal_deadlines(self, decl):
        return list(decl.case.deadlines.filter(key=RENEWAL_KEY).order_by("pk"))

    def issue(self, decl, **data):
        return self.post(
            "declaration-vicious-dog-permit",
            decl.pk,
            {"insurance": INSURANCE, "insurance_statement_signed": "on", **data},
        )

    def renew(self, decl, **data):
        return self.post(
            "declaration-vicious-dog-permit-renew",
            decl.pk,
            {"insurance": INSURANCE, "insurance_statement_signed": "on", **data},
        )

    def test_a_permit_runs_to_december_31_and_is_renewed_in_late_december_for_the_next_year(self):
        with on(date(2026, 3, 2)):
            decl = self.vicious(date(2026, 3, 2))
            self.login(self.clerks["river-hills"])
            # The page shows the engine's fee and term before anything is paid.
            page = self.client.get(reverse("declaration-vicious-dog-permit", args=[decl.pk])).content.decode()
            self.assertIn("$835.62", page)
            self.assertIn("December 31, 2026", page)
            self.assertIn("§ 2.14(6)[e](1)(x)", page)
            # Nothing renews before a first permit exists.
            self.refused(self.renew(decl, fee_paid="1000.00"), "issue the first")
            self.assert_posted(self.issue(decl, fee_paid="835.62"))
            permit = decl.vicious_dog_permits.get()
            self.assertEqual((permit.fee, permit.expires_on), (Decimal("835.62"), date(2026, 12, 31)))
            # "due on or before January 1st of each year thereafter": January 1 is a legal holiday, so the
            # next secular day, Saturday January 2, 2027 (s. 990.001(4)(b))
            (deadline,) = self.renewal_deadlines(decl)
            self.assertEqual((deadline.label, deadline.due_on), ("Renew the vicious-dog permit", date(2027, 1, 2)))
            self.assertIn("§ 2.14(6)[g]", [c["section"] for c in deadline.citations])
            self.assertIn("s. 990.001(4)(b)", [c["section"] for c in deadline.citations])
            self.assertTrue(
                any("due on or before January 1st" in c["quote"] for c in deadline.citations), deadline.citations
            )
            listing = self.client.get(reverse("declaration-vicious-dog-permits", args=[decl.pk])).content.decode()
            self.assertIn("December 31, 2026", listing)
            self.assertIn("Renew the vicious-dog permit: January 2, 2027", listing)
            case_page = self.client.get(reverse("case", args=[decl.case_id])).content.decode()
            self.assertIn("expires December 31, 2026", case_page)
            # A second first permit for the same owner is a renewal, not a new proration.
            self.refused(self.issue(decl, fee_paid="835.62"), "renew it")
        with on(date(2026, 12, 28)):
            self.login(self.clerks["river-hills"])
            page = self.client.get(reverse("declaration-vicious-dog-permit-renew", args=[decl.pk])).content.decode()
            self.assertIn("$1000.00 (renewal)", page)  # the full fee: only the initial fee is prorated
            self.assertIn("December 31, 2027", page)
            self.assertIn("Liability insurance or surety bond", page)
            # The insurance or bond is shown again ([e](1)(x)); the section comes from the pack.
            self.refused(
                self.renew(decl, insurance="", fee_paid="1000.00"),
                "no liability insurance or surety bond shown",
                "§ 2.14(6)[e](1)(x)",
            )
            self.refused(self.renew(decl, fee_paid="835.62"), "The permit fee is $1000.00 (§ 2.14(6)[g])")
            self.assert_posted(self.renew(decl, fee_paid="1000.00"))
            renewal = ViciousDogPermit.objects.latest("pk")
            self.assertEqual(
                (renewal.renewal_of, renewal.fee, renewal.issued_on, renewal.expires_on),
                (permit, Decimal("1000.00"), date(2026, 12, 28), date(2027, 12, 31)),
            )
            old, new = self.renewal_deadlines(decl)
            self.assertEqual((old.due_on, old.done_on), (date(2027, 1, 2), date(2026, 12, 28)))
            self.assertEqual((new.due_on, new.done_on), (date(2028, 1, 3), None))  # Saturday holiday, then Sunday
            self.assertTrue(AuditEvent.objects.filter(action="vicious_dog_permit.renew").exists())
            # Renewed once for 2027: not again until it falls due.
            self.refused(self.renew(decl, fee_paid="1000.00"), "already runs to December 31, 2027")
            self.assertEqual(decl.vicious_dog_permits.count(), 2)

    def test_a_renewal_in_january_is_late_but_renews_for_that_year_at_the_full_fee(self):
        with on(date(2026, 6, 1)):
            decl = self.vicious(date(2026, 6, 1))
            self.login(self.clerks["river-hills"])
            # 214 of 365 days, June 1 through December 31
            self.assert_posted(self.issue(decl, fee_paid="586.30"))
        with on(date(2027, 1, 12)):
            self.login(self.clerks["river-hills"])
            listing = self.client.get(reverse("declaration-vicious-dog-permits", args=[decl.pk])).content.decode()
            self.assertIn("overdue", listing)
            self.assertTrue(decl.case.deadlines.get(key=RENEWAL_KEY).overdue)
            page = self.client.get(reverse("declaration-vicious-dog-permit-renew", args=[decl.pk])).content.decode()
            self.assertIn("the fee was due January 2, 2027", page)  # the day as on paper, not ISO
            self.assertNotIn("2027-01-01", page)
            self.assert_posted(self.renew(decl, fee_paid="1000.00"))
            renewal = ViciousDogPermit.objects.latest("pk")
            self.assertEqual((renewal.fee, renewal.expires_on), (Decimal("1000.00"), date(2027, 12, 31)))
            self.assertEqual(renewal.decision["value"]["renewed_after_due"], "2027-01-02")
            self.assertTrue(any("renewed after the day the fee was due" in n for n in renewal.decision["notes"]))
            old, new = self.renewal_deadlines(decl)
            self.assertEqual((old.due_on, old.done_on), (date(2027, 1, 2), date(2027, 1, 12)))  # met, late
            self.assertEqual(new.due_on, date(2028, 1, 3))

    def test_no_permit_issues_or_renews_once_the_declaration_no_longer_binds(self):
        with on(date(2026, 3, 2)):
            decl = self.vicious(date(2026, 3, 2))
            self.login(self.clerks["river-hills"])
            self.assert_posted(self.issue(decl, fee_paid="835.62"))
        # Set up the outcome of an appeal (the enforcement pages' own steps are tested there).
        Declaration.objects.filter(pk=decl.pk).update(status=Declaration.Status.OVERTURNED)
        with on(date(2026, 12, 28)):
            self.login(self.clerks["river-hills"])
            self.refused(self.renew(decl, fee_paid="1000.00"), "no longer in force")
            listing = self.client.get(reverse("declaration-vicious-dog-permits", args=[decl.pk])).content.decode()
            self.assertIn("no longer in force", listing)
            self.assertNotIn(reverse("declaration-vicious-dog-permit-renew", args=[decl.pk]), listing)
        self.assertEqual(decl.vicious_dog_permits.count(), 1)

    def test_only_the_clerk_issues_and_other_municipalities_do_not_see_it(self):
        with on(date(2026, 3, 2)):
            decl = self.vicious(date(2026, 3, 2))
            self.login(self.chief)  # an officer: sees the case, does not issue permits
            self.assertEqual(self.issue(decl, fee_paid="835.62").status_code, 403)
            self.login(self.clerks["cedarburg"])
            for name in ("declaration-vicious-dog-permit", "declaration-vicious-dog-permits"):
                self.assertEqual(self.client.get(reverse(name, args=[decl.pk])).status_code, 404, name)
            self.assertFalse(decl.vicious_dog_permits.exists())
