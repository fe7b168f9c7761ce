"""Issue 29, dead end 6: Cancel after a refused submit goes back where the user came from, not
to the form again (the browser's referrer is then the form itself)."""

from django.urls import reverse

from tests.base import BaseTestCase


class CancelTests(BaseTestCase):
    def test_cancel_after_a_refused_submit_returns_to_where_the_user_came_from(self):
        self.login(self.clerk)
        form = reverse("person-edit", args=[self.owner.pk])
        came_from = reverse("person", args=[self.owner.pk])
        page = self.client.get(form, HTTP_REFERER=f"http://testserver{came_from}")
        self.assertContains(page, f'<a href="http://testserver{came_from}" data-back>Cancel</a>', html=True)
        # The refused submit: the browser's referrer is now the form; the form carries the way back.
        refused = self.client.post(
            form, {"name": "", "back": f"http://testserver{came_from}"}, HTTP_REFERER=f"http://testserver{form}"
        )
        self.assertEqual(refused.status_code, 200)
        self.assertContains(refused, f'<a href="http://testserver{came_from}" data-back>Cancel</a>', html=True)

    def test_cancel_never_leaves_the_site_nor_loops_to_the_form(self):
        self.login(self.clerk)
        form = reverse("person-edit", args=[self.owner.pk])
        elsewhere = self.client.post(form, {"name": "", "back": "https://evil.example/"})
        self.assertContains(elsewhere, '<a href="/" data-back>Cancel</a>', html=True)
        looped = self.client.get(form, HTTP_REFERER=f"http://testserver{form}")
        self.assertContains(looped, '<a href="/" data-back>Cancel</a>', html=True)
