"""Every date a person enters is checked against the record's own dates and the law's window, and
the message names both dates in words and the section (issue 29, bug 1)."""

from datetime import date

from dogtag.enforcement.models import Citation, Declaration
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase
from tests.enforcement.test_declarations import incident


def scheduled_hearing(t):
    """A River Hills dog declared dangerous, served March 4, a hearing scheduled March 12 (window
    March 11 to 18)."""
    _, _, dog = t.owner_and_dog("river-hills", "Fang", vaccinated_on=date(2025, 5, 1))
    t.login(t.chief)
    with on(date(2026, 3, 4)):
        body = {"animal": dog.pk, "determined_on": "2026-03-02", "evidence": "bite report"}
        t.assert_posted(t.post("declaration-new", "river-hills", {**body, **incident("2026-02-27", "bite_injury")}))
        decl = Declaration.objects.latest("pk")
        served = {"service_method": "certified_mail", "mailed_on": "2026-03-02", "received_on": "2026-03-04"}
        t.assert_posted(t.post("declaration-serve", decl.pk, served))
        t.assert_posted(t.post("declaration-hearing-request", decl.pk, {"requested_on": "2026-03-04"}))
        hearing = {"scheduled_on": "2026-03-12", "time": "10:00", "place": "Village Hall"}
        t.assert_posted(t.post("declaration-hearing", decl.pk, hearing))
    return decl


class EnteredDateTests(EnforcementTestCase):
    scheduled_hearing = scheduled_hearing

    def decide(self, decl, held_on, **more):
        body = {"held_on": held_on, "outcome": "affirmed", "findings": "bite confirmed", **more}
        return self.post("declaration-hearing-decision", decl.pk, body)

    def test_it_refuses_a_decision_held_before_the_hearing_was_scheduled(self):
        decl = self.scheduled_hearing()
        with on(date(2026, 3, 20)):
            r = self.decide(decl, "2026-03-05")
            self.refused(r, "March 5, 2026", "March 12, 2026")
            self.assertFalse(decl.hearings.exclude(held_on=None).exists())
            self.assertIsNone(self.deadline(decl.case, "hearing").done_on)

    def test_it_refuses_a_decision_held_outside_the_laws_window_naming_the_section(self):
        decl = self.scheduled_hearing()
        with on(date(2026, 3, 20)):
            r = self.decide(decl, "2026-03-19")
            self.refused(r, "March 19, 2026", "March 18, 2026", "§ 2.14(6)[c](3)")
            self.assertFalse(decl.hearings.exclude(held_on=None).exists())

    def test_it_refuses_a_decision_sent_before_the_hearing_was_held(self):
        decl = self.scheduled_hearing()
        with on(date(2026, 3, 20)):
            r = self.decide(decl, "2026-03-12", decision_sent_on="2026-03-11")
            self.refused(r, "March 11, 2026", "March 12, 2026")

    def test_it_accepts_a_decision_held_on_the_day_scheduled(self):
        decl = self.scheduled_hearing()
        with on(date(2026, 3, 12)):
            self.assert_posted(self.decide(decl, "2026-03-12"))
            self.assertEqual(self.deadline(decl.case, "hearing").done_on, date(2026, 3, 12))

    def test_it_refuses_a_citations_court_date_before_it_was_issued(self):
        owner, _, dog = self.owner_and_dog("webster", "Roamer")
        self.login(self.chief)
        body = {
            "person": owner.pk,
            "animal": dog.pk,
            "violation": "98-6 running at large",
            "description": "dog at large",
            "violated_on": "2026-12-01",
            "days": 1,
        }
        with on(date(2026, 12, 3)):
            r = self.post("citation-new", "webster", {**body, "court_date": "2020-01-01"})
            self.refused(r, "January 1, 2020", "December 3, 2026")
            self.assertFalse(Citation.objects.exists())
            self.assert_posted(self.post("citation-new", "webster", {**body, "court_date": "2027-01-12"}))
