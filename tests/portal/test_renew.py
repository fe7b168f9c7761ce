import re
from datetime import date

from dogtag.outbox.models import Message
from dogtag.portal.models import Application
from tests.base import BaseTestCase, on
from tests.licensing.base import benton_license, benton_renewal_run


class RenewFromNoticeTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(2026, 2, 10)):
            cls.fee, cls.license = benton_license(cls)
        with on(date(2026, 12, 1)):
            benton_renewal_run(cls)

    @on(date(2026, 12, 2))
    def test_the_notice_link_opens_last_years_record(self):
        text = Message.objects.get(kind="renewal-notice").text
        path = re.search(r"https?://[^/\s]+(/renew/\S+/)", text).group(1)
        r = self.client.get(path)
        app = Application.objects.get()
        self.assertRedirects(r, f"/apply/a/{app.token}/")
        self.assertEqual(
            (app.kind, app.license_year, app.animal, app.email), ("renewal", 2027, self.dog, "pat@example.org")
        )
        r = self.client.get(r.url)
        self.assertContains(r, 'value="Rex"')
        self.assertContains(r, 'value="R-1001"')
        self.client.get(path)  # following the link again opens the same application
        self.assertEqual(Application.objects.count(), 1)
        self.assertEqual(self.client.get("/renew/forged-token/").status_code, 404)
