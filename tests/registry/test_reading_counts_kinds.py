"""The readings page counts, for every kind of record a reading's question answers, the records the
other reading would answer differently: barking complaints (the four weeks of Benton § 115-11),
bite quarantine orders (Cedarburg § 7-1-5(e)'s place), declarations (Cedarburg § 7-1-6(b)(1)'s
twelve months; River Hills § 2.14(6)[c](3)'s hearing window), vicious-dog permits (River Hills
§ 2.14(6)[g]'s proration) and licenses' remittances (River Hills § 2.14(4)[a], s. 174.08(2)); and
where a reading's answers are kept by no record (a district quarantine's exemption), it says so."""

import re
from datetime import date, datetime

from django.utils import timezone

from dogtag.accounts.models import Role
from dogtag.enforcement import actions as enforcement
from dogtag.licensing import actions as licensing
from dogtag.licensing.facts import read_facts
from dogtag.licensing.owed import what_is_owed
from dogtag.permits.actions import issue_vicious_dog_permit, renew_vicious_dog_permit
from dogtag.registry.reading_counts import Counter
from dogtag.rules.amounts import LocalAmounts
from tests.base import make_user, on, text
from tests.enforcement.helpers import EnforcementTestCase
from tests.licensing.base import set_fees

INSURANCE = "Acme bond 77, $100,000"


class Counted(EnforcementTestCase):
    def counter(self, slug):
        return Counter(self.places[slug], LocalAmounts.of({}))


class ChangedComplaints(Counted):
    """Benton § 115-11: two formal written complaints 28 days apart are a violation on Dogtag's
    reading (four weeks counted under s. 990.001(4)), not on the other (the first day counted)."""

    READING = "nuisance.barking_complaints"

    def complain(self, dog, filed_on):
        with on(filed_on):
            return enforcement.record_complaint(
                acting_user=self.clerks["benton"],
                municipality=self.places["benton"],
                kind="barking",
                complainant_name="A Neighbour",
                observed_on=filed_on,
                place="next door",
                animal=dog,
                formal_written=True,
                filed_on=filed_on,
            )

    def changed(self):
        return self.counter("benton").complaints_changed("wi-benton", self.READING)

    def test_the_second_complaint_on_the_28th_day_is_counted_and_on_the_27th_is_not(self):
        _, _, near = self.owner_and_dog("benton", "Yip")
        _, _, far = self.owner_and_dog("benton", "Yap")
        before = self.changed()
        self.complain(near, date(2026, 3, 2))
        self.complain(near, date(2026, 3, 29))  # 27 days after: a violation on both readings
        self.assertEqual(self.changed(), before)
        self.complain(far, date(2026, 3, 2))
        self.assertEqual(self.changed(), before)  # one complaint: no violation on either
        second = self.complain(far, date(2026, 3, 30))  # 28 days after
        self.assertTrue(second.finding["value"]["violation"])
        self.assertEqual(self.changed(), before + 1)


class ChangedBiteQuarantines(Counted):
    """Cedarburg § 7-1-5(e): the owner's premises are a place of quarantine for an immunized dog
    only on the other reading; a dog not immunized has the same places on both."""

    READING = "quarantine.place"

    def order(self, dog, bitten_on):
        with on(bitten_on):
            bite = enforcement.report_bite(
                acting_user=self.chief,
                municipality=self.places["cedarburg"],
                animal=dog,
                victim_name="Val Victim",
                bitten_on=bitten_on,
                place="the park",
            )
            return enforcement.order_bite_quarantine(
                bite,
                acting_user=self.chief,
                place="veterinarian_within_city",
                facility="Cedarburg Animal Clinic",
                ordered_at=timezone.make_aware(datetime(bitten_on.year, bitten_on.month, bitten_on.day, 15)),
            )

    def changed(self):
        return self.counter("cedarburg").bite_quarantines_changed("wi-cedarburg", self.READING)

    def test_an_immunized_dogs_order_is_counted_and_an_unimmunized_dogs_is_not(self):
        _, _, unvaccinated = self.owner_and_dog("cedarburg", "Scout")
        _, _, vaccinated = self.owner_and_dog("cedarburg", "Pepper", vaccinated_on=date(2025, 9, 1))
        before = self.changed()
        self.order(unvaccinated, date(2026, 7, 6))
        self.assertEqual(self.changed(), before)
        order = self.order(vaccinated, date(2026, 7, 6))
        self.assertTrue(order.currently_immunized)
        self.assertEqual(self.changed(), before + 1)


