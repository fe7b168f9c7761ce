"""A user of another municipality gets 404 or 403 — never data — from every page and every
API operation that exists. New URLs fail this test until they are added to OBJECTS."""

import json
from datetime import date

from django.urls import URLPattern, URLResolver, get_resolver

from dogtag.accounts.actions import issue_api_token
from dogtag.accounts.models import Membership, Role
from dogtag.api import api
from dogtag.audit.models import AuditEvent
from dogtag.enforcement.models import Complaint
from dogtag.imports.models import Clinic, ClinicFile, ImportRun
from dogtag.licensing.actions import store_tag_return_list
from dogtag.outbox.actions import record_text_consent
from dogtag.payments.models import Checkout, ProcessorRefund
from tests.base import BaseTestCase, make_user
from tests.enforcement.fixtures import benton_cases
from tests.licensing.base import benton_license, benton_reminder_letters, benton_renewal_run, benton_replacement_tag
from tests.licensing.kennel_fixtures import benton_multiple_dog_and_kennel
from tests.permits.fixtures import benton_permits
from tests.portal.fixtures import benton_application

# URL name, or the prefix before its first "-", -> the Benton object whose pk fills `<pk>`.
OBJECTS = {
    "person": "owner",
    "premises": "premises",
    "animal": "dog",
    "ownership": "ownership",
    "ownership-new": "dog",  # animals/<pk>/owners/new/: the animal's pk (equal to its ownership's only by chance)
    "vaccination": "vaccination",
    "vaccination-new": "dog",  # animals/<pk>/vaccinations/new/: the pk is the animal's
    "license-counter": "dog",
    "license": "license",
    "fee": "fee",
    "renewal-batch": "renewal_run",
    "tag-return-list": "tag_return_list",  # stored by the worker at year end (tests/licensing/test_tag_return_list.py)
    "renewal-part": "renewal_chunk",  # one printed part of the run (tests/licensing/test_renewals.py)
    "reminder-letters": "reminder_letters",  # printed renewal reminders (tests/licensing/test_renewal_reminders.py)
}
OBJECTS.update(
    {
        # animal control and permits: tests/enforcement/fixtures.py builds one of each in Benton
        "case": "case",
        "impoundment": "impoundment",
        "complaint": "complaint",
        "bite": "bite",
        "quarantine": "quarantine",
        "district": "district",
        "declaration": "declaration",
        "requirement": "requirement",
        "citation": "citation",
        "hen-permit": "hen_permit",
    }
)
# the district quarantine's exemption lookup and its not-exempt list (tests/enforcement/test_district_exemption.py)
OBJECTS.update({"district-lookup": "district", "district-not-exempt": "district"})
# multiple-dog and kennel licenses: tests/licensing/kennel_fixtures.py
OBJECTS.update(
    {
        "multiple-dog": "multiple_dog_license",
        "multiple-dog-apply": "owner",
        "kennel": "kennel",
        "kennel-inspection-correct": "kennel_inspection",
    }
)
# a replacement tag's receipt (tests/licensing/test_replacement_tag.py)
OBJECTS["tag-receipt"] = "tag"
# the clerk records an owner's report of an animal (tests/portal/test_owner_reports.py)
OBJECTS["animal-report"] = "dog"
# a roll's import run (the page shows its check and progress; the worker writes it)
OBJECTS["import-run"] = "import_run"
# a clinic's file of rabies certificates (tests/imports/test_clinic_files.py)
OBJECTS["clinic-file"] = "clinic_file"
# its canvassing list: vaccinated, not licensed (tests/imports/test_canvass.py)
OBJECTS["clinic-file-canvass"] = "clinic_file"
# API collection -> the Benton object whose pk fills `{pk}`.
API_OBJECTS = {
    "people": "owner",
    "premises": "premises",
    "animals": "dog",
    "ownerships": "ownership",
    "vaccinations": "vaccination",
    "licenses": "license",
    "renewal-runs": "renewal_run",
}
# permits: the hen permit list and the vicious-dog permits of Benton's declaration (issue, renew, list)
API_OBJECTS["hen-permits"] = "hen_permit"
# A ruling on a reading of Benton's pack (the administrator's readings page; tests/registry/test_rulings.py)
OBJECTS["ruling"] = "ruling"
# A draft amendment of Benton's ordinance, its preview, adoption and void (tests/reports/test_amendment_pages.py)
OBJECTS["amendment"] = "amendment"
# Pages only the municipality's administrator reaches (a clerk is refused with 403): the readings
# awaiting a ruling and voiding a ruling (tests/registry/test_rulings.py).
ADMIN_PAGES = {"readings", "ruling-void"}
OPEN_PAGES = {"login", "logout"}  # reachable by anyone, show no records
OPEN_PAGES.add("healthz")  # for a load balancer: names the failing part, never a record (tests/worker/test_health.py)
OPEN_PAGES.add("calendar-feed")  # its secret URL is the credential (tests/enforcement/test_my_cases.py)
# The public portal, open by design: applications are reached by their emailed token, the found-dog
# lookup shows a dog's name and whom to call, never the owner (tests/portal/test_found.py).
OPEN_PAGES |= {"portal-home", "portal-application", "portal-review", "portal-renew", "portal-unsubscribe"}
# The first email's link confirms the address: the signed code is the credential (tests/portal/test_confirm_email.py).
OPEN_PAGES.add("portal-confirm-email")
OPEN_PAGES.add("municipality-seal-image")  # a seal is public, as on paper (tests/registry/test_seal.py)
# The ordinance, annotated: public law; its staff counts only to the municipality's own staff, and
# only then no-store; an anonymous copy may be cached (tests/portal/test_ordinance.py).
OPEN_PAGES |= {"ordinance-index", "ordinance"}
OBJECTS["application"] = "application"
OBJECTS["payments-refund"] = "card_refund"  # a card refund the clerk sends again (tests/payments/)
POST_ONLY = {"payments-refund-retry"}
# Past the scope check, a document not ready to serve answers 409 with the reason: the fixtures'
# impoundment has no notice recorded, so its notice has no last day to claim (issue 29, bug 3).
NOT_READY = {"impoundment-notice-pdf"}
# The administrator's staff pages (tests/portal/test_staff.py): a Benton membership; Benton's
# administrator reaches them, its clerk is refused (403) like any other municipality's staff.
OBJECTS["staff"] = "benton_membership"
POST_ONLY.add("staff-deactivate")
ADMIN_PAGES |= {"staff", "staff-invite", "staff-role", "staff-deactivate"}
# the owner's page for their pet, by its signed link, and the renewal opened by a notice's short
# code (tests/portal/test_owner_reports.py, tests/portal/test_renewal_codes.py)
OPEN_PAGES |= {"portal-pet", "portal-renewal-code"}
# an invited staff member's one-time link: its token is the key, it shows no record
OPEN_PAGES.add("staff-welcome")
OPEN_PAGES.add("accessibility")  # the accessibility statement: offices' public contacts, no record
# the resident's language, kept in a cookie; no record (tests/portal/test_languages.py)
OPEN_PAGES.add("portal-language")
# Online payments: the payment page is reached by the application's emailed token; the processors'
# notifications are verified by their signatures (tests/payments/test_stripe_checkout.py).
OPEN_PAGES |= {
    "payments-pay",
    "payments-pay-household",  # the household's cart, by the same token (tests/payments/test_cart.py)
    "payments-pay-citation",  # by a signed address printed for the person cited (test_forfeiture.py)
    "payments-pay-citation-short",  # its short form, a keyed check beside the number (test_forfeiture.py)
    "payments-stripe-webhook",
    "payments-hosted-notify",
    "texts-inbound",  # a text reply, verified by the provider's signature (tests/outbox/test_texts.py)
}  # the clerk's review of an online application (tests/portal/fixtures.py)
# Pages a municipality's law lacks answer 404 there (issue 29: what the law lacks is not offered):
# Benton's ordinance has no hen permit, so its clerk gets no application form (tests/permits/test_offered.py).
NOT_IN_BENTONS_LAW = {"hen-permit-new"}
# A person's consent to text messages, which the clerk records and ends on the person's texts page
# (person-texts; tests/outbox/test_text_consent.py): ending one is a POST.
OBJECTS["text-consent"] = "text_consent"
POST_ONLY.add("text-consent-stop")
# Files, not pages (PDFs and uploads): no text a reader sees on a page, so the date-format scans
# (tests/test_date_format.py) do not ask for them; the Benton clerk's walk here checks they are files.
FILES = {"application-certificate-file", "application-altered-file", "hen-permit-site-plan"}


