"""Bites and rabies quarantines: the order, delivery, the three examinations, release on the
veterinarian's certificate, symptoms and the laboratory; exposure; a district quarantine."""

from datetime import date, datetime

from django.urls import reverse

from dogtag.enforcement.models import Case, QuarantineOrder
from tests.base import CHICAGO, on
from tests.enforcement.helpers import EnforcementTestCase


class QuarantineTests(EnforcementTestCase):
    def bite(self, slug, dog, bitten_on):
        self.assert_posted(
            self.post(
                "bite-new",
                slug,
                {"animal": dog.pk, "victim_name": "Vic Tim", "bitten_on": bitten_on, "place": "the sidewalk"},
            )
        )
        return Case.objects.filter(kind="bite").latest("pk").bite

    def test_it_walks_a_webster_bite_from_report_to_release_on_the_certificate(self):
        _, _, dog = self.owner_and_dog("webster", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 6, 1), hour=14):
            bite = self.bite("webster", dog, "2026-06-01")
            self.assert_posted(
                self.post(
                    "bite-quarantine", bite.pk, {"place": "isolation_facility", "facility": "Burnett County shelter"}
                )
            )
            order = QuarantineOrder.objects.get(case=bite.case)
            case = order.case
            self.assertTrue(order.currently_immunized)
            # § 98-5: "no later than 24 hours after the original order is issued"
            self.assertEqual(self.deadline(case, "delivery").due_at, datetime(2026, 6, 2, 14, tzinfo=CHICAGO))
            # § 98-5: "at least 10 days after the incident"; examinations on the first, last and one intervening day
            self.assertEqual(self.deadline(case, "examination.first").due_on, date(2026, 6, 1))
            self.assertEqual(self.deadline(case, "examination.intervening").due_on, date(2026, 6, 6))
            self.assertEqual(self.deadline(case, "examination.last").due_on, date(2026, 6, 11))
            self.assertEqual(self.deadline(case, "observation").due_on, date(2026, 6, 11))
            # § 98-9: "confined for not less than 14 days"
            self.assertEqual(self.deadline(case, "owner_confinement").due_on, date(2026, 6, 15))
            self.assertEqual(self.deadline(case, "owner_confinement").citations[-1]["section"], "§ 98-9")
            self.assert_posted(self.post("quarantine-delivery", order.pk, {"delivered_at": "2026-06-01T16:30"}))
            self.assertEqual(self.deadline(case, "delivery").done_on, date(2026, 6, 1))
        self.login(self.doc)
        with on(date(2026, 6, 1), hour=17):
            r = self.post(
                "quarantine-examination",
                order.pk,
                {"which": "last", "examined_on": "2026-06-01", "findings": "healthy"},
            )
            self.refused(r, "This examination falls on June 11, 2026", "§ 98-5")
            self.assert_posted(
                self.post(
                    "quarantine-examination",
                    order.pk,
                    {"which": "first", "examined_on": "2026-06-01", "findings": "alert, eating"},
                )
            )
        with on(date(2026, 6, 5)):
            self.assert_posted(
                self.post(
                    "quarantine-examination",
                    order.pk,
                    {"which": "intervening", "examined_on": "2026-06-05", "findings": "no change"},
                )
            )
        with on(date(2026, 6, 10)):
            r = self.post("quarantine-release", order.pk, {"released_on": "2026-06-10", "release_certificate": "C-9"})
            self.refused(r, "The observation runs through June 11, 2026")
        with on(date(2026, 6, 11)):
            r = self.post("quarantine-release", order.pk, {"released_on": "2026-06-11", "release_certificate": "C-9"})
            self.refused(r, "Examinations not recorded: last day of isolation")
            self.assert_posted(
                self.post(
                    "quarantine-examination",
                    order.pk,
                    {"which": "last", "examined_on": "2026-06-11", "findings": "healthy"},
                )
            )
            r = self.post("quarantine-release", order.pk, {"released_on": "2026-06-11"})
            self.refused(r, "veterinarian")
            self.assert_posted(
                self.post(
                    "quarantine-release", order.pk, {"released_on": "2026-06-11", "release_certificate": "C-9, Dr. Doc"}
                )
            )
        order.refresh_from_db()
        case.refresh_from_db()
        self.assertEqual((order.released_on, order.released_by), (date(2026, 6, 11), self.doc))
        self.assertEqual(case.closed_on, date(2026, 6, 11))
        record = self.client.get(reverse("quarantine-examinations-pdf", args=[order.pk]))
        self.assertTrue(record.content.startswith(b"%PDF"))

    def test_it_refuses_the_owners_premises_for_a_dog_not_immunized_and_an_officer_only_step_to_a_clerk(self):
        _, _, dog = self.owner_and_dog("webster", "Rocky")
        self.login(self.chief)
        with on(date(2026, 6, 1)):
            bite = self.bite("webster", dog, "2026-06-01")
            r = self.post("bite-quarantine", bite.pk, {"place": "owner_premises", "facility": "home"})
            self.refused(r, "isolation facility (not currently immunized on the day of the bite)", "§ 98-5")
            self.login(self.clerks["webster"])
            r = self.post("bite-quarantine", bite.pk, {"place": "isolation_facility", "facility": "shelter"})
            self.assertEqual(r.status_code, 403)
            self.assertFalse(QuarantineOrder.objects.exists())

    def test_it_records_symptoms_euthanasia_and_the_laboratory_in_cedarburg(self):
        _, _, dog = self.owner_and_dog("cedarburg", "Scout")
        self.login(self.chief)
        with on(date(2026, 7, 6)):
            bite = self.bite("cedarburg", dog, "2026-07-06")
            # § 7-1-5(e)(1): confined "by a licensed veterinarian within the City of Cedarburg"
            r = self.post("bite-quarantine", bite.pk, {"place": "isolation_facility", "facility": "shelter"})
            self.refused(r, "a licensed veterinarian within the city", "§ 7-1-5(e)(1)")
            self.assert_posted(
                self.post(
                    "bite-quarantine",
                    bite.pk,
                    {"place": "veterinarian_within_city", "facility": "Cedarburg Animal Hospital"},
                )
            )
            order = bite.case.quarantine
            self.assertEqual(self.deadline(order.case, "observation").due_on, date(2026, 7, 16))
        self.login(self.doc)
        with on(date(2026, 7, 9)):
            self.assert_posted(
                self.post(
                    "quarantine-symptoms",
                    order.pk,
                    {
                        "symptoms_on": "2026-07-09",
                        "symptoms": "paralysis, hypersalivation",
                        "euthanized_on": "2026-07-09",
                        "lab_submitted_on": "2026-07-09",
                        "laboratory": "Wisconsin State Laboratory of Hygiene",
                    },
                )
            )
            self.assertFalse(order.case.open_deadlines().exclude(key="owner_confinement").exists())
        with on(date(2026, 7, 11)):
            r = self.post(
                "quarantine-lab-result",
                order.pk,
                {"lab_result": "positive", "lab_result_on": "2026-07-11", "notified": ""},
            )
            self.refused(r, "notified")
            self.assert_posted(
                self.post(
                    "quarantine-lab-result",
                    order.pk,
                    {
                        "lab_result": "positive",
                        "lab_result_on": "2026-07-11",
                        "notified": "Vic Tim; Dr. Smith (physician); Ozaukee County health department",
                    },
                )
            )
        order.refresh_from_db()
        self.assertEqual(order.lab_result, "positive")
        self.assertEqual(order.case.closed_on, date(2026, 7, 11))

    def test_it_confines_an_unimmunized_dog_180_days_after_exposure_with_the_vaccination_window(self):
        _, _, dog = self.owner_and_dog("benton", "Duke")
        self.login(self.chief)
        with on(date(2026, 1, 10)):
            self.assert_posted(
                self.post(
                    "exposure-new",
                    "benton",
                    {"animal": dog.pk, "exposed_on": "2026-01-10", "facility": "owner's kennel"},
                )
            )
            order = QuarantineOrder.objects.get(kind="exposure")
            # s. 95.21: "leashed or confined 180 days", "vaccination between day 155 and day 165"
            self.assertEqual(self.deadline(order.case, "confinement").due_on, date(2026, 7, 9))
            vaccination = self.deadline(order.case, "vaccination")
            self.assertEqual(vaccination.due_on, date(2026, 6, 24))
            self.assertIn("June 14", vaccination.label)
        self.login(self.doc)
        with on(date(2026, 7, 9)):
            r = self.post(
                "quarantine-release", order.pk, {"released_on": "2026-07-09", "revaccinated_on": "2026-06-10"}
            )
            self.refused(r, "between June 14, 2026 and June 24, 2026")
            self.assert_posted(
                self.post(
                    "quarantine-release", order.pk, {"released_on": "2026-07-09", "revaccinated_on": "2026-06-20"}
                )
            )

    def test_it_confines_an_immunized_dog_60_days_after_exposure(self):
        _, _, dog = self.owner_and_dog("cedarburg", "Pepper", vaccinated_on=date(2025, 9, 1))
        self.login(self.chief)
        with on(date(2026, 1, 10)):
            self.assert_posted(
                self.post(
                    "exposure-new", "cedarburg", {"animal": dog.pk, "exposed_on": "2026-01-10", "facility": "home"}
                )
            )
            order = QuarantineOrder.objects.get(kind="exposure")
            # § 7-1-5(e)(3)b: "leashed or confined for sixty (60) days"
            self.assertEqual(self.deadline(order.case, "confinement").due_on, date(2026, 3, 11))
            self.assertEqual(self.deadline(order.case, "vaccination").label, "Revaccinate as soon as possible")

    def test_it_declares_a_district_quarantine_with_its_posting(self):
        self.login(self.clerks["webster"])
        with on(date(2026, 2, 1)):
            self.assert_posted(
                self.post(
                    "district-new",
                    "webster",
                    {
                        "declared_on": "2026-02-01",
                        "ends_on": "2026-03-01",
                        "area": "The Village of Webster",
                        "ordered_by": "Burnett County health department",
                        "posted_at": "Village Hall; Library",
                    },
                )
            )
            case = Case.objects.get(kind="district")
            # § 98-5: notices posted "in at least three public places"
            self.assertEqual(self.deadline(case, "posting").label, "Post the notice in 3 public places")
            notice = self.client.get(reverse("district-notice-pdf", args=[case.district.pk]))
            self.assertTrue(notice.content.startswith(b"%PDF"))
        self.login(self.clerks["river-hills"])
        r = self.post(
            "district-new",
            "river-hills",
            {
                "declared_on": "2026-02-01",
                "ends_on": "2026-03-01",
                "area": "River Hills",
                "ordered_by": "health department",
            },
        )
        self.refused(r, "no district rabies quarantine provision")

    def test_it_extends_the_isolation_and_moves_the_last_examination(self):
        _, _, dog = self.owner_and_dog("benton", "Snappy", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 8, 3)):
            bite = self.bite("benton", dog, "2026-08-03")
            self.assert_posted(self.post("bite-quarantine", bite.pk, {"place": "owner_premises", "facility": "home"}))
            order = bite.case.quarantine
            # s. 95.21 observation of 10 days; § 115-8 the owner's confinement "for not less than 10 days"
            self.assertEqual(self.deadline(order.case, "observation").due_on, date(2026, 8, 13))
            self.assertEqual(self.deadline(order.case, "owner_confinement").due_on, date(2026, 8, 13))
            self.assertFalse(order.case.deadlines.filter(key="delivery").exists())
        self.login(self.doc)
        with on(date(2026, 8, 13)):
            r = self.post("quarantine-extend", order.pk, {"extended_until": "2026-08-12", "extension_reason": "x"})
            self.refused(r, "An extension ends after August 13, 2026")
            self.assert_posted(
                self.post(
                    "quarantine-extend", order.pk, {"extended_until": "2026-08-17", "extension_reason": "lethargic"}
                )
            )
            self.assertEqual(self.deadline(order.case, "examination.last").due_on, date(2026, 8, 17))
            r = self.post("quarantine-release", order.pk, {"released_on": "2026-08-13", "release_certificate": "C"})
            self.refused(r, "The observation runs through August 17, 2026")

    def test_a_bite_by_a_stray_is_reported_then_linked_when_the_animal_is_found(self):
        owner, _, dog = self.owner_and_dog("webster", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 6, 1), hour=14):
            body = {"victim_name": "Vic Tim", "bitten_on": "2026-06-01", "place": "the park"}
            self.refused(self.post("bite-new", "webster", body), "describe it if it is unknown or a stray")
            self.assertFalse(Case.objects.filter(kind="bite").exists())
            stray = "brown shepherd mix, red collar, ran north"
            self.assert_posted(self.post("bite-new", "webster", {**body, "animal_description": stray}))
            bite = Case.objects.get(kind="bite").bite
            self.assertEqual(bite.case.title, f"Bite by {stray} on June 1, 2026")
            page = self.client.get(reverse("case", args=[bite.case_id]))
            self.assertContains(page, reverse("bite-identify", args=[bite.pk]))
            self.assertNotContains(page, reverse("bite-quarantine", args=[bite.pk]))
            self.refused(self.post("bite-quarantine", bite.pk, {"place": "isolation_facility", "facility": "x"}),
                         "Identify the animal first")  # fmt: skip
        with on(date(2026, 6, 2), hour=9):
            self.login(self.chief)
            self.assert_posted(self.post("bite-identify", bite.pk, {"animal": dog.pk}))
            bite.refresh_from_db()
            bite.case.refresh_from_db()
            self.assertEqual((bite.animal, bite.case.animal, bite.case.owner), (dog, dog, owner))
            self.assertEqual(bite.case.title, f"Bite by {dog} on June 1, 2026")
            self.assert_posted(
                self.post("bite-quarantine", bite.pk, {"place": "isolation_facility", "facility": "Burnett shelter"})
            )
            self.assertTrue(QuarantineOrder.objects.filter(case=bite.case, animal=dog).exists())
