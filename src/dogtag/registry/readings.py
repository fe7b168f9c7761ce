"""The readings a municipality's rule pack leaves to its ruling, as its
administrator's page shows them: each provision's section and governing words, Dogtag's reading
and the other the text allows, each reading's answer on the pack's worked example (asked of the
engine under each reading), how many of the municipality's records the provision governs and, where
those records answer the reading's question, how many of them the other reading would answer
differently (`reading_counts`).

The counts are one `count()` per kind of record, by the pack section the provision is in (or by
the question its example asks, where that question's records are another kind); a section whose
answers are about no kind of record Dogtag keeps, or a reading whose answers no record keeps,
says so and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.apps import apps

from dogtag.lib.dates import shown
from dogtag.registry.reading_counts import Counter, comparer
from dogtag.rules import get_question, packs
from dogtag.rules.amounts import LocalAmounts
from dogtag.rules.decision import Decision
from dogtag.rules.delegations import delegated_amounts
from dogtag.rules.limits import state_limits
from dogtag.rules.schema import Provision, Ruled

# The records whose answers a section's provisions give, by (app, model, filter, what they are).
# By name: the registry sits below the apps that keep these records (.importlinter).
RECORDS: dict[str, tuple[str, str, dict[str, Any], str]] = {
    "licensing": ("licensing", "License", {"voided_at": None}, "licenses"),
    "remittance": ("licensing", "License", {"voided_at": None}, "licenses (their taxes paid over)"),
    "kennel": ("licensing", "KennelLicense", {"voided_at": None}, "kennel licenses"),
    "multiple_dog": ("licensing", "KennelLicense", {"voided_at": None}, "kennel and multiple-dog licenses"),
    "rabies": ("registry", "RabiesVaccination", {}, "rabies certificates"),
    "quarantine": ("enforcement", "QuarantineOrder", {}, "quarantine orders"),
    "dangerous_dogs": ("enforcement", "Declaration", {}, "declarations"),
    "declared_keeping": ("enforcement", "Declaration", {}, "declarations"),
    "impoundment": ("enforcement", "Impoundment", {}, "impoundments"),
    "forfeitures": ("enforcement", "Citation", {}, "citations"),
    "nuisance": ("enforcement", "Complaint", {}, "complaints"),
}
# Where the records a reading's question answers are not the section's: by the example's question.
RECORDS_BY_QUESTION: dict[str, tuple[str, str, dict[str, Any], str]] = {
    "barking_nuisance": ("enforcement", "Complaint", {"kind": "barking"}, "barking complaints"),
    "vicious_dog_permit_fee": ("permits", "ViciousDogPermit", {}, "vicious-dog permits"),
}
# Readings whose question no record keeps the answer of: the other reading changes the next
# answer, never a stored one. By the example's question, with the reason in words.
NO_STORED_RECORD = {
    "district_quarantine": (
        "whether an animal is exempt from a district quarantine is answered each time the officer "
        "looks it up, from its rabies certificate and what the officer sees on its collar; no record "
        "keeps that answer or says what tag a collar wears, so the other reading changes the next "
        "lookup, not a stored record"
    ),
}
NOT_COUNTED = {
    "time": "it counts the days of every deadline: no one kind of record",
    "animals": "the care standards are checked on inspection, not kept as a record",
    "control": "a dog at large is a fact of a complaint or an impoundment, not a record of its own",
    "definitions": "a definition reaches every record that uses the word",
    "notices": "a notice's day is asked when it is served, not kept as a record of its own",
    "household": "the limit is checked on each keeping place when an animal is licensed",
    "permits": "permits are counted on their own pages",
}


@dataclass
class Answer:
    """One reading's answer on the worked example, or why there is none."""

    value: Any = None
    decision: Decision | None = None
    refused: str = ""
    # Whether the fee schedule would take each figure the example assumes (s. 174.05's limits, as
    # `licensing.set_fee` checks them): a reading may change what the clerk can enter, not the
    # question's answer (Webster § 98-4's late fee).
    fee_schedule: dict[str, str] = field(default_factory=dict)


@dataclass
class Reading:
    id: str
    declared_by: str
    provision: Provision
    section: str
    quotes: list[tuple[str, str]]
    choice: str
    other: str = ""
    changes: str = ""
    example: dict[str, Any] | None = None
    answers: dict[str, Answer] = field(default_factory=dict)
    count: int | None = None
    changed: int | None = None  # of `count`, the records the other reading would answer differently
    counted: str = ""
    not_counted: str = ""
    no_record: str = ""  # why the other reading changes no stored record, where it changes none
    ruled_by: Ruled | None = None  # the pack's own ruling in force, if any
    changes_answer: bool = False  # the other reading sets fields the engine reads (`other.set`)
    assumed: list[tuple[str, str]] = field(default_factory=list)  # (section, reading) the example takes as ruled
    amounts_said: str = ""  # the fee-schedule figures the example assumes, in words

    @property
    def has_other(self) -> bool:
        return bool(self.other)

    @property
    def no_example(self) -> str:
        """Why the page shows no worked example for this reading (empty when it shows one)."""
        if self.example:
            return ""
        if not self.has_other:
            return "The pack encodes no other reading to compare, so an example would show one answer only."
        if not self.changes_answer:
            return (
                "The other reading changes no figure or day the engine computes (what it would change is "
                "said above, in words), so an example would give the same answer on both readings."
            )
        return (
            "The pack's other reading changes an answer but the pack gives no example of it: tell Dogtag's maintainers."
        )


