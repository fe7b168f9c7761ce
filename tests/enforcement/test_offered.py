"""Issue 29, dead end 2: every menu, procedure and step is derived from the municipality's pack.
What its law lacks is not offered (the hen permit outside Cedarburg, the complaint's notice step
where the ordinance has none); what it has is reachable from the role's home."""

from datetime import date

from django.urls import reverse

from tests.base import on
from tests.enforcement import test_complaints
from tests.enforcement.helpers import EnforcementTestCase


@on(date(2026, 4, 1))
class OfferedByThePackTests(EnforcementTestCase):
    complain = test_complaints.ComplaintTests.complain

    def test_the_hen_permit_is_offered_only_where_the_ordinance_has_one(self):
        self.login(self.clerks["benton"])
        cases = self.client.get(reverse("municipality-cases", args=["benton"])).content.decode()
        self.assertNotIn("Hen permit", cases)
        self.assertNotIn("Hen permit", self.client.get(reverse("municipality", args=["benton"])).content.decode())
        r = self.client.get(reverse("hen-permit-new", args=["benton"]))
        self.assertContains(r, "has no hen permit", status_code=404)

    def test_cedarburgs_clerk_reaches_the_hen_permit_from_home(self):
        self.login(self.clerks["cedarburg"])
        home = self.client.get(reverse("municipality", args=["cedarburg"]))
        self.assertContains(home, f'href="{reverse("hen-permit-new", args=["cedarburg"])}"')
        self.assertContains(home, f'href="{reverse("hen-permits", args=["cedarburg"])}"')

    def test_an_officer_is_not_offered_the_clerks_hen_permit_application(self):
        self.login(self.chief)
        cases = self.client.get(reverse("municipality-cases", args=["cedarburg"]))
        self.assertNotContains(cases, reverse("hen-permit-new", args=["cedarburg"]))
        self.assertContains(cases, reverse("hen-permits", args=["cedarburg"]))

    def test_the_notice_step_is_offered_only_where_the_ordinance_has_it(self):
        self.login(self.chief)
        _, _, benton_dog = self.owner_and_dog("benton", "Roamer")
        _, _, cedarburg_dog = self.owner_and_dog("cedarburg", "Rover")
        benton = self.complain("benton", benton_dog, "2026-04-01", kind="at-large", formal=None)
        cedarburg = self.complain("cedarburg", cedarburg_dog, "2026-04-01", kind="at-large", formal=None)
        benton_case = self.client.get(reverse("case", args=[benton.case_id]))
        self.assertNotContains(benton_case, "Notice and repeat")
        self.assertNotContains(benton_case, reverse("complaint-next-step", args=[benton.pk]))
        cedarburg_case = self.client.get(reverse("case", args=[cedarburg.case_id]))
        self.assertContains(cedarburg_case, reverse("complaint-next-step", args=[cedarburg.pk]))

    def test_a_vet_is_not_offered_the_clerks_tools(self):
        """Issue 29, confusing: the vet saw clerk tools and was refused on submit."""
        self.login(self.doc)
        home = self.client.get(reverse("municipality", args=["cedarburg"]))
        for clerks_page in ("fees", "tags", "renewals", "hen-permit-new", "application-queue"):
            self.assertNotContains(home, reverse(clerks_page, args=["cedarburg"]), msg_prefix=clerks_page)
        self.assertContains(home, reverse("animal-new", args=["cedarburg"]))

    def test_the_release_asks_only_the_conditions_of_the_municipalitys_law(self):
        """Issue 29, confusing: the release asked for ticks and a fee the ordinance does not set."""
        from dogtag.enforcement.models import Impoundment

        self.login(self.chief)
        for slug, absent, present in (
            # no release fee set in either: no amount to type; "tagged" is a condition in Sampson only
            ("sampson", ["Amount paid"], ["Properly tagged", "Impoundment fees and charges paid"]),
            ("benton", ["Amount paid", "Properly tagged"], ["License prepaid"]),
        ):
            _, _, dog = self.owner_and_dog(slug, f"Stray of {slug}")
            body = {"animal": dog.pk, "found_at": "Main St", "reason": "at-large", "held_at": "Shelter"}
            self.assert_posted(self.post("impoundment-new", slug, body))
            imp = Impoundment.objects.latest("pk")
            page = self.client.get(reverse("impoundment-release", args=[imp.pk]))
            for label in absent:
                self.assertNotContains(page, label, msg_prefix=slug)
            for label in present:
                self.assertContains(page, label, msg_prefix=slug)
