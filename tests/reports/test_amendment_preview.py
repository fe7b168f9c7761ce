"""An amendment previewed on the municipality's records with the batch engine: its totals are the
sum of the one-by-one answers under each law, and the request runs it in the worker."""

from datetime import date
from decimal import Decimal

from dogtag import rules
from dogtag.audit.models import AuditEvent
from dogtag.licensing import law
from dogtag.licensing.actions.fees import set_fee
from dogtag.licensing.models import License
from dogtag.registry.actions import draft_amendment, request_preview
from dogtag.registry.models import Amendment, AmendmentPreview
from dogtag.registry.rulings import law_of
from dogtag.reports import amendment_preview
from dogtag.rules import packs
from tests.base import BaseTestCase, on
from tests.licensing.bulk import licensed_dogs

YEAR = 2027
WORDS = (
    "The license tax for a spayed female or neutered male dog shall be $12.00 "
    "and for an unspayed or unneutered dog $22.00."
)


class Preview(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        for key, amount in (("license_tax.altered", "10.00"), ("license_tax.unaltered", "20.00"), ("late_fee", "5.00")):
            set_fee(
                acting_user=cls.clerk,
                municipality=cls.benton,
                key=key,
                amount=Decimal(amount),
                effective_on=date(2020, 1, 1),
                authority="Resolution 2019-12",
            )
        licensed_dogs(cls.benton, cls.clerk, 60, year=YEAR)
        # Some licenses issued after April 1 (a late fee under either law), some in the summer.
        late = License.objects.filter(municipality=cls.benton, license_year=YEAR).order_by("pk")
        late.filter(pk__in=list(late.values_list("pk", flat=True)[:15])).update(issued_on=date(YEAR, 4, 20))
        late.filter(pk__in=list(late.values_list("pk", flat=True)[15:25])).update(issued_on=date(YEAR, 8, 3))
        with on(date(2026, 12, 1)):
            cls.amendment = draft_amendment(
                cls.benton,
                acting_user=cls.clerk,
                kind="license_tax",
                title="Raise the license tax",
                section="§ 173-1",
                words=WORDS,
                effective_on=date(YEAR, 1, 1),
                figures={"altered": Decimal("12.00"), "unaltered": Decimal("22.00")},
            )

    def one_by_one(self, amended: bool) -> Decimal:
        """Every license's charges asked alone (`license_charges`), under the law in force or amended."""
        q = rules.get_question("license_charges")
        extra = [amendment_preview.engine_amendment(self.amendment, date(YEAR, 1, 1))] if amended else []
        total = Decimal("0.00")
        for lic in License.objects.filter(municipality=self.benton, license_year=YEAR).select_related("animal"):
            facts = law.animal_facts(lic.animal, YEAR)
            pack = packs.pack_on(self.benton.rule_pack, lic.issued_on, [*law_of(self.benton.pk), *extra])
            total += q.answer(pack, facts, lic.issued_on, law.local_amounts(self.benton)).value.total
        return total

    def test_the_previews_totals_are_the_sum_of_the_one_by_one_answers(self):
        result = amendment_preview.compare(self.benton, self.amendment, YEAR)
        self.assertEqual(result["licenses"], 60)
        self.assertEqual(Decimal(result["total"][0]), self.one_by_one(amended=False))
        self.assertEqual(Decimal(result["total"][1]), self.one_by_one(amended=True))
        self.assertGreater(Decimal(result["total"][1]), Decimal(result["total"][0]))
        self.assertEqual(result["tax_not_set"], [0, 0])
        owners = result["owners"]
        self.assertEqual(owners["more"] + owners["less"] + owners["same"], owners["owners"])
        self.assertEqual(sum(n for _, n in owners["bins"]), owners["more"] + owners["less"])
        self.assertEqual(len(result["affected"]), owners["more"] + owners["less"])
        # The county's share is the state minimum part: a raised local tax leaves it as it was.
        self.assertEqual(result["county"][0], result["county"][1])

    def test_the_preview_runs_in_the_worker_and_is_stored_on_the_amendment(self):
        with on(date(2026, 12, 2)), self.captureOnCommitCallbacks(execute=True):
            request_preview(self.amendment, acting_user=self.clerk, year=YEAR)
        preview = Amendment.objects.get(pk=self.amendment.pk).preview
        self.assertEqual(preview.state, AmendmentPreview.State.DONE)
        self.assertEqual(preview.result["licenses"], 60)
        actions = AuditEvent.objects.filter(object_type="registry.amendment", object_id=str(self.amendment.pk))
        self.assertEqual(sorted(actions.values_list("action", flat=True)), ["amendment.draft", "amendment.previewed"])
