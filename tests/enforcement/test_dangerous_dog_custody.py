"""River Hills § 2.14(6)[e](1)(vii) (no sale or transfer within the Village), (viii) (notice of
an escape, bite or attack), (ix) (failure to comply) and [h] (a dog declared elsewhere), through the
staff pages and the API."""

import json
import re
from datetime import date

from django.urls import reverse

from dogtag.accounts.actions import issue_api_token
from dogtag.audit.models import AuditEvent
from dogtag.enforcement.models import Declaration
from dogtag.licensing import actions as licensing
from dogtag.registry import actions as registry
from dogtag.registry.models import Ownership
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase


def bite(day):
    return {"occurred_on": day, "incident_kind": "bite_injury", "victim": "person"}


class CustodyTests(EnforcementTestCase):
    def declare(self, slug, dog, day, **incident):
        body = {"animal": dog.pk, "determined_on": day, "evidence": "bite report", **incident}
        self.assert_posted(self.post("declaration-new", slug, body))
        return Declaration.objects.latest("pk")

    def person(self, slug, name):
        return registry.create_person(
            acting_user=self.clerks[slug],
            municipality=self.places[slug],
            name=name,
            street="1 Oak",
            city="X",
            postal_code="53217",
        )

    def transfer(self, dog, to, day="2026-04-01", **answers):
        body = {"to_person": to.pk, "on": day, **answers}
        return self.client.post(reverse("animal-transfer", args=[dog.pk]), body)

    def test_the_transfer_page_refuses_a_dangerous_dog_to_a_village_resident_outside_the_household(self):
        _, _, dog = self.owner_and_dog("river-hills", "Fang", vaccinated_on=date(2025, 5, 1))
        neighbour, spouse, buyer = (self.person("river-hills", n) for n in ("Neighbour", "Spouse", "Buyer"))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            self.declare("river-hills", dog, "2026-03-02", **bite("2026-02-27"))
        self.login(self.clerks["river-hills"])
        with on(date(2026, 4, 1)):
            ownerships, events = Ownership.objects.count(), AuditEvent.objects.count()
            form = self.client.get(reverse("animal-transfer", args=[dog.pk])).content.decode()
            self.assertIn("Does the new owner reside in the municipality?", form)
            # Unanswered: the page asks, naming the section.
            page = self.refused(self.transfer(dog, neighbour), "reside in the municipality", "§ 2.14(6)[e](1)(vii)")
            self.assertIn("say whether the recipient resides in the municipality", page)
            r = self.transfer(
                dog,
                neighbour,
                recipient_resides_in_municipality="yes",
                same_household_and_premises="no",
                status_disclosed="yes",
            )
            self.refused(r, "same household and on the same premises", "§ 2.14(6)[e](1)(vii)", "declared dangerous")
            r = self.transfer(dog, buyer, recipient_resides_in_municipality="no", status_disclosed="no")
            self.refused(r, "must disclose the dog&#x27;s status", "§ 2.14(6)[e](1)(vii)")
            # Nothing was written by the refusals.
            self.assertEqual((Ownership.objects.count(), AuditEvent.objects.count()), (ownerships, events))
            # "unless the recipient person resides permanently in the same household and on the same premises"
            r = self.transfer(
                dog,
                spouse,
                recipient_resides_in_municipality="yes",
                same_household_and_premises="yes",
                status_disclosed="yes",
            )
            self.assertEqual(r.status_code, 302)
            self.assertEqual([o.person for o in dog.current_owners()], [spouse])
            # "may sell or otherwise dispose of a registered dog to persons who do not reside within the Village"
            r = self.transfer(dog, buyer, "2026-04-02", recipient_resides_in_municipality="no", status_disclosed="yes")
            self.assertEqual(r.status_code, 302)
            self.assertEqual([o.person for o in dog.current_owners(date(2026, 4, 2))], [buyer])

    def test_no_restriction_without_a_declaration_in_force_or_for_a_potentially_dangerous_dog(self):
        _, _, dog = self.owner_and_dog("river-hills", "Growler", vaccinated_on=date(2025, 5, 1))
        _, _, pup = self.owner_and_dog("river-hills", "Pup", vaccinated_on=date(2025, 5, 1))
        _, _, benton = self.owner_and_dog("benton", "Bent", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 4)):
            incident = {"occurred_on": "2026-03-01", "incident_kind": "threat", "victim": "person", "at_large": "on"}
            self.assertEqual(
                self.declare("river-hills", dog, "2026-03-04", **incident).classification, "potentially_dangerous"
            )
            self.assertEqual(
                self.declare("benton", benton, "2026-03-04", **bite("2026-03-01")).classification, "vicious"
            )
        self.login(self.clerks["river-hills"])
        with on(date(2026, 4, 1)):
            # Nothing to ask about a potentially dangerous dog or a dog never declared.
            for animal in (dog, pup):
                form = self.client.get(reverse("animal-transfer", args=[animal.pk])).content.decode()
                self.assertNotIn("reside in the municipality", form)
            self.assertEqual(self.transfer(dog, self.person("river-hills", "A")).status_code, 302)
            self.assertEqual(self.transfer(pup, self.person("river-hills", "B")).status_code, 302)
        self.login(self.clerks["benton"])
        with on(date(2026, 4, 1)):
            # Benton's ordinance has no such rule.
            self.assertEqual(self.transfer(benton, self.person("benton", "C")).status_code, 302)

    def test_a_waived_declaration_no_longer_restricts_the_transfer(self):
        _, _, dog = self.owner_and_dog("river-hills", "Old", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            decl = self.declare("river-hills", dog, "2026-03-02", **bite("2026-02-27"))
        Declaration.objects.filter(pk=decl.pk).update(status=Declaration.Status.WAIVED)
        self.login(self.clerks["river-hills"])
        with on(date(2026, 4, 1)):
            self.assertEqual(self.transfer(dog, self.person("river-hills", "D")).status_code, 302)

    def test_it_records_the_notice_of_an_escape_and_refuses_a_waiver_claiming_no_violations(self):
        _, _, dog = self.owner_and_dog("river-hills", "Runner", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            decl = self.declare("river-hills", dog, "2026-03-02", **bite("2026-02-27"))
        with on(date(2026, 6, 10)):
            escape = {
                "event": "escaped_at_large",
                "occurred_at": "2026-06-09T21:15",
                "notice_method": "telephone",
                "description": "dug under the pen",
            }
            r = self.post("declaration-escape", decl.pk, escape)
            self.refused(r, "When did the owner or keeper notify the police?")
            r = self.post("declaration-escape", decl.pk, {**escape, "notified_at": "2026-06-09T20:00"})
            self.refused(r, "The notice comes after what happened.")
            r = self.post(
                "declaration-escape",
                decl.pk,
                {**escape, "notice_method": "not_notified", "notified_at": "2026-06-09T22:00"},
            )
            self.refused(r, "leave the time blank")
            r = self.post(
                "declaration-escape",
                decl.pk,
                {**escape, "occurred_at": "2026-02-01T10:00", "notified_at": "2026-02-01T10:05"},
            )
            self.refused(r, "before the declaration")
            self.assert_posted(self.post("declaration-escape", decl.pk, {**escape, "notified_at": "2026-06-09T23:40"}))
        n = decl.escape_notifications.get()
        self.assertFalse(n.immediate)  # the officer did not find it immediate
        self.assertEqual(n.decision["citations"][0]["section"], "§ 2.14(6)[e](1)(viii)")
        page = self.client.get(reverse("case", args=[decl.case_id])).content.decode()
        self.assertIn("Escaped its enclosure or restraint and was at large", page)
        self.assertIn("§ 2.14(6)[e](1)(viii)", page)
        self.assertIn("shall notify the Village Police Department immediately", page)
        # Not immediate: the officer may cite the owner, the citation page filled in from the notice.
        cite = re.search(r'href="([^"]+)">Cite the owner</a>', page).group(1).replace("&amp;", "&")
        form = self.client.get(cite).content.decode()
        self.assertIn('value="2026-06-09"', form)
        self.assertIn("the police not notified immediately", form)
        with on(date(2029, 3, 2)):
            self.login(self.chief)
            waiver = {
                "applied_on": "2029-03-02",
                "no_subsequent_violations": "on",
                "complied_throughout": "on",
                "behavior_program_proof": "CPDT certificate",
            }
            r = self.post("declaration-waiver", decl.pk, waiver)
            self.refused(
                r,
                "A subsequent violation is recorded: Escaped its enclosure",
                "June 9, 2026, 9:15 PM",
                "§ 2.14(6)[e](1)(viii)",
            )
        decl.refresh_from_db()
        self.assertEqual(decl.status, "in-force")

    def test_the_duty_to_notify_binds_only_dangerous_and_vicious_dogs(self):
        _, _, dog = self.owner_and_dog("river-hills", "Mild", vaccinated_on=date(2025, 5, 1))
        _, _, benton = self.owner_and_dog("benton", "Bent", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 4)):
            incident = {"occurred_on": "2026-03-01", "incident_kind": "threat", "victim": "person", "at_large": "on"}
            decl = self.declare("river-hills", dog, "2026-03-04", **incident)
            b = self.declare("benton", benton, "2026-03-04", **bite("2026-03-01"))
            body = {
                "event": "bit_or_attacked_person",
                "occurred_at": "2026-03-04T08:00",
                "notice_method": "in_person",
                "notified_at": "2026-03-04T08:10",
                "immediate": "on",
            }
            self.refused(self.post("declaration-escape", decl.pk, body), "dangerous and vicious dogs only")
            self.refused(self.post("declaration-escape", b.pk, body), "sets no duty to notify the police")

    def test_the_api_records_the_notice_through_the_case_step(self):
        _, _, dog = self.owner_and_dog("river-hills", "Apix", vaccinated_on=date(2025, 5, 1))
        token = issue_api_token(acting_user=self.chief, user=self.chief, name="dispatch")[1]
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            decl = self.declare("river-hills", dog, "2026-03-02", **bite("2026-02-27"))

        def step(body):
            return self.client.post(
                f"/api/v1/cases/{decl.case_id}/steps/declaration-escape",
                json.dumps(body),
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {token}",
            )

        with on(date(2026, 5, 1)):
            body = {
                "event": "bit_or_attacked_domestic_animal",
                "occurred_at": "2026-04-30T07:00",
                "notice_method": "not_notified",
                "notified_at": "2026-04-30T07:10",
            }
            r = step(body)
            self.assertEqual(r.status_code, 422)
            self.assertIn("leave the time blank", r.json()["errors"]["notified_at"][0])
            r = step({**body, "notified_at": None, "immediate": True})
            self.assertEqual(r.status_code, 200, r.content)
        n = decl.escape_notifications.get()
        self.assertEqual((n.notice_method, n.notified_at, n.immediate), ("not_notified", None, False))
        self.assertIn("also be required if the dog bites or attacks", n.decision["citations"][0]["quote"])

    def test_a_dog_declared_elsewhere_gets_the_village_requirements_with_their_deadlines(self):
        _, _, notified = self.owner_and_dog("river-hills", "Told")
        _, _, silent = self.owner_and_dog("river-hills", "Quiet")
        self.login(self.chief)
        body = {
            "classification": "vicious",
            "declared_by": "City of Milwaukee",
            "moved_in_on": "2026-03-02",
            "conditions": "muzzle off premises",
        }
        with on(date(2026, 3, 12)):
            # The owner told the police and clerk on March 9: the (e) clocks run from then.
            self.assert_posted(
                self.post(
                    "declared-elsewhere-new",
                    "river-hills",
                    {**body, "animal": notified.pk, "notified_on": "2026-03-09"},
                )
            )
        decl = Declaration.objects.get(animal=notified)
        reqs = {r.name: r for r in decl.requirements.all()}
        # [e](1)(v) 14 days, (vi) ten days, from the notice; [g] "upon acquisition": the move-in day
        self.assertEqual(reqs["spay_neuter"].deadline, date(2026, 3, 23))
        self.assertEqual(reqs["identification_photographs"].deadline, date(2026, 3, 19))
        self.assertEqual(reqs["vicious_dog_permit"].deadline, date(2026, 3, 2))
        self.assertEqual((reqs["liability_insurance"].mandatory, reqs["liability_insurance"].deadline), (False, None))
        self.assertIn("§ 2.14(6)[h]", [c["section"] for c in reqs["spay_neuter"].citations])
        self.assertEqual(self.deadline(decl.case, "requirement.vicious_dog_permit").due_on, date(2026, 3, 2))
        # [c](3)'s schedule for leash, muzzle and enclosure, read from the same day
        compliance = self.deadline(decl.case, "compliance")
        self.assertEqual(compliance.due_on, date(2026, 4, 8))
        self.assertIn("§ 2.14(6)[h]", [c["section"] for c in compliance.citations])
        self.assertEqual(self.deadline(decl.case, "declared_elsewhere").done_on, date(2026, 3, 9))
        with on(date(2026, 4, 20)):
            # Never notified: the clocks run from the day the Village registered the dog.
            self.assert_posted(self.post("declared-elsewhere-new", "river-hills", {**body, "animal": silent.pk}))
        decl = Declaration.objects.get(animal=silent)
        self.assertEqual(decl.registered_on, date(2026, 4, 20))
        self.assertEqual(decl.requirements.get(name="identification_photographs").deadline, date(2026, 4, 30))
        self.assertEqual(decl.requirements.get(name="spay_neuter").deadline, date(2026, 5, 4))
        page = self.client.get(reverse("case", args=[decl.case_id])).content.decode()
        self.assertIn("by City of Milwaukee", page)
        self.assertIn("the day of registration", page)
        # And the transfer restriction applies to it too ([h]: "subject to the provisions of this Section").
        self.login(self.clerks["river-hills"])
        with on(date(2026, 5, 1)):
            r = self.transfer(
                silent,
                self.person("river-hills", "E"),
                "2026-05-01",
                recipient_resides_in_municipality="yes",
                status_disclosed="yes",
            )
            self.refused(r, "§ 2.14(6)[e](1)(vii)", "§ 2.14(6)[f](1)")

    # (ix): "failure to comply ... shall result in the revocation of the dog's license and the permit
    # providing for the keeping of such dog"; the dog "subject to immediate seizure and impoundment".
    def test_a_failure_to_comply_revokes_the_license_and_the_permit_and_calls_for_seizure(self):
        _, _, dog = self.owner_and_dog("river-hills", "Brute", vaccinated_on=date(2025, 5, 1))
        clerk, village = self.clerks["river-hills"], self.places["river-hills"]
        with on(date(2026, 2, 2)):
            licensing.receive_tag_lot(
                acting_user=clerk,
                municipality=village,
                license_year=2026,
                first_serial=1,
                last_serial=10,
                received_on=date(2026, 1, 2),
            )
            license = licensing.issue_license(dog, acting_user=clerk, payment={"amount": "8.00", "method": "cash"})
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            earlier = {
                "earlier1_occurred_on": "2025-12-01",
                "earlier1_incident_kind": "serious_injury",
                "earlier1_victim": "domestic_animal",
                "earlier1_off_owner_property": "on",
            }
            serious = {**bite("2026-02-20"), "incident_kind": "serious_injury", "off_owner_property": "on"}
            decl = self.declare("river-hills", dog, "2026-03-02", **earlier, **serious)
            self.assertEqual(decl.classification, "vicious")
            self.login(clerk)
            permit = {"insurance": "Acme bond, $100,000", "insurance_statement_signed": "on", "fee_paid": "835.62"}
            self.assert_posted(self.post("declaration-vicious-dog-permit", decl.pk, permit))
        self.login(self.chief)
        with on(date(2026, 4, 10)):
            events = AuditEvent.objects.count()
            self.refused(self.post("declaration-failure", decl.pk, {"failure": " "}), "This field is required")
            self.assertEqual(AuditEvent.objects.count(), events)
            body = {"found_on": "2026-04-10", "failure": "no proof of the enclosure; the dog loose in the yard"}
            self.assert_posted(self.post("declaration-failure", decl.pk, body))
            license.refresh_from_db()
            self.assertIsNotNone(license.voided_at)
            self.assertIn("§ 2.14(6)[e](1)(ix)", license.void_reason)
            self.assertEqual(set(license.tags.values_list("status", flat=True)), {"voided"})
            self.assertTrue(AuditEvent.objects.filter(action="license.revoke", object_id=str(license.pk)).exists())
            seizure = self.deadline(decl.case, "seizure")
            self.assertEqual(seizure.due_on, date(2026, 4, 10))
            self.assertIn("§ 2.14(6)[e](1)(ix)", [c["section"] for c in seizure.citations])
            page = self.client.get(reverse("case", args=[decl.case_id])).content.decode()
            self.assertIn("no proof of the enclosure", page)
            self.assertIn("revoked April 10, 2026", page)  # the vicious-dog permit
            self.assertIn(str(license.serial), page)
        self.login(self.chief)
        with on(date(2026, 4, 11)):
            # The seizure: an impoundment of the dog meets it.
            form = self.client.get(
                reverse("impoundment-new", args=["river-hills"]), {"animal": dog.pk, "reason": "vicious"}
            )
            self.assertContains(form, f'name="animal" value="{dog.pk}"')  # the picker, with the dog chosen
            self.assertContains(form, f'value="{dog}"')
            r = self.post(
                "impoundment-new",
                "river-hills",
                {"animal": dog.pk, "found_at": "9 Elm St", "reason": "vicious", "held_at": "Village kennel"},
            )
            self.assert_posted(r)
            self.assertEqual(decl.case.deadlines.get(key="seizure", superseded=False).done_on, date(2026, 4, 11))
        with on(date(2026, 12, 28)):
            self.login(clerk)
            renewal = {"insurance": "Acme bond, $100,000", "insurance_statement_signed": "on", "fee_paid": "1000.00"}
            r = self.post("declaration-vicious-dog-permit-renew", decl.pk, renewal)
            self.refused(r, "was revoked on April 10, 2026", "§ 2.14(6)[e](1)(ix)")

    def test_benton_records_no_consequence_while_its_penalty_section_is_missing(self):
        # § 115-5B sets no revocation or seizure for a failure to comply; its penalty is the Code's
        # § 1-3, which Dogtag lacks: the refusal says so instead of "no consequence".
        _, _, dog = self.owner_and_dog("benton", "Bent", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 4)):
            decl = self.declare("benton", dog, "2026-03-04", **bite("2026-03-01"))
            body = {"found_on": "2026-03-20", "failure": "no sign posted"}
            self.refused(self.post("declaration-failure", decl.pk, body), "the adopted text of § 1-3 is not in Dogtag")
            self.assertFalse(decl.compliance_failures.exists())