def is_file(name: str, route: str) -> bool:
    return route.endswith(".pdf") or name in FILES


LIST_PAGES = {"home", "search"}  # scoped lists: answer 200 without Benton's records
LIST_PAGES |= {"my-cases", "calendar-reset"}
LIST_PAGES.add("county-dashboard")  # every municipality the user serves (tests/reports/test_dashboard.py)
LIST_PAGES.add("portal-found")  # open; without a tag number it shows no record
# the user's own second factor (tests/accounts/test_login_security.py): no municipality's records
LIST_PAGES |= {"two-factor", "two-factor-verify"}
BENTON_DATA = ["Rex", "Pat Owner", "12 Main St", "985112000000001", "RT-555"]
SEARCHES = ["Re", "Pat", "12 Mai", "98511200", "RT-5"]
SEARCH_PAGES = {"search", "district-lookup"}
SEARCH_PAGES |= {
    "pick-people",
    "pick-premises",
    "pick-animals",
}  # the pickers' type-ahead (tests/registry/test_pickers.py)
# One body valid for every write operation (schemas ignore the fields they do not take), so
# a refusal comes from the scope check, not from a malformed request.
VALID_BODY = {
    "name": "Intruder",
    "street": "1 Elm",
    "city": "X",
    "postal_code": "53803",
    "use": "farm",
    "sex": "male",
    "started_on": "2026-01-01",
    "ended_on": "2026-02-01",
    "certificate_serial": "Z-1",
    "vaccinated_on": "2026-01-01",
    "vaccine_type": "x",
    "vaccine_serial": "x",
    "expires_on": "2027-01-01",
    "veterinarian_name": "x",
    "veterinarian_address": "x",
    "veterinarian_phone": "608-555-0100",
    "rabies_tag_number": "x",
    "reason": "x",
    "tag_number": "x",
    # animal control
    "animal_id": 1,
    "found_at": "x",
    "held_at": "x",
    "notice_method": "mail",
    "notice_on": "2026-01-01",
    "disposition": "euthanized",
    "victim_name": "x",
    "bitten_on": "2026-01-01",
    "place": "isolation_facility",
    "facility": "x",
    "which": "first",
    "examined_on": "2026-01-01",
    "findings": "x",
    "released_on": "2026-01-02",
    "kind": "individual",  # a person's kind; a complaint's kind is a plain string in its schema
    "complainant_name": "x",
    "observed_on": "2026-01-01",
    "evidence": "x",
    "incidents": [{"occurred_on": "2026-01-01", "kind": "attack", "victim": "person"}],
    "service_method": "personal_service",
    "requested_on": "2026-01-02",
    "violation": "s. 174.042",
    "description": "x",
    "violated_on": "2026-01-01",
}
API_OBJECTS.update(
    {"multiple-dog-licenses": "multiple_dog_license", "kennels": "kennel", "kennel-inspections": "kennel_inspection"}
)
VALID_BODY.update(
    {
        # permits
        "applicant_id": 1,
        "zoning": "single_family_residential",
        "owners_of_record": "x",
        "hens": 2,
        "insurance": "x",
        "fee_paid": "1000.00",
    }
)
VALID_BODY.update(
    {
        # multiple-dog and kennel licenses
        "keeper_id": 1,
        "dogs": 2,
        "premises_id": 1,
        "capacity": 5,
        "signed_on": "2026-01-01",
        "from_other_structures_ft": "250",
        "from_lot_lines_ft": "10",
        "kennel_sq_ft": "300",
        "privacy_fence": True,
        "category": "public-nuisance",
        "inspector": "veterinarian",
        "inspector_name": "x",
        "inspected_on": "2026-01-01",
        "corrected_on": "2026-01-02",
    }
)
API_OBJECTS.update(
    {
        "cases": "case",
        "impoundments": "impoundment",
        "bites": "bite",
        "quarantines": "quarantine",
        "declarations": "declaration",
        "citations": "citation",
    }
)