class ChangedClassifications(Counted):
    """Cedarburg § 7-1-6(b)(1) "within any twelve (12) month period": one unprovoked bite off the
    owner's premises 13 months before the decision makes a dog vicious on Dogtag's reading only."""

    READING = "dangerous_dogs.classification"

    def declare(self, name, bitten_on):
        _, _, dog = self.owner_and_dog("cedarburg", name)
        incident = {"occurred_on": bitten_on, "kind": "bite_injury", "victim": "person", "off_owner_property": True}
        with on(date(2026, 5, 1)):
            return enforcement.declare_dog(
                acting_user=self.chief,
                municipality=self.places["cedarburg"],
                animal=dog,
                evidence="the bite report",
                incidents=[incident],
                determined_on=date(2026, 5, 1),
            )

    def changed(self):
        return self.counter("cedarburg").classifications_changed("wi-cedarburg", self.READING)

    def test_a_bite_a_year_and_more_before_the_decision_is_counted_and_a_recent_one_is_not(self):
        before = self.changed()
        self.assertEqual(self.declare("Recent", date(2026, 4, 1)).classification, "vicious")
        self.assertEqual(self.changed(), before)
        self.assertEqual(self.declare("Old", date(2025, 4, 1)).classification, "vicious")
        self.assertEqual(self.changed(), before + 1)


class RiverHills(Counted):
    def vicious(self, name, day):
        """[a](8): serious physical injury off the owner's property on two separate occasions."""
        _, _, dog = self.owner_and_dog("river-hills", name, vaccinated_on=date(2025, 5, 1))
        injury = {"kind": "serious_injury", "victim": "person", "off_owner_property": True}
        with on(day):
            return enforcement.declare_dog(
                acting_user=self.chief,
                municipality=self.places["river-hills"],
                animal=dog,
                evidence="two bite reports",
                incidents=[{"occurred_on": date(2025, 12, 1), **injury}, {"occurred_on": day, **injury}],
                determined_on=day,
            )


class ChangedHearingWindows(RiverHills):
    """§ 2.14(6)[c](3): the fourteenth day after service is moved past a Sunday or holiday on the
    other reading only."""

    READING = "dangerous_dogs.hearing_window"

    def contested(self, name, served_on):
        decl = self.vicious(name, served_on)
        with on(served_on):
            enforcement.serve_declaration(
                decl, acting_user=self.chief, service_method="personal_service", served_on=served_on
            )
            decl.refresh_from_db()
            return enforcement.request_hearing(decl, acting_user=self.chief, requested_on=served_on)

    def changed(self):
        return self.counter("river-hills").hearing_windows_changed("wi-river-hills", self.READING)

    def test_a_window_ending_on_christmas_is_counted_and_one_ending_on_a_weekday_is_not(self):
        before = self.changed()
        self.contested("Brutus", date(2026, 12, 11))  # the 14th day is Friday, December 25
        self.assertEqual(self.changed(), before + 1)
        self.contested("Tank", date(2026, 3, 2))  # the 14th day is Monday, March 16
        self.assertEqual(self.changed(), before + 1)
        self.vicious("Quiet", date(2026, 12, 11))  # not contested: no hearing window asked
        self.assertEqual(self.changed(), before + 1)


