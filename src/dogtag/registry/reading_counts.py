"""How many of a municipality's records a reading's other side would answer differently: each
record's question asked under both readings, set-based. Licenses go through the
engine's batch (`rules.licensing_many.decide_rows`: one query for every license's facts, animals that
agree on every fact sharing one answer); citations, declarations (their requirement deadlines,
classification and hearing window), rabies certificates, barking complaints, bite quarantine
orders, vicious-dog permits and licenses' remittances are grouped in one query each by the facts
their question turns on, each group asked once under each reading and compared on the part of the
answer the record acts on. A reading whose question no kept record answers alone is counted but not
compared (`comparer`)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.apps import apps
from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, OuterRef, Q
from django.db.models.functions import TruncDate

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

    def _changed(self, pack_id: str, reading_id: str, question_name: str, groups, part=None) -> int:
        """Of `groups` ((facts, the day asked, how many records share them)), the records whose
        answer differs between the two readings; a refusal is an answer too. `part`: the part of
        the answer the record keeps or acts on (by default the whole answer)."""
        packs_ = _packs(pack_id, reading_id)
        question = get_question(question_name)
        changed = 0
        for facts, day, n in groups:
            answers = []
            for pack in packs_:
                try:
                    value = question.answer(pack, question.facts.model_validate(facts), day, self.local).value
                    answers.append(part(value) if part else value)
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

    def complaints_changed(self, pack_id: str, reading_id: str) -> int:
        """Each barking complaint's finding (a violation or not) as `enforcement.actions.complaints`
        makes it: the formal written complaints on record about the same animal (or, where none is
        named, the same owner) filed on or before it, asked on its day or the day the noise was
        heard again. One query reads every barking complaint; complaints whose facts agree share
        one answer."""
        complaint = apps.get_model("enforcement", "Complaint")
        rows = list(
            complaint.objects.filter(municipality=self.municipality, kind=complaint.Kind.BARKING)
            .order_by("filed_on", "pk")
            .values_list("animal", "owner", "filed_on", "formal_written", "police_notice_on", "observed_again_on")
        )
        by_animal: dict[int, list[tuple]] = defaultdict(list)
        by_owner: dict[int | None, list[tuple]] = defaultdict(list)
        for animal, owner, filed, formal, *_ in rows:
            if animal is not None:
                by_animal[animal].append((filed, formal))
            by_owner[owner].append((filed, formal))
        shared: dict[tuple, int] = defaultdict(int)
        for animal, owner, filed, _formal, notice, again in rows:
            same = by_animal[animal] if animal is not None else by_owner[owner]
            earlier = tuple(c for c in same if c[0] <= filed)
            shared[(earlier, notice, again, max(filed, again or filed))] += 1

        def groups():
            for (earlier, notice, again, day), n in shared.items():
                filed = [{"filed_on": on, "formal_written": formal} for on, formal in earlier]
                yield {"complaints": filed, "notice_received_on": notice, "noise_continued_on": again}, day, n

        return self._changed(
            pack_id, reading_id, "barking_nuisance", self._grouped("complaints", groups()), lambda v: v.violation
        )

    def bite_quarantines_changed(self, pack_id: str, reading_id: str) -> int:
        """Each bite quarantine order's places allowed, asked from the bite's day and the animal's
        immunization on it, on the day the order was made; orders that agree share one answer."""
        rows = (
            apps.get_model("enforcement", "QuarantineOrder")
            .objects.filter(municipality=self.municipality, kind="bite")
            .annotate(ordered_on=TruncDate("ordered_at"))
            .values_list("case__bite__bitten_on", "currently_immunized", "ordered_on")
            .annotate(n=Count("pk"))
            .order_by()
        )
        groups = self._grouped(
            "bite_quarantines",
            (
                ({"bitten_on": bitten, "currently_immunized": immunized}, ordered, n)
                for bitten, immunized, ordered, n in rows.iterator()
            ),
        )
        return self._changed(pack_id, reading_id, "bite_quarantine", groups, lambda v: v.places_allowed)

    def classifications_changed(self, pack_id: str, reading_id: str) -> int:
        """Each declaration made here (not one registered from another agency) classified again
        from its recorded incidents on its day of determination, with the dog's breed and working
        status; a propensity or a fighting dog is on record only where it was the ground the
        engine gave. Declarations that agree share one answer."""
        declaration = apps.get_model("enforcement", "Declaration")
        rows = (
            declaration.objects.filter(municipality=self.municipality, moved_in_on=None)
            .values_list(
                "incidents",
                "determined_on",
                "classification_decision__value__ground_name",
                "animal__breed",
                "animal__working_status",
            )
            .annotate(n=Count("pk"))
            .order_by()
        )

        def facts(incidents, ground, breed, status):
            return {
                "incidents": incidents,
                "propensity_shown": ground == "propensity",
                "fighting": ground == "fighting",
                "breed": breed or None,
                "law_enforcement_dog": status == Animal.WorkingStatus.LAW_ENFORCEMENT,
            }

        groups = self._grouped(
            "classifications",
            ((facts(i, g, b, w), on, n) for i, on, g, b, w, n in rows.iterator()),
        )
        return self._changed(pack_id, reading_id, "dog_classification", groups, lambda v: v.classification)

    def hearing_windows_changed(self, pack_id: str, reading_id: str) -> int:
        """Each timely contested declaration's hearing window, from the day its notice took effect
        (as `enforcement.actions.hearings` asks it), grouped by that day."""
        rows = (
            apps.get_model("enforcement", "Declaration")
            .objects.filter(municipality=self.municipality, contest_timely=True)
            .exclude(effective_on=None)
            .values_list("effective_on")
            .annotate(n=Count("pk"))
            .order_by()
        )
        groups = self._grouped("hearing_windows", (({"served_on": served}, served, n) for served, n in rows.iterator()))
        return self._changed(pack_id, reading_id, "hearing_window", groups, lambda v: (v.earliest, v.latest))

    def permit_fees_changed(self, pack_id: str, reading_id: str) -> int:
        """Each vicious-dog permit's fee, first permit or renewal, on the day it was issued."""
        first = ExpressionWrapper(Q(renewal_of=None), output_field=BooleanField())
        rows = (
            apps.get_model("permits", "ViciousDogPermit")
            .objects.filter(municipality=self.municipality)
            .annotate(first=first)
            .values_list("issued_on", "first")
            .annotate(n=Count("pk"))
            .order_by()
        )
        groups = self._grouped("permit_fees", (({"first_permit": first}, on, n) for on, first, n in rows.iterator()))
        return self._changed(pack_id, reading_id, "vicious_dog_permit_fee", groups, lambda v: v.fee)

    def remittances_changed(self, pack_id: str, reading_id: str) -> int:
        """Each license's money as the remittance report divides it (paid over, kept locally), from
        what the license states it charged, on the day it was issued; licenses that agree share
        one answer."""
        rows = (
            apps.get_model("licensing", "License")
            .objects.filter(municipality=self.municipality, voided_at=None)
            .values_list(
                "kind",
                "species",
                "altered",
                "tax",
                "late_fee",
                "free_license",
                "animal__birth_date",
                "license_year",
                "dogs_authorized",
                "issued_on",
            )
            .annotate(n=Count("pk"))
            .order_by()
        )

        def facts(kind, species, altered, tax, late_fee, free, born, year, dogs):
            return {
                "kind": kind,
                "species": species or "dog",
                "altered": altered,
                "tax": tax,
                "late_fee": late_fee,
                "free_license": free,
                "born_on": born,
                "license_year": year,
                "dogs_authorized": dogs,
            }

        groups = self._grouped("remittances", ((facts(*r[:9]), r[9], r[10]) for r in rows.iterator()))
        return self._changed(pack_id, reading_id, "license_remittance", groups, lambda v: (v.to_county, v.kept_locally))


# The kinds of record whose answers are compared under both readings: by the question the
# reading's worked example asks (the question those records answer), else by the reading's section.
BY_QUESTION = {
    "forfeiture": Counter.citations_changed,
    "requirement_deadlines": Counter.declarations_changed,
    "rabies_revaccination_due": Counter.certificates_changed,
    "barking_nuisance": Counter.complaints_changed,
    "bite_quarantine": Counter.bite_quarantines_changed,
    "dog_classification": Counter.classifications_changed,
    "hearing_window": Counter.hearing_windows_changed,
    "vicious_dog_permit_fee": Counter.permit_fees_changed,
    "license_remittance": Counter.remittances_changed,
}
BY_SECTION = {"licensing": Counter.licenses_changed, "forfeitures": Counter.citations_changed}


def comparer(reading_id: str, example: dict | None):
    """How the records of a reading's kind are compared, or None where they are not."""
    if example and example["question"] in BY_QUESTION:
        return BY_QUESTION[example["question"]]
    return BY_SECTION.get(reading_id.split(".", 1)[0])
