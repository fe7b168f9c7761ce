"""Issue 29, dead end 5: the municipality's administrator invites clerks, officers and vets from
Dogtag's own pages (an emailed one-time link to set a password, then the second factor), changes
roles and deactivates accounts, each audited."""

import re

from django.contrib.auth import get_user_model
from django.urls import reverse

from dogtag.accounts.models import Membership, Role
from dogtag.audit.models import AuditEvent
from tests.base import BaseTestCase, make_user
from tests.portal.helpers import smtp_server


class StaffTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.admin = make_user("ada", (cls.benton, Role.ADMINISTRATOR))

    def test_the_administrator_invites_a_clerk_who_sets_a_password_then_the_second_factor(self):
        self.login(self.admin)
        home = self.client.get(reverse("municipality", args=["benton"]))
        self.assertContains(home, f'href="{reverse("staff", args=["benton"])}"')
        with smtp_server() as inbox, self.captureOnCommitCallbacks(execute=True):
            r = self.client.post(
                reverse("staff-invite", args=["benton"]),
                {"name": "Cora Clerk", "email": "cora@benton.example", "username": "cora", "role": "clerk"},
            )
        self.assertRedirects(r, reverse("staff", args=["benton"]))
        cora = get_user_model().objects.get(username="cora")
        self.assertTrue(Membership.objects.filter(user=cora, municipality=self.benton, role="clerk").exists())
        self.assertFalse(cora.has_usable_password())
        self.assertTrue(AuditEvent.objects.filter(action="staff.invite", actor=self.admin).exists())
        (message,) = inbox.to("cora@benton.example")
        link = re.search(r"https?://\S+/account/welcome/\S+/", inbox.text(message)).group(0)
        path = "/" + link.split("/", 3)[3]
        self.client.logout()
        r = self.client.post(path, {"new_password1": "kennel-Rabies-2026", "new_password2": "kennel-Rabies-2026"})
        self.assertRedirects(r, reverse("two-factor"), fetch_redirect_response=False)
        cora.refresh_from_db()
        self.assertTrue(cora.check_password("kennel-Rabies-2026"))
        event = AuditEvent.objects.get(action="staff.password_set")
        self.assertNotIn(cora.password, str(event.after))
        # The link works once.
        self.client.logout()
        self.assertContains(self.client.get(path), "has been used or has expired", status_code=404)

    def test_the_administrator_changes_a_role_and_deactivates_an_account(self):
        self.login(self.admin)
        membership = Membership.objects.get(user=self.clerk, municipality=self.benton)
        r = self.client.post(reverse("staff-role", args=[membership.pk]), {"role": "officer"})
        self.assertRedirects(r, reverse("staff", args=["benton"]))
        membership.refresh_from_db()
        self.assertEqual(membership.role, "officer")
        r = self.client.post(reverse("staff-deactivate", args=[membership.pk]))
        self.assertRedirects(r, reverse("staff", args=["benton"]))
        self.clerk.refresh_from_db()
        self.assertFalse(self.clerk.is_active)
        self.assertEqual(
            set(AuditEvent.objects.filter(actor=self.admin).values_list("action", flat=True)),
            {"staff.role_change", "staff.deactivate"},
        )

    def test_a_clerk_is_refused_and_the_administrator_cannot_lock_themself_out(self):
        self.login(self.clerk)
        self.assertEqual(self.client.get(reverse("staff", args=["benton"])).status_code, 403)
        self.login(self.admin)
        own = Membership.objects.get(user=self.admin)
        r = self.client.post(reverse("staff-role", args=[own.pk]), {"role": "clerk"})
        self.assertContains(r, "Another administrator changes your own role")
        own.refresh_from_db()
        self.assertEqual(own.role, "administrator")
