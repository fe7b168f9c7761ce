"""Issue 29, dead end 4: a stray that bit someone is identified without inventing an owner. The
animal is recorded as unowned (a stray at the shelter), named on the bite report, and later
claimed by its owner from the animal's page."""

from datetime import date

from django.urls import reverse

from dogtag.audit.models import AuditEvent
from dogtag.enforcement.models import Case
from dogtag.registry.models import Animal, Ownership
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase


@on(date(2026, 6, 2))
class StrayTests(EnforcementTestCase):
    def test_a_stray_is_recorded_unowned_identified_on_a_bite_and_later_claimed(self):
        self.login(self.chief)
        self.assert_posted(self.post("bite-new", "benton", {
            "animal_description": "sable collie, no collar", "victim_name": "Vic Tim",
            "bitten_on": "2026-06-01", "place": "Elm St",
        }))  # fmt: skip
        bite = Case.objects.filter(kind="bite").latest("pk").bite
        # An owner is required unless the animal is marked as having none.
        url = reverse("animal-new", args=["benton"])
        stray = {
            "name": "Collie (stray)",
            "species": "dog",
            "sex": "unknown",
            "breed": "Collie",
            "color": "sable",
            "owner_role": "owner",
        }
        refused = self.client.post(url, stray)
        self.assertContains(refused, "Choose the owner, or tick", status_code=refused.status_code)
        self.assertFalse(Animal.objects.filter(name="Collie (stray)").exists())
        r = self.client.post(url, {**stray, "unowned": "on"})
        self.assertEqual(r.status_code, 302, r.context and r.context["form"].errors)
        animal = Animal.objects.get(name="Collie (stray)")
        self.assertRedirects(r, reverse("animal", args=[animal.pk]), fetch_redirect_response=False)
        self.assertFalse(Ownership.objects.filter(animal=animal).exists())
        self.assertContains(self.client.get(reverse("animal", args=[animal.pk])), "No known owner")
        self.assert_posted(self.post("bite-identify", bite.pk, {"animal": animal.pk}))
        bite.refresh_from_db()
        self.assertEqual((bite.animal, bite.case.owner), (animal, None))
        # Claimed: the owner is recorded from the animal's page; the case keeps its history.
        owner, _, _ = self.owner_and_dog("benton", "Other")
        r = self.client.post(
            reverse("ownership-new", args=[animal.pk]),
            {"person": owner.pk, "role": "owner", "started_on": "2026-06-02"},
        )
        self.assertEqual(r.status_code, 302)
        self.assertEqual([o.person for o in animal.current_owners()], [owner])
        self.assertNotContains(self.client.get(reverse("animal", args=[animal.pk])), "No known owner")
        self.assertTrue(AuditEvent.objects.filter(action="ownership.create", object_id=str(animal.ownerships.get().pk)))
