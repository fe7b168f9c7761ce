"""How many of a municipality's records a reading's other side would answer differently: each
record's question asked under both readings, set-based. Licenses go through the
engine's batch (`rules.licensing_many.decide_rows`: one query for every license's facts, animals that
agree on every fact sharing one answer); citations, declarations and rabies certificates are
grouped in one query each by the facts their question turns on (the forfeiture, the requirement
deadlines, the last day to revaccinate), each group asked once under each reading. A reading
whose question no kept record answers alone is counted but not compared (`comparer`)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.apps import apps
from django.db.models import Count, Exists, OuterRef

from dogtag.registry.models import Animal
from dogtag.rules import get_question, packs
from dogtag.rules.amounts import LocalAmounts
from dogtag.rules.licensing_many import decide_rows
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
        self._groups: dict[str, list[tuple[dict, date, int]]] = {}

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

    def _changed(self, pack_id: str, reading_id: str, question_name: str, groups) -> int:
        """Of `groups` ((facts, the day asked, how many records share them)), the records whose
        answer differs between the two readings; a refusal is an answer too."""
        packs_ = _packs(pack_id, reading_id)
        question = get_question(question_name)
        changed = 0
        for facts, day, n in groups:
            answers = []
            for pack in packs_:
                try:
                    answers.append(question.answer(pack, question.facts.model_validate(facts), day, self.local).value)
                except ValueError as refused:
                    answers.append(("refused", str(refused)))
            changed += n if answers[0] != answers[1] else 0
        return changed

    def _grouped(self, key: str, rows) -> list[tuple[dict, date, int]]:
        """`rows` (facts, day, n) read once a page."""
        if key not in self._groups:
            self._groups[key] = list(rows)
        return self._groups[key]

    def citations_changed(self, pack_id: str, reading_id: str) -> int:
        rows = (
            apps.get_model("enforcement", "Citation")
            .objects.filter(municipality=self.municipality, voided_at=None)
            .values_list("violation", "offense_number", "days", "violated_on")
            .annotate(n=Count("pk"))
            .order_by()
        )
        groups = self._grouped(
            "citations",
            (({"violation": v, "offense_number": o, "days": d}, on, n) for v, o, d, on, n in rows.iterator()),
        )
        return self._changed(pack_id, reading_id, "forfeiture", groups)

    def declarations_changed(self, pack_id: str, reading_id: str) -> int:
        """Each declaration's requirement deadlines as `enforcement.actions.update_requirements`
        asks them: from its determination, stayed while a timely contest or appeal is pending."""
        declaration = apps.get_model("enforcement", "Declaration")
        pending_appeal = Exists(
            apps.get_model("enforcement", "Appeal").objects.filter(
                declaration=OuterRef("pk"), timely=True, decided_on=None
            )
        )
        rows = (
            declaration.objects.filter(municipality=self.municipality)
            .annotate(appealed=pending_appeal)
            .values_list(
                "classification",
                "determined_on",
                "written_notice_on",
                "contest_timely",
                "appealed",
                "moved_in_on",
                "owner_notified_on",
                "registered_on",
            )
            .annotate(n=Count("pk"))
            .order_by()
        )

        def facts(classification, determined, notice, contest, appealed, moved_in, notified, registered):
            f = {
                "classification": classification,
                "declared_on": determined,
                "determined_on": determined,
                "written_notice_on": notice,
                "contested": contest is True or appealed,
            }
            if moved_in:
                f["declared_elsewhere"] = {
                    "moved_in_on": moved_in,
                    "notified_on": notified,
                    "registered_on": registered,
                }
            return f

        groups = self._grouped("declarations", ((facts(*r[:8]), r[1], r[8]) for r in rows.iterator()))
        return self._changed(pack_id, reading_id, "requirement_deadlines", groups)

    def certificates_changed(self, pack_id: str, reading_id: str) -> int:
        """Each rabies certificate's last day to revaccinate, as the reminders ask it (`initial`:
        the animal's only certificate on record, portal/reminders.py)."""
        vaccination = apps.get_model("registry", "RabiesVaccination")
        another = vaccination.objects.filter(animal=OuterRef("animal"), voided_at=None).exclude(pk=OuterRef("pk"))
        rows = (
            vaccination.objects.filter(municipality=self.municipality, voided_at=None)
            .annotate(initial=~Exists(another))
            .values_list("animal__species", "vaccinated_on", "initial", "expires_on")
            .annotate(n=Count("pk"))
            .order_by()
        )
        groups = self._grouped(
            "certificates",
            (
                ({"species": sp, "vaccinated_on": on, "initial": first, "certificate_expires_on": ends}, on, n)
                for sp, on, first, ends, n in rows.iterator()
            ),
        )
        return self._changed(pack_id, reading_id, "rabies_revaccination_due", groups)


# The kinds of record whose answers are compared under both readings: by the question the
# reading's worked example asks (the question those records answer), else by the reading's section.
BY_QUESTION = {
    "forfeiture": Counter.citations_changed,
    "requirement_deadlines": Counter.declarations_changed,
    "rabies_revaccination_due": Counter.certificates_changed,
}
BY_SECTION = {"licensing": Counter.licenses_changed, "forfeitures": Counter.citations_changed}


def comparer(reading_id: str, example: dict | None):
    """How the records of a reading's kind are compared, or None where they are not."""
    if example and example["question"] in BY_QUESTION:
        return BY_QUESTION[example["question"]]
    return BY_SECTION.get(reading_id.split(".", 1)[0])
