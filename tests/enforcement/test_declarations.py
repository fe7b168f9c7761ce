"""Dangerous and vicious dogs: River Hills § 2.14(6) from determination to appeal, and the
vicious-dog rules of Benton, Webster and Cedarburg in their own terms."""

import re
from datetime import date

from django.core.exceptions import ValidationError
from django.urls import reverse

from dogtag.audit.models import AuditEvent
from dogtag.enforcement import actions
from dogtag.enforcement.models import Declaration
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase
from tests.enforcement.test_complaints import pdf_text


def incident(day, kind, victim="person", **flags):
    data = {"occurred_on": day, "incident_kind": kind, "victim": victim}
    data.update({k: "on" for k, v in flags.items() if v})
    return data


class DeclarationTests(EnforcementTestCase):
    def declare(self, slug, dog, day, **data):
        body = {"animal": dog.pk, "determined_on": day, "evidence": "bite report of the victim; officer saw it", **data}
        self.assert_posted(self.post("declaration-new", slug, body))
        return Declaration.objects.latest("pk")

    def steps(self, case):
        """The step buttons the case page shows (the PDFs aside)."""
        page = self.client.get(reverse("case", args=[case.pk])).content.decode()
        actions = page.split('<div class="actions">', 1)[1].split("</div>", 1)[0]
        return {s for s in re.findall(r'class="button" href="[^"]*">([^<]+)</a>', actions) if "(PDF)" not in s}

    def requirement(self, decl, name):
        return decl.requirements.get(name=name)

    def test_it_walks_river_hills_from_determination_through_hearing_and_appeal(self):
        owner, _, dog = self.owner_and_dog("river-hills", "Fang", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            # [b]: provoked incidents are not counted
            r = self.post(
                "declaration-new",
                "river-hills",
                {"animal": dog.pk, "evidence": "x", **incident("2026-02-27", "bite_injury", provoked=True)},
            )
            self.refused(r, "do not bring the dog within")
            # [a](2): "has caused a bite injury to a person" -> dangerous
            decl = self.declare("river-hills", dog, "2026-03-02", **incident("2026-02-27", "bite_injury"))
            case = decl.case
            self.assertEqual(decl.classification, "dangerous")
            # [e](1)(v): spay/neuter "within 14 days of the Officer declaring"; (vi) photographs "within ten (10) days"
            self.assertEqual(self.requirement(decl, "spay_neuter").deadline, date(2026, 3, 16))
            self.assertEqual(self.requirement(decl, "identification_photographs").deadline, date(2026, 3, 12))
            insurance = self.requirement(decl, "liability_insurance")
            self.assertEqual(
                (insurance.mandatory, insurance.deadline, str(insurance.amount)), (False, None, "100000.00")
            )
            # [c](3): "in no case more than 30 days after the date of the determination"
            self.assertEqual(self.deadline(case, "compliance").due_on, date(2026, 4, 1))
            # The case page offers the steps that come next, not the whole procedure at once.
            self.assertEqual(
                self.steps(case), {"Service", "Removal notice", "Escape, bite or attack", "Failure to comply", "Waiver"}
            )
        with on(date(2026, 3, 4)):
            self.assert_posted(
                self.post(
                    "declaration-serve",
                    decl.pk,
                    {"service_method": "certified_mail", "mailed_on": "2026-03-02", "received_on": "2026-03-04"},
                )
            )
            decl.refresh_from_db()
            # [c](4): "When notice is given by certified mail, notice is effective when received"
            self.assertEqual(decl.effective_on, date(2026, 3, 4))
            # [c](3): "within 5 business days of service": Thursday March 5 ... Wednesday March 11
            self.assertEqual(self.deadline(case, "contest").due_on, date(2026, 3, 11))
        with on(date(2026, 3, 12)):
            r = self.post("declaration-hearing-request", decl.pk, {"requested_on": "2026-03-12"})
            self.refused(r, "is late: the last day was March 11, 2026", "§ 2.14(6)[c](3)")
        with on(date(2026, 3, 6)):
            self.assert_posted(self.post("declaration-hearing-request", decl.pk, {"requested_on": "2026-03-06"}))
            self.assertIn("Schedule the hearing", self.steps(case))
            self.assertNotIn("Service", self.steps(case))
            # A timely request stays the spay/neuter requirement; the photographs still fall due.
            self.assertTrue(self.requirement(decl, "spay_neuter").stayed)
            self.assertFalse(case.open_deadlines().filter(key="requirement.spay_neuter").exists())
            self.assertEqual(self.deadline(case, "requirement.identification_photographs").due_on, date(2026, 3, 12))
            # "no less than seven days, nor more than fourteen days, after the service": March 11 to March 18
            self.assertEqual(self.deadline(case, "hearing").due_on, date(2026, 3, 18))
            r = self.post(
                "declaration-hearing", decl.pk, {"scheduled_on": "2026-03-10", "time": "10:00", "place": "Village Hall"}
            )
            self.refused(r, "between March 11, 2026 and March 18, 2026")
            r = self.post("declaration-hearing", decl.pk, {"scheduled_on": "2026-03-12", "place": "Village Hall"})
            self.refused(r, "This field is required.")
            self.assertFalse(decl.hearings.exists())
            self.assert_posted(
                self.post(
                    "declaration-hearing",
                    decl.pk,
                    {"scheduled_on": "2026-03-12", "time": "14:30", "place": "Village Hall, 1 Main St",
                     "interested_parties": "Vic Tim, 3 Oak Rd"},
                )
            )  # fmt: skip
            self.assertContains(self.client.get(reverse("case", args=[decl.case_id])),
                                "Hearing March 12, 2026 at 2:30 PM, Village Hall, 1 Main St")  # fmt: skip
            notice = self.client.get(reverse("declaration-hearing-notice-pdf", args=[decl.pk]))
            self.assertIn("March 12, 2026 at 2:30 PM", pdf_text(notice))
            self.assertIn("Village Hall, 1 Main St", pdf_text(notice))
        with on(date(2026, 3, 10)):
            self.assert_posted(
                self.post(
                    "requirement-proof",
                    self.requirement(decl, "identification_photographs").pk,
                    {"proof": "two colour photographs", "proof_on": "2026-03-10"},
                )
            )
        with on(date(2026, 3, 12)):
            r = self.post(
                "declaration-hearing-decision",
                decl.pk,
                {
                    "held_on": "2026-03-12",
                    "outcome": "affirmed",
                    "findings": "bite confirmed",
                    "comply_by": "2026-04-05",
                },
            )
            self.refused(r, "may run to April 1, 2026 at the latest")
            self.assert_posted(
                self.post(
                    "declaration-hearing-decision",
                    decl.pk,
                    {
                        "held_on": "2026-03-12",
                        "outcome": "affirmed",
                        "findings": "bite confirmed",
                        "comply_by": "2026-03-31",
                        "decision_sent_on": "2026-03-12",
                    },
                )
            )
            self.assertEqual(self.deadline(case, "compliance").due_on, date(2026, 3, 31))
        with on(date(2026, 3, 13)):
            self.assert_posted(
                self.post("declaration-decision-received", decl.pk, {"decision_received_on": "2026-03-13"})
            )
            # "appeal the decision within 5 business days of receiving the decision": Friday March 20
            self.assertEqual(self.deadline(case, "appeal").due_on, date(2026, 3, 20))
        with on(date(2026, 3, 23)):
            r = self.post("declaration-appeal", decl.pk, {"filed_on": "2026-03-23", "to": "Board of Appeals"})
            self.refused(r, "is late: the last day was March 20, 2026")
        with on(date(2026, 3, 19)):
            self.assert_posted(
                self.post("declaration-appeal", decl.pk, {"filed_on": "2026-03-19", "to": "Board of Appeals"})
            )
        with on(date(2026, 4, 6)):
            self.assert_posted(
                self.post("declaration-appeal-decision", decl.pk, {"decided_on": "2026-04-06", "outcome": "upheld"})
            )
            # The stay ends when the appeal is exhausted: 14 days from April 6.
            spay = self.requirement(decl, "spay_neuter")
            self.assertEqual((spay.stayed, spay.deadline), (False, date(2026, 4, 20)))
            self.assertEqual(self.deadline(case, "requirement.spay_neuter").due_on, date(2026, 4, 20))
            # The Board set no schedule: the Chief's March 31 stands.
            self.assertEqual(self.deadline(case, "compliance").due_on, date(2026, 3, 31))
            page = self.client.get(reverse("case", args=[case.pk])).content.decode()
            self.assertIn("April 20, 2026", page)
            self.assertIn("§ 2.14(6)[e](1)(v)", page)
            for doc in ("determination", "decision", "checklist"):
                pdf = self.client.get(reverse(f"declaration-{doc}-pdf", args=[decl.pk]))
                self.assertTrue(pdf.content.startswith(b"%PDF"), doc)
            # The case's history: every step of the procedure, and nothing of any other record, even
            # one whose id is the case's.
            AuditEvent.objects.create(
                municipality=case.municipality,
                action="person.update",
                object_type="registry.person",
                object_id=str(case.pk),
                object_repr="someone else",
            )
            events = self.client.get(reverse("case", args=[case.pk])).context["events"]
            self.assertLessEqual(
                {"declaration.create", "hearing.schedule", "hearing.decide", "appeal.file", "appeal.decide"},
                {e.action for e in events},
            )
            self.assertLessEqual(
                {e.object_type for e in events},
                {"enforcement.case", "enforcement.declaration", "enforcement.hearing", "enforcement.appeal"}
                | {"enforcement.requirement"},
            )

    def test_it_declares_a_river_hills_dog_vicious_with_the_prorated_permit_and_its_removal(self):
        _, _, dog = self.owner_and_dog("river-hills", "Brutus", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            # [a](8): "on two separate occasions ... serious physical injury ... off its owner's property"
            earlier = {
                "earlier1_occurred_on": "2025-12-01",
                "earlier1_incident_kind": "serious_injury",
                "earlier1_victim": "domestic_animal",
                "earlier1_off_owner_property": "on",
            }
            r = self.post(
                "declaration-new",
                "river-hills",
                {
                    "animal": dog.pk,
                    "evidence": "bite reports",
                    **earlier,
                    "earlier1_victim": "",
                    **incident("2026-02-20", "bite_injury"),
                },
            )
            self.refused(r, "Say what happened in this incident, and to whom.")
            decl = self.declare(
                "river-hills",
                dog,
                "2026-03-02",
                **earlier,
                **incident("2026-02-20", "serious_injury", off_owner_property=True),
            )
            self.assertEqual(decl.classification, "vicious")
            # [g]: "within seven (7) business days after the declaration": March 11
            self.assertEqual(self.requirement(decl, "vicious_dog_permit").deadline, date(2026, 3, 11))
            page = self.client.get(reverse("case", args=[decl.case_id])).content.decode()
            # $1,000 a year "prorated if issued after January 1st": 305 of 365 days -> $835.62
            self.assertIn("$835.62", page)
            # The clerk issues the permit once the insurance or bond is shown ([e](1)(x)), for the prorated fee.
            self.login(self.clerks["river-hills"])
            r = self.post("declaration-vicious-dog-permit", decl.pk, {"insurance": "", "fee_paid": "835.62"})
            self.refused(r, "insurance")
            # [e](1)(x): "The dog owner shall sign a statement attesting that he shall maintain ..."
            shown = {"insurance": "Acme bond 77, $100,000"}
            r = self.post("declaration-vicious-dog-permit", decl.pk, {**shown, "fee_paid": "835.62"})
            self.refused(r, "has not signed the statement attesting to keep the insurance", "§ 2.14(6)[e](1)(x)")
            shown["insurance_statement_signed"] = "on"
            r = self.post("declaration-vicious-dog-permit", decl.pk, {**shown, "fee_paid": "500.00"})
            self.refused(r, "The permit fee is $835.62")
            self.assert_posted(self.post("declaration-vicious-dog-permit", decl.pk, {**shown, "fee_paid": "835.62"}))
            permit = decl.vicious_dog_permits.get()
            self.assertEqual(str(permit.fee), "835.62")
            self.assertEqual(self.requirement(decl, "vicious_dog_permit").proof_on, date(2026, 3, 2))
            self.assertTrue(self.deadline(decl.case, "requirement.vicious_dog_permit").done_on)
            self.login(self.chief)
            self.assert_posted(self.post("declaration-removal", decl.pk, {"served_at": "2026-03-02T15:00"}))
            # [i]: "within 24 hours of service of written notice"
            self.assertEqual(self.deadline(decl.case, "removal").due_at.isoformat(), "2026-03-03T21:00:00+00:00")

    def test_each_requirement_keeps_its_own_section_when_a_last_day_moves_past_a_sunday(self):
        _, _, dog = self.owner_and_dog("river-hills", "Sunday", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 11, 15)):
            decl = self.declare("river-hills", dog, "2026-11-15", **incident("2026-11-12", "bite_injury"))
        spay, photos = self.requirement(decl, "spay_neuter"), self.requirement(decl, "identification_photographs")
        # (v) 14 days: Sunday November 29, moved to Monday the 30th; (vi) 10 days: November 25.
        self.assertEqual((spay.deadline, photos.deadline), (date(2026, 11, 30), date(2026, 11, 25)))
        self.assertEqual(spay.citations[0]["section"], "§ 2.14(6)[e](1)(v)")
        self.assertEqual(photos.citations[0]["section"], "§ 2.14(6)[e](1)(vi)")
        self.assertIn("s. 990.001(4)(b)", [c["section"] for c in spay.citations])

    def test_facts_the_engine_refuses_are_named_with_their_rule(self):
        _, _, dog = self.owner_and_dog("river-hills", "Odd", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            decl = self.declare("river-hills", dog, "2026-03-02", **incident("2026-02-27", "bite_injury"))
            with self.assertRaises(ValidationError) as refused:
                actions.serve_declaration(decl, acting_user=self.chief, service_method="by pigeon")
        message = refused.exception.message_dict["service_method"][0]
        self.assertIn("method: Input should be 'regular_mail', 'certified_mail'", message)
        self.assertNotIn("pydantic", message)

    def test_it_applies_bentons_vicious_dog_rules_with_the_dna_test_and_the_appeal(self):
        _, _, dog = self.owner_and_dog("benton", "Tank", breed="American Pit Bull Terrier")
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            # § 115-5B(1): "Any dog or animal which attacks a human being ... without provocation"
            decl = self.declare("benton", dog, "2026-03-02", **incident("2026-02-28", "attack"))
            case = decl.case
            self.assertEqual(decl.classification, "vicious")
            # § 115-5B(5): "Within 10 days of the determination" (March 12) "comply with all provisions of
            # this section": the signs, insurance and spay/neuter proof of (2)(e)-(g) are due that day too.
            self.assertEqual(self.deadline(case, "compliance").due_on, date(2026, 3, 12))
            self.assertEqual(self.requirement(decl, "signs").deadline, date(2026, 3, 12))
            insurance = self.requirement(decl, "liability_insurance")
            self.assertEqual((insurance.deadline, str(insurance.amount)), (date(2026, 3, 12), "50000.00"))
            self.assertEqual(self.requirement(decl, "spay_neuter").deadline, date(2026, 3, 12))
            self.assertEqual(self.deadline(case, "requirement.signs").due_on, date(2026, 3, 12))
            dna = self.requirement(decl, "dna_test")
            self.assertFalse(dna.imposed)
            self.assertFalse(case.open_deadlines().filter(key="requirement.dna_test").exists())
            # § 115-5B(3): "he shall so inform the owner, keeper or harborer"; no rule on when notice takes effect
            self.assert_posted(
                self.post(
                    "declaration-serve", decl.pk, {"service_method": "personal_service", "served_on": "2026-03-02"}
                )
            )
            decl.refresh_from_db()
            self.assertEqual(decl.effective_on, date(2026, 3, 2))
            self.assertFalse(case.deadlines.filter(key="contest").exists())
            # No hearing in Benton: the next step is the appeal; no River Hills duties (escape notice,
            # removal, waiver).
            self.assertEqual(self.steps(case), {"Appeal"})
        with on(date(2026, 3, 3)):
            # § 115-5B(2)(h): "within 15 days of written notification"
            self.assert_posted(self.post("requirement-impose", dna.pk, {"written_notice_on": "2026-03-03"}))
            self.assertEqual(self.deadline(case, "requirement.dna_test").due_on, date(2026, 3, 18))
            r = self.post("declaration-hearing-request", decl.pk, {"requested_on": "2026-03-03"})
            self.refused(r, "provides no hearing")
            # § 115-5B(4): appeal "as provided in Chapter 12"
            self.assert_posted(
                self.post("declaration-appeal", decl.pk, {"filed_on": "2026-03-03", "to": "Village Board (Chapter 12)"})
            )
        with on(date(2026, 3, 20)):
            self.assert_posted(
                self.post("declaration-appeal-decision", decl.pk, {"decided_on": "2026-03-20", "outcome": "upheld"})
            )
            self.assertNotIn("Appeal decided", self.steps(case))
            # "or 10 days after an unsuccessful appeal": March 30, for the duties as for compliance
            self.assertEqual(self.deadline(case, "compliance").due_on, date(2026, 3, 30))
            self.assertEqual(self.requirement(decl, "liability_insurance").deadline, date(2026, 3, 30))
            self.assertEqual(self.deadline(case, "requirement.signs").due_on, date(2026, 3, 30))

    def test_it_applies_webster_and_cedarburg_in_their_own_terms(self):
        _, _, w_dog = self.owner_and_dog("webster", "Rex II")
        _, _, c_dog = self.owner_and_dog("cedarburg", "Biter")
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            # Webster § 98-23: a sign within 15 days
            decl = self.declare("webster", w_dog, "2026-03-02", **incident("2026-03-01", "attack", "livestock"))
            self.assertEqual(self.requirement(decl, "signs").deadline, date(2026, 3, 17))
            # § 98-23 is cut off after B(5): the screen and the determination say so, never "sets no"
            cut = "the adopted text of § 98-23 after B(5) is not in Dogtag: ask the clerk for it"
            page = self.client.get(reverse("case", args=[decl.case_id])).content.decode()
            self.assertIn(cut, page)
            self.assertIn("reading — awaiting your attorney", page)
            self.assertIn(cut, pdf_text(self.client.get(reverse("declaration-determination-pdf", args=[decl.pk]))))
            # Cedarburg § 7-1-6(b)(1): bites a person "off the owner's premises" within twelve months
            r = self.post(
                "declaration-new",
                "cedarburg",
                {"animal": c_dog.pk, "evidence": "x", **incident("2026-02-01", "bite_injury")},
            )
            self.refused(r, "§ 7-1-6(b)(1)")
            decl = self.declare(
                "cedarburg", c_dog, "2026-03-02", **incident("2026-02-01", "bite_injury", off_owner_property=True)
            )
            self.assertEqual(decl.classification, "vicious")
            # "Every owner of a vicious dog is required to post ... a notice or sign reading 'Beware of Dog'",
            # with no time of its own: due from the declaration.
            self.assertEqual(self.requirement(decl, "signs").deadline, date(2026, 3, 2))
            self.assertEqual(self.deadline(decl.case, "requirement.signs").due_on, date(2026, 3, 2))

    def test_it_waives_a_potentially_dangerous_declaration_after_two_years(self):
        _, _, dog = self.owner_and_dog("river-hills", "Growler", vaccinated_on=date(2023, 5, 1))
        self.login(self.chief)
        with on(date(2024, 3, 4)):
            # [a](6): "while at large ... poses a serious and unjustified imminent threat"
            decl = self.declare("river-hills", dog, "2024-03-04", **incident("2024-03-01", "threat", at_large=True))
            self.assertEqual(decl.classification, "potentially_dangerous")
        waiver = {
            "no_subsequent_violations": "on",
            "complied_throughout": "on",
            "behavior_program_proof": "CPDT certificate 2025-118",
        }
        self.login(self.chief)
        with on(date(2026, 3, 3)):
            # [d](3): "may apply ... to have the declaration waived after two (2) years"
            r = self.post("declaration-waiver", decl.pk, {"applied_on": "2026-03-03", **waiver})
            self.refused(r, "may apply from March 4, 2026", "§ 2.14(6)[d](3)")
            r = self.post(
                "declaration-waiver", decl.pk, {"applied_on": "2026-03-04", **waiver, "behavior_program_proof": ""}
            )
            self.refused(r, "behavior modification")
            self.assert_posted(self.post("declaration-waiver", decl.pk, {"applied_on": "2026-03-04", **waiver}))
        decl.refresh_from_db()
        self.assertEqual((decl.status, decl.case.closed_on), ("waived", date(2026, 3, 4)))

    def test_it_tracks_the_ten_days_to_report_a_dog_declared_elsewhere(self):
        _, _, dog = self.owner_and_dog("river-hills", "Import")
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            body = {
                "animal": dog.pk,
                "classification": "dangerous",
                "declared_by": "City of Milwaukee",
                "moved_in_on": "2026-03-02",
                "conditions": "muzzle off premises",
            }
            self.assert_posted(self.post("declared-elsewhere-new", "river-hills", body))
            decl = Declaration.objects.get(animal=dog)
            # [h]: "within ten (10) days of moving the animal into the Village"
            self.assertEqual(self.deadline(decl.case, "declared_elsewhere").due_on, date(2026, 3, 12))
            r = self.post("declared-elsewhere-new", "webster", {**body, "animal": self.owner_and_dog("webster")[2].pk})
            self.refused(r, "no rule for dogs declared elsewhere")
            self.assertIn("Owner's notice received", self.steps(decl.case))
        with on(date(2026, 3, 16)):
            # The owner's notice comes after the deadline: recorded, the deadline met late.
            r = self.post("declaration-elsewhere-notice", decl.pk, {"notified_on": "2026-03-01"})
            self.refused(r, "before the dog moved in")
            self.assert_posted(self.post("declaration-elsewhere-notice", decl.pk, {"notified_on": "2026-03-16"}))
            deadline = self.deadline(decl.case, "declared_elsewhere")
            self.assertEqual((deadline.done_on, deadline.done_note), (date(2026, 3, 16), "late"))
            self.assertNotIn("Owner's notice received", self.steps(decl.case))

    def test_the_case_title_follows_the_hearings_modification(self):
        _, _, dog = self.owner_and_dog("river-hills", "Fang", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            decl = self.declare("river-hills", dog, "2026-03-02", **incident("2026-02-27", "bite_injury"))
            self.assertEqual(decl.case.title, "Fang (dog) declared dangerous")
        with on(date(2026, 3, 4)):
            served = {"service_method": "certified_mail", "mailed_on": "2026-03-02", "received_on": "2026-03-04"}
            self.assert_posted(self.post("declaration-serve", decl.pk, served))
            self.assert_posted(self.post("declaration-hearing-request", decl.pk, {"requested_on": "2026-03-04"}))
            self.assert_posted(
                self.post(
                    "declaration-hearing",
                    decl.pk,
                    {"scheduled_on": "2026-03-12", "time": "10:00", "place": "Village Hall"},
                )
            )
        with on(date(2026, 3, 12)):
            self.assert_posted(
                self.post(
                    "declaration-hearing-decision",
                    decl.pk,
                    {
                        "held_on": "2026-03-12",
                        "outcome": "modified",
                        "classification": "vicious",
                        "findings": "two bites",
                        "comply_by": "2026-03-31",
                    },
                )  # fmt: skip
            )
        decl.refresh_from_db()
        decl.case.refresh_from_db()
        self.assertEqual(decl.classification, "vicious")
        self.assertEqual(decl.case.title, "Fang (dog) declared vicious")
        page = self.client.get(reverse("case", args=[decl.case.pk])).content.decode()
        heading = page.split("<h1>")[1].split("</h1>")[0]
        self.assertIn("Fang (dog) declared vicious", heading)
        self.assertIn(f"<title>Dangerous or vicious dog #{decl.case.pk}: Fang (dog) declared vicious", page)
        self.assertIn("<td>Hearing decided</td>", page)
        self.assertNotIn("hearing.decide", page)
