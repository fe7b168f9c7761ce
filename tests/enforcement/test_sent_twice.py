"""A case step sent twice (issue 14, finding 5: "the same hearing form submitted twice making two
hearings"). Every step the animal-control and permit tests post through `EnforcementTestCase.post`
is sent a second time there and must write nothing; these are the steps no walk there takes."""

import json
from datetime import date

from dogtag.accounts.actions import issue_api_token
from dogtag.enforcement.models import Citation
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase, written

CITATION = {"violation": "s. 174.042", "description": "unlicensed", "violated_on": "2026-03-01"}


@on(date(2026, 3, 2))
class SentTwiceTests(EnforcementTestCase):
    def test_closing_a_case_twice_closes_it_once(self):
        self.login(self.chief)
        _, _, dog = self.owner_and_dog("benton", "Closer")
        r = self.post("impoundment-new", "benton", {"animal": dog.pk, "found_at": "Main St", "reason": "at-large",
                                                    "held_at": "shelter", "officer_saw_or_heard": "on"})  # fmt: skip
        case = self.latest_case("impoundment")
        self.assert_posted(self.post("case-close", case.pk, {"reason": "owner took the dog at the scene"}))
        case.refresh_from_db()
        self.assertEqual((case.closed_on, case.close_reason), (date(2026, 3, 2), "owner took the dog at the scene"))
        before = written()
        self.refused(self.post("case-close", case.pk, {"reason": "again"}), "This case was closed on March 2, 2026")
        self.assertEqual(written(), before)
        self.assertTrue(r.status_code in (200, 302))

    def test_a_citation_sent_twice_through_the_api_cites_once(self):
        owner, _, dog = self.owner_and_dog("benton", "Cited")
        token = issue_api_token(acting_user=self.chief, user=self.chief, name="dispatch")[1]
        body = {**CITATION, "person_id": owner.pk, "animal_id": dog.pk}

        def cite():
            return self.client.post(
                "/api/v1/municipalities/benton/citations",
                json.dumps(body),
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {token}",
            )

        self.assertEqual(cite().status_code, 201)
        (citation,) = Citation.objects.filter(person=owner)
        before = written()
        r = cite()
        self.assertEqual(r.status_code, 422, r.content)
        self.assertIn(f"Citation #{citation.pk} was issued on March 2, 2026", r.json()["errors"]["violation"][0])
        self.assertEqual(written(), before)
        # Voided, the violation may be cited again (void and replace).
        self.login(self.chief)
        self.assert_posted(self.post("citation-void", citation.pk, {"reason": "wrong section"}))
        self.assertEqual(cite().status_code, 201)
        self.assertEqual(Citation.objects.filter(person=owner, voided_at=None).count(), 1)