class ChangedPermitFees(RiverHills):
    """§ 2.14(6)[g]: a first permit issued after January 1 is prorated by day on Dogtag's reading
    and charged in full on the other; a renewal pays the full fee on both."""

    READING = "dangerous_dogs.permit_fee"

    def changed(self):
        return self.counter("river-hills").permit_fees_changed("wi-river-hills", self.READING)

    def test_a_prorated_first_permit_is_counted_and_its_renewal_is_not(self):
        decl = self.vicious("Brutus", date(2026, 7, 1))
        before = self.changed()
        clerk = self.clerks["river-hills"]
        with on(date(2026, 7, 1)):
            permit = issue_vicious_dog_permit(
                decl, acting_user=clerk, insurance=INSURANCE, fee_paid=1000, insurance_statement_signed=True
            )
        self.assertEqual(str(permit.fee), "504.11")
        self.assertEqual(self.changed(), before + 1)
        with on(date(2026, 12, 28)):
            renew_vicious_dog_permit(
                decl, acting_user=clerk, insurance=INSURANCE, fee_paid=1000, insurance_statement_signed=True
            )
        self.assertEqual(self.changed(), before + 1)


class ChangedRemittances(Counted):
    """River Hills § 2.14(4)[a] and s. 174.08(2): the commission is paid the state-minimum part on
    Dogtag's reading, the whole tax on the other; a license taxed at the minimum is paid the same."""

    READING = "remittance.payee"

    def license(self, name, **altered):
        _, _, dog = self.owner_and_dog("river-hills", name, vaccinated_on=date(2025, 5, 1), **altered)
        day = date(2026, 2, 10)
        owed = what_is_owed(read_facts(dog, day))
        with on(day):
            return licensing.issue_license(
                dog,
                acting_user=self.clerks["river-hills"],
                payment={"amount": str(owed.total), "method": "cash"},
                on=day,
            )

    def changed(self):
        return self.counter("river-hills").remittances_changed("wi-river-hills", self.READING)

    def test_a_license_taxed_above_the_state_minimum_is_counted(self):
        village, clerk = self.places["river-hills"], self.clerks["river-hills"]
        set_fees(clerk, village, {"license_tax.unaltered": "20.00"})  # the altered tax: the state minimum
        licensing.receive_tag_lot(
            acting_user=clerk,
            municipality=village,
            license_year=2026,
            first_serial=1,
            last_serial=20,
            received_on=date(2026, 1, 2),
        )
        before = self.changed()
        self.assertEqual(str(self.license("Minnie", altered=True, altered_evidence="spay certificate").tax), "3.00")
        self.assertEqual(self.changed(), before)
        self.assertEqual(str(self.license("Max").tax), "20.00")
        self.assertEqual(self.changed(), before + 1)


class ThePage(Counted):
    def page(self, slug):
        admin = make_user(f"{slug}-admin", (self.places[slug], Role.ADMINISTRATOR))
        self.login(admin)
        with on(date(2026, 9, 2)):
            return text(self.client.get(f"/m/{slug}/readings/"))

    @staticmethod
    def section(page, anchor):
        return page.split(f'id="reading-{anchor}"')[1].split("</section>")[0]

    def test_no_reading_of_a_kind_of_record_is_left_not_computed(self):
        for slug in ("benton", "webster", "cedarburg", "river-hills", "sampson"):
            with self.subTest(slug):
                self.assertNotIn("not computed", self.page(slug))

    def test_each_kind_says_how_many_of_its_records_change(self):
        cedarburg, river_hills = self.page("cedarburg"), self.page("river-hills")
        for page, anchor, counted in (
            (self.page("benton"), "nuisancebarking_complaints", "barking complaints"),
            (cedarburg, "quarantineplace", "quarantine orders"),
            (cedarburg, "dangerous_dogsclassification", "declarations"),
            (river_hills, "dangerous_dogshearing_window", "declarations"),
            (river_hills, "dangerous_dogspermit_fee", "vicious-dog permits"),
            (river_hills, "remittancepayee", "licenses (their taxes paid over)"),
        ):
            with self.subTest(anchor):
                self.assertRegex(
                    self.section(page, anchor),
                    rf"Records the other reading would change</dt><dd>0 of the 0 {re.escape(counted)} of "
                    r"[^:]+: each asked under both readings, counted where the answers differ",
                )

    def test_a_reading_no_record_keeps_says_so_and_why(self):
        for slug in ("cedarburg", "webster"):
            with self.subTest(slug):
                section = self.section(self.page(slug), "quarantinedistrict_exemption")
                self.assertIn("Records the other reading would change</dt><dd>None: whether an animal", section)
                self.assertIn("no record keeps that answer", section)
