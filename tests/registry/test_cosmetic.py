"""Small things a person sees (issue 29, "Cosmetic"): the site's icon is there, an animal's breed and
color read as words, never "—, —" or "Golden Retriever golden"."""

from django.urls import reverse

from dogtag.registry import actions
from tests.base import BaseTestCase


class CosmeticTests(BaseTestCase):
    def test_the_favicon_is_served(self):
        r = self.client.get("/favicon.ico")
        self.assertEqual(r.status_code, 200)
        self.assertTrue(b"".join(r.streaming_content if r.streaming else [r.content]).startswith(b"\x00\x00\x01\x00"))

    def test_breed_and_color_read_as_words(self):
        self.dog.breed, self.dog.color = "Golden Retriever", "golden"
        self.assertEqual(self.dog.breed_and_color, "Golden Retriever, golden")
        stray = actions.register_animal(
            acting_user=self.clerk, municipality=self.benton, owner=self.owner, name="Nobody", sex="male"
        )
        self.login(self.clerk)
        page = self.client.get(reverse("animal", args=[stray.pk])).content.decode()
        self.assertIn("<dt>Breed and color</dt><dd>not recorded</dd>", page)
        self.assertNotIn("—, —", page)