def patterns(resolver=None, prefix=""):
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            if p.namespace in ("admin", "api"):
                continue
            yield from patterns(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern) and p.name:
            yield p.name, prefix + str(p.pattern)


def benton_ruling(t):
    """Benton's administrator and a ruling on one of its pack's readings."""
    from dogtag.registry.actions import record_ruling
    from tests.base import on

    t.benton_admin = make_user("ada", (t.benton, Role.ADMINISTRATOR))
    with on(date(2026, 6, 1)):
        t.ruling = record_ruling(
            t.benton,
            acting_user=t.benton_admin,
            reading="dangerous_dogs.requirements.0",
            adopted="choice",
            instrument="attorney_opinion",
            attorney="Jane Roe",
            number="OP-2026-3",
            ruled_on=date(2026, 5, 20),
            effective_on=date(2026, 6, 1),
        )


def benton_amendment(t):
    """A draft amendment of Benton's license tax."""
    from decimal import Decimal

    from dogtag.registry.actions import draft_amendment
    from tests.base import on

    with on(date(2026, 6, 1)):
        t.amendment = draft_amendment(
            t.benton,
            acting_user=t.clerk,
            kind="license_tax",
            title="Raise the license tax",
            section="§ 173-1",
            words="The tax shall be $12.00 for a spayed or neutered dog and $22.00 for another.",
            effective_on=date(2027, 1, 1),
            figures={"altered": Decimal("12.00"), "unaltered": Decimal("22.00")},
        )


