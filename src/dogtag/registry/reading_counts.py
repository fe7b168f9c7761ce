"""How many of a municipality's records a reading's other side would answer differently: each
record's question asked under both readings, set-based. Licenses go through the
engine's batch (`rules.licensing.decide_rows`: one query for every license's facts, animals that
agree on every fact sharing one answer); citations are grouped by the facts the forfeiture turns
on, each group asked once. Other kinds of record are counted but not compared (`CHANGES`)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.apps import apps
from django.db.models import Count

from dogtag.registry.models import Animal
from dogtag.rules import get_question, packs
from dogtag.rules.amounts import LocalAmounts
from dogtag.rules.licensing import decide_rows
from dogtag.rules.schema import Ruled

# The registry's working status as the engine's `trained_to` (as licensing.law reads an animal).
_TRAINED_TO = {Animal.WorkingStatus.LEADER: "lead_blind_or_deaf", Animal.WorkingStatus.SERVICE: "service"}
# The day every hypothetical ruling here is dated: before any record, so it governs each one.
_ALWAYS = date(1900, 1, 1)


def _packs(pack_id: str, reading_id: str) -> tuple[packs.Pack, packs.Pack]:
    def ruled(adopted: str) -> packs.Pack:
        return packs.pack_on(
            pack_id, date.max, [(reading_id, Ruled(by="attorney_opinion", number="-", on=_ALWAYS, reading=adopted))]
        )

    return ruled("choice"), ruled("other")


class Counter:
    """One page's counts: the records are read once per kind, whatever the number of readings."""

    def __init__(self, municipality, local: LocalAmounts):
        self.municipality = municipality
        self.local = local
        self._license_rows: dict[date, list[tuple]] | None = None
        self._citation_groups: list[tuple] | None = None

    def _licenses(self) -> dict[date, list[tuple]]:
        """Each license's animal facts in the engine's ROW_FACTS order, by the day it was issued."""
        if self._license_rows is not None:
            return self._license_rows
        rows = (
            apps.get_model("licensing", "License")
            .objects.filter(municipality=self.municipality, voided_at=None, kind="individual", animal__isnull=False)
            .exclude(animal__birth_date=None)
            .values_list(
                "issued_on",
                "animal__species",
                "animal__working_status",
                "license_year",
                "animal__birth_date",
                "animal__altered",
                "animal__acquired_on",
            )
        )
        by_day: dict[date, list[tuple]] = defaultdict(list)
        for issued_on, species, status, year, born, altered, acquired in rows.iterator():
            if species not in ("dog", "cat"):
                continue
            educational = status == Animal.WorkingStatus.EDUCATIONAL_SCIENTIFIC
            by_day[issued_on].append((species, educational, year, born, altered, _TRAINED_TO.get(status), acquired))
        self._license_rows = by_day
        return by_day

    def licenses_changed(self, pack_id: str, reading_id: str) -> int:
        mine, other = _packs(pack_id, reading_id)
        changed = 0
        for day, rows in self._licenses().items():
            a = decide_rows(mine, rows, day, self.local)
            b = decide_rows(other, rows, day, self.local)
            changed += sum(1 for x, y in zip(a, b, strict=True) if x is not y and x.value != y.value)
        return changed

    def _citations(self) -> list[tuple]:
        """The citations grouped by the facts their forfeiture turns on, with how many share them."""
        if self._citation_groups is None:
            self._citation_groups = list(
                apps.get_model("enforcement", "Citation")
                .objects.filter(municipality=self.municipality, voided_at=None)
                .values_list("violation", "offense_number", "days", "violated_on")
                .annotate(n=Count("pk"))
                .order_by()
            )
        return self._citation_groups

    def citations_changed(self, pack_id: str, reading_id: str) -> int:
        mine, other = _packs(pack_id, reading_id)
        question = get_question("forfeiture")
        changed = 0
        for violation, offense, days, violated_on, n in self._citations():
            answers = []
            for pack in (mine, other):
                try:
                    facts = question.facts.model_validate(
                        {"violation": violation, "offense_number": offense, "days": days}
                    )
                    answers.append(question.answer(pack, facts, violated_on, self.local).value)
                except ValueError as refused:
                    answers.append(("refused", str(refused)))
            changed += n if answers[0] != answers[1] else 0
        return changed


# The kinds of record whose answers are compared under both readings, by the reading's section.
CHANGES = {"licensing": Counter.licenses_changed, "forfeitures": Counter.citations_changed}
