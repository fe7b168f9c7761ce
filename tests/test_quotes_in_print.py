"""Quotes in printed documents read whole: the transcription of the ordinances lost the apostrophe
of possessives ("the owner s consent") and the number of a section cited where a passage is cut
off ("as specified in §"); PDFs show both restored in square brackets, the words themselves
unchanged (issue 29). Checked by extracting the PDF's text."""

from datetime import date

from django.urls import reverse

from dogtag.documents.templatetags.quoted import as_read
from dogtag.enforcement.models import Citation
from dogtag.permits.models import HenPermit
from dogtag.rules import packs
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase
from tests.enforcement.test_complaints import pdf_text
from tests.licensing.base import set_fees
from tests.permits import test_hen_permits
from tests.portal.helpers import MEDIA


def test_a_quote_reads_whole_and_keeps_its_words():
    assert as_read("evidence of the owner s consent to the tenant") == "evidence of the owner[’]s consent to the tenant"
    assert as_read("shall be as specified in §") == "shall be as specified in § […]"
    # Not the statutes' "s." nor a section with its number.
    assert as_read("under s. 174.042, Wis. Stats.") == "under s. 174.042, Wis. Stats."
    assert as_read("as prescribed in § 173-1.") == "as prescribed in § 173-1."
    assert as_read("the owner's premises") == "the owner's premises"


def test_no_quote_of_any_pack_reads_damaged():
    checked = 0
    for folder in packs.law_dirs():
        for path in sorted(folder.glob("*.yaml")):
            for quote in _quotes(packs.read_yaml(path)):
                shown, checked = as_read(quote), checked + 1
                assert " s " not in f" {shown} ", (path.name, shown)
                assert not shown.rstrip().endswith("§"), (path.name, shown)
    assert checked > 100


def _quotes(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "quote" and isinstance(value, str):
                yield value
            else:
                yield from _quotes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _quotes(value)


@MEDIA
class QuotesInPrintTests(EnforcementTestCase):
    apply = test_hen_permits.HenPermitTests.apply  # the module, not the class: its tests stay there

    def test_the_citation_pdf_marks_the_section_number_the_text_lost(self):
        owner, _, dog = self.owner_and_dog("benton", "Loud")
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            set_fees(
                self.clerks["benton"],
                self.places["benton"],
                {"license_forfeiture.minimum": "25.00", "license_forfeiture.maximum": "200.00"},
                effective_on=date(2026, 1, 1),
            )
            body = {
                "person": owner.pk,
                "animal": dog.pk,
                "violation": "115-3A(1)",
                "description": "no license",
                "violated_on": "2026-03-01",
                "days": 1,
                "forfeiture": "25.00",
            }
            self.assert_posted(self.post("citation-new", "benton", body))
            text = pdf_text(self.client.get(reverse("citation-pdf", args=[Citation.objects.latest("pk").pk])))
        self.assertIn("Penalties for a violation of this section shall be as specified in § […]", text)

    def test_the_hen_permit_pdf_restores_the_lost_apostrophe(self):
        person, premises, _ = self.owner_and_dog("cedarburg", "Clucky")
        self.login(self.clerks["cedarburg"])
        with on(date(2026, 5, 4)):
            ok = {"all_owners_signed": "on", "premises_registration": "WI-0042"}
            self.apply(premises, person, site_plan=test_hen_permits.plan(), method="cash", amount="50.00", **ok)
            text = pdf_text(self.client.get(reverse("hen-permit-pdf", args=[HenPermit.objects.get().pk])))
        self.assertIn("evidence of the owner[’]s consent", text)
        self.assertNotIn("owner s consent", text)