def benton_clinic_file(t):
    """A clinic's file of rabies certificates, uploaded by Benton's vet."""
    clinic = Clinic.objects.create(municipality=t.benton, name="Benton Animal Clinic")
    t.clinic_file = ClinicFile.objects.create(
        municipality=t.benton, clinic=clinic, file_name="november.csv", file_sha256="0" * 64, uploaded_by=t.vet
    )


def benton_card_refund(t):
    """A card refund of Benton's online application, for the clerk to send again."""
    checkout = Checkout.objects.create(
        municipality=t.benton,
        processor="stripe",
        application=t.application,
        amount="15.00",
        quoted_on=date(2026, 5, 20),
    )
    t.card_refund = ProcessorRefund.objects.create(municipality=t.benton, checkout=checkout, amount="15.00", reason="x")


def benton_text_consent(t):
    t.text_consent = record_text_consent(acting_user=t.clerk, person=t.owner, phone="608-555-0142", how="signed-form")


class IsolationTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.ownership = cls.dog.ownerships.get()
        cls.fee, cls.license = benton_license(cls)
        cls.tag = benton_replacement_tag(cls)
        cls.renewal_run = benton_renewal_run(cls)
        benton_reminder_letters(cls)
        cls.tag_return_list = store_tag_return_list(municipality=cls.benton, license_year=2026, on=date(2026, 12, 31))
        cls.token = issue_api_token(acting_user=cls.outsider, user=cls.outsider, name="Cedarburg clinic")[1]
        benton_cases(cls)
        benton_multiple_dog_and_kennel(cls)
        benton_application(cls)
        benton_permits(cls)
        cls.benton_membership = Membership.objects.get(user=cls.clerk, municipality=cls.benton)
        cls.import_run = ImportRun.objects.create(
            municipality=cls.benton, file_name="roll.csv", file_sha256="0" * 64, started_by=cls.clerk
        )
        benton_clinic_file(cls)
        benton_card_refund(cls)
        benton_ruling(cls)
        benton_amendment(cls)
        benton_text_consent(cls)

    def fill(self, name, route):
        key = name if name in OBJECTS else next((k for k in OBJECTS if name.startswith(k + "-")), None)
        path = "/" + route.replace("<slug:slug>", "benton").replace("<int:year>", "2026")
        if "<int:pk>" in path:
            self.assertIsNotNone(key, f"URL {name} ({route}) is not in the isolation map")
            path = path.replace("<int:pk>", str(getattr(self, OBJECTS[key]).pk))
        return path

    def assert_no_benton_data(self, response, what):
        body = response.content.decode()
        for secret in BENTON_DATA:
            self.assertNotIn(secret, body, f"{what} shows {secret!r} to a Cedarburg clerk")

    def test_every_page_refuses_another_municipalitys_records(self):
        self.login(self.outsider)
        seen = 0
        for name, route in patterns():
            if name in OPEN_PAGES:
                continue
            path = self.fill(name, route)
            # Search terms are prefixes of Benton's data, so the echoed query never matches a secret.
            searches = [("get", {"q": q}) for q in SEARCHES if name in SEARCH_PAGES]
            for method, data in [("get", {}), ("post", {}), *searches]:
                response = getattr(self.client, method)(path, data)
                if name in LIST_PAGES:
                    self.assertIn(response.status_code, (200, 302, 405), f"{method} {path}")
                    self.assert_no_benton_data(response, f"{method} {path}")
                else:
                    self.assertIn(response.status_code, (403, 404), f"{method.upper()} {path}")
                seen += 1
        self.assertGreater(seen, 30)

    def test_every_api_operation_refuses_another_municipalitys_records(self):
        schema = api.get_openapi_schema()
        body = json.dumps({**VALID_BODY, "owner_id": self.owner.pk, "person_id": self.owner.pk})
        # A complaint's kind is one of its list, where a person's is another.
        complaint_body = json.dumps({**json.loads(body), "kind": Complaint.Kind.values[0]})
        events = AuditEvent.objects.count()
        seen = 0
        for route, operations in schema["paths"].items():
            path = route.replace("{slug}", "benton").replace("{year}", "2026")
            path = path.replace("{serial}", str(self.license.serial))
            if "{pk}" in path:
                collection = path.removeprefix("/api/v1/").split("/")[0]
                self.assertIn(collection, API_OBJECTS, f"API path {route} is not in the isolation map")
                path = path.replace("{pk}", str(getattr(self, API_OBJECTS[collection]).pk))
            for method in operations:
                response = self.client.generic(
                    method.upper(),
                    path,
                    complaint_body if route.endswith("/complaints") else body,
                    content_type="application/json",
                    HTTP_AUTHORIZATION=f"Bearer {self.token}",
                )
                if "{" in route:
                    self.assertIn(response.status_code, (403, 404), f"{method.upper()} {route}")
                else:
                    self.assertIn(response.status_code, (200, 405, 422), f"{method.upper()} {route}")
                    self.assert_no_benton_data(response, f"{method.upper()} {route}")
                seen += 1
        self.assertGreater(seen, 20)
        self.assertEqual(AuditEvent.objects.count(), events, "nothing was written")

    def test_the_same_pages_serve_the_benton_clerk(self):
        """The isolation test's map is right: Benton's own clerk reaches every one of them."""
        current = None
        for name, route in patterns():
            user = self.benton_admin if name in ADMIN_PAGES else self.clerk
            if user != current:
                self.login(user)
                current = user
            if name not in OPEN_PAGES | LIST_PAGES:
                expected = 405 if name in POST_ONLY else 409 if name in NOT_READY else 200
                expected = 404 if name in NOT_IN_BENTONS_LAW else expected
                response = self.client.get(self.fill(name, route))
                self.assertEqual(response.status_code, expected, name)
                if expected == 200:
                    html = response.get("Content-Type", "").startswith("text/html")
                    self.assertNotEqual(html, is_file(name, route), f"{name}: a file is not HTML, a page is")
                # Each of them shows Benton's records: no cache may keep it (issue 27 §9).
                self.assertIn("no-store", response.get("Cache-Control", ""), name)

    def test_the_administrators_pages_serve_benton_s_administrator_and_refuse_its_clerk(self):
        for name, route in patterns():
            if name in ADMIN_PAGES:
                self.login(self.clerk)
                self.assertEqual(self.client.get(self.fill(name, route)).status_code, 403, name)
                self.login(self.benton_admin)
                expected = 405 if name in POST_ONLY else 200
                self.assertEqual(self.client.get(self.fill(name, route)).status_code, expected, name)