def of(pack: packs.Pack) -> list[Reading]:
    """Every reading the pack makes (`choice`), in the pack's order."""
    out = []
    for rid, origin, provision in pack.readings():
        other = provision.reading.other if provision.reading else None
        example = provision.reading.example if provision.reading else None
        out.append(
            Reading(
                id=rid,
                declared_by=origin,
                provision=provision,
                section=provision.cite.section,
                quotes=[(c.section, c.quote) for c in (provision.cite, *provision.also)],
                choice=provision.choice or "",
                other=other.choice if other else "",
                changes=other.changes if other else "",
                example=example.model_dump() if example else None,
                changes_answer=bool(other and other.set),
            )
        )
    sections = {r.id: r.section for r in out}
    for r in out:
        if r.example:
            r.assumed = [(sections.get(rid, rid), adopted) for rid, adopted in r.example["assumes"].items()]
            r.amounts_said = "; ".join(
                f"{key.replace('_', ' ').replace('.', ' ')} ${amount} from {shown(since)}"
                for key, dated in r.example["amounts"].items()
                for since, amount in sorted(dated.items())
            )
    return out


def named(pack: packs.Pack, reading_id: str) -> Reading | None:
    return next((r for r in of(pack) if r.id == reading_id), None)


def _example_ruling(on: date, adopted: str) -> Ruled:
    return Ruled(by="attorney_opinion", number="example", on=on, reading=adopted)


def example_answers(pack_id: str, reading: Reading, fee_schedule: dict[str, dict[date, Any]]) -> dict[str, Answer]:
    """The example's question asked under each reading, ruled as of the example's day, with the
    figures the example assumes over the municipality's fee schedule."""
    ex = reading.example
    question = get_question(ex["question"])
    local = LocalAmounts.of({**fee_schedule, **ex["amounts"]})
    answers, answer_packs = {}, {}
    for adopted in ("choice", "other") if reading.has_other else ("choice",):
        assumed = [(rid, _example_ruling(ex["on"], a)) for rid, a in ex["assumes"].items()]
        ruling = _example_ruling(ex["on"], adopted)
        pack = answer_packs[adopted] = packs.pack_on(pack_id, ex["on"], [*assumed, (reading.id, ruling)])
        try:
            facts = question.facts.model_validate(dict(ex["facts"]))
            decision = question.answer(pack, facts, ex["on"], local)
        except ValueError as e:
            answers[adopted] = Answer(refused=str(e))
            continue
        answers[adopted] = Answer(value=decision.to_json()["value"], decision=decision)
    for adopted, answer in answers.items():
        answer.fee_schedule = _fee_schedule_takes(answer_packs[adopted], ex, local)
    return answers


def _fee_schedule_takes(pack: packs.Pack, ex: dict[str, Any], local: LocalAmounts) -> dict[str, str]:
    """For each figure the example assumes: would the fee schedule take it from the example's day."""
    on = ex["on"]
    delegated = delegated_amounts(pack)
    others = {k: local.at(k, on) for k in {*ex["amounts"], *delegated}}
    out = {}
    for key in ex["amounts"]:
        amount = others[key]
        if amount is None or key not in delegated:
            continue
        refused = state_limits(pack, key, amount, on, others)
        said = "; ".join(f"{o.message} ({o.citation.section})" for o in refused)
        out[f"the fee schedule takes {key.replace('.', ' ')} ${amount}"] = f"no: {said}" if refused else "yes"
    return out


def _fee_schedule(municipality) -> dict[str, dict[date, Any]]:
    entry = apps.get_model("licensing", "FeeScheduleEntry")
    by_key: dict[str, dict[date, Any]] = {}
    for key, on, amount in entry.objects.filter(municipality=municipality, voided_at=None).values_list(
        "key", "effective_on", "amount"
    ):
        by_key.setdefault(key, {})[on] = amount
    return by_key


def for_page(municipality, on: date) -> list[Reading]:
    """The municipality's readings with their examples answered and their records counted; each
    with the pack's own ruling in force on `on`, if any."""
    pack = packs.load_pack(municipality.rule_pack)
    readings = of(pack)
    recorded = packs.rulings_on(pack, on)
    fee_schedule = _fee_schedule(municipality) if any(r.example or r.has_other for r in readings) else {}
    counter = Counter(municipality, LocalAmounts.of(fee_schedule))
    counts: dict[tuple, int] = {}
    for r in readings:
        r.ruled_by = recorded.get(r.id)
        if r.example:
            r.answers = example_answers(pack.id, r, fee_schedule)
        topic = r.id.split(".", 1)[0]
        question = r.example["question"] if r.example else None
        if r.has_other and question in NO_STORED_RECORD:
            r.no_record = NO_STORED_RECORD[question]
        elif topic in RECORDS or question in RECORDS_BY_QUESTION:
            app, model, filters, what = RECORDS_BY_QUESTION.get(question) or RECORDS[topic]
            key = (app, model, tuple(sorted(filters.items())))
            if key not in counts:
                rows = apps.get_model(app, model).objects.filter(municipality=municipality, **filters)
                counts[key] = rows.count()
            r.count, r.counted = counts[key], what
            compare = comparer(r.id, r.example) if r.has_other else None
            if compare is not None:
                r.changed = compare(counter, pack.id, r.id) if r.count else 0
        else:
            r.not_counted = NOT_COUNTED.get(topic, "its answers are about no one kind of record Dogtag keeps")
    return readings
