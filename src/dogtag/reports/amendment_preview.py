"""An amendment previewed on the municipality's own records: each license of the chosen year
decided by the batch engine (`rules.licensing_many.decide_many`) under the law in force and under the
law as amended, on its day of issue. The amendment is read as if in force for the whole year, so a
preview of next year's fee shows this year's licenses at it.

The result (stored on the amendment by the worker, `registry.actions.record_preview`): revenue by
category under each law, the county's share (`license_remittance`, asked once per distinct
license), how many owners pay more or less and by how much, the animals whose status changes
(licensable, exempt, in a household that must hold a kennel license) and every affected license.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import date
from decimal import Decimal
from itertools import groupby
from operator import itemgetter

from dogtag import rules
from dogtag.licensing.law import TRAINED_TO, local_amounts
from dogtag.licensing.models import License
from dogtag.registry import amending, forfeiture_schedules
from dogtag.registry.models import Animal
from dogtag.registry.rulings import law_of
from dogtag.reports import forfeiture_preview
from dogtag.rules import packs
from dogtag.rules.dates import plus
from dogtag.rules.decision import ZERO
from dogtag.rules.licensing import license_year_bounds
from dogtag.rules.licensing_many import decide_many

log = logging.getLogger(__name__)

# The distribution's bins, in dollars more (or less) a year per owner: display only, no law.
EDGES = (-20, -10, -5, 0, 5, 10, 20)

_COLUMNS = (
    "pk",
    "serial",
    "holder_id",
    "owner_name",
    "animal_name",
    "issued_on",
    "animal__species",
    "animal__working_status",
    "animal__birth_date",
    "animal__altered",
    "animal__acquired_on",
    "animal__premises_id",
)


def licenses_of(municipality, year: int):
    """The year's individual licenses not voided with their animal's facts, by day of issue."""
    return (
        License.objects.filter(
            municipality=municipality,
            license_year=year,
            voided_at=None,
            kind=License.Kind.INDIVIDUAL,
            animal__isnull=False,
            animal__birth_date__isnull=False,
        )
        .order_by("issued_on", "pk")
        .values_list(*_COLUMNS)
    )


def engine_amendment(amendment, year_start: date) -> packs.Amendment:
    """The amendment as the engine takes it, in force from `year_start` (the preview's year)."""
    if amendment.kind == "forfeiture_schedule":
        overlay = forfeiture_schedules.redated(amendment.provisions, year_start)
        return packs.Amendment.of(amendment.described(), year_start, amendment.words, overlay)
    base = packs.load_pack(amendment.municipality.rule_pack)
    figures = amending.figures_of(amendment.kind, amendment.provisions)
    overlay = amending.provisions(base, amendment.kind, figures, amendment.section, amendment.words, year_start)
    return packs.Amendment.of(amendment.described(), year_start, amendment.words, overlay)


def laws(municipality, amendment, year: int):
    """(pack on a day under the law in force, the same under the law amended) for `year`."""
    pack_id, law = municipality.rule_pack, law_of(municipality.pk)
    start, _ = license_year_bounds(packs.load_pack(pack_id), year)
    proposed = [*law, engine_amendment(amendment, start)]

    def current(on):
        return packs.pack_on(pack_id, on, law)

    def amended(on):
        return packs.pack_on(pack_id, on, proposed)

    return current, amended


def status_of(decision) -> str:
    v = decision.value
    if not v.applies:
        return "not licensable"
    return "exempt" if v.basis == "free_license" else "licensable"


def compare(municipality, amendment, year: int, rows=None) -> dict:
    """The preview's figures (a JSON-able dict); `rows` defaults to `licenses_of` (a forfeiture
    schedule's: to the year's citations, `forfeiture_preview`)."""
    current, amended = laws(municipality, amendment, year)
    if amendment.kind == "forfeiture_schedule":
        return forfeiture_preview.compare(municipality, current, amended, year, rows)
    local = local_amounts(municipality)
    rows = list(licenses_of(municipality, year) if rows is None else rows)
    remittance = rules.get_question("license_remittance")
    shares: dict[tuple, Decimal] = {}
    young = date(year - 1, 1, 1)

    def county_share(pack, on, species, altered, born, charges) -> Decimal:
        if not charges.applies or charges.total is None:
            return ZERO
        free = charges.basis == "free_license"
        key = (id(pack), on, species, altered, charges.tax, charges.late_fee, free, born if born >= young else None)
        share = shares.get(key)
        if share is None:
            facts = remittance.facts(
                species=species,
                altered=altered,
                tax=charges.tax or ZERO,
                late_fee=charges.late_fee or ZERO,
                free_license=free,
                born_on=key[-1],
                license_year=year,
            )
            share = shares[key] = remittance.answer(pack, facts, on, local).value.to_county
        return share

    revenue = {law: defaultdict(lambda: ZERO) for law in ("current", "amended")}
    county = {"current": ZERO, "amended": ZERO}
    owners: dict[int, list] = {}
    changes: dict[str, int] = defaultdict(int)
    not_set = {"current": 0, "amended": 0}
    affected = []
    decided = 0
    for on, day_rows in groupby(rows, key=itemgetter(5)):
        day_rows = list(day_rows)
        facts = [
            (r[6], r[7] == Animal.WorkingStatus.EDUCATIONAL_SCIENTIFIC, year, r[8], r[9], TRAINED_TO.get(r[7]), r[10])
            for r in day_rows
        ]
        packs_of_day = {"current": current(on), "amended": amended(on)}
        answers = {law: decide_many(p, facts, on, local, "license_charges") for law, p in packs_of_day.items()}
        decided += 2 * len(facts)
        for r, now, then in zip(day_rows, answers["current"], answers["amended"], strict=True):
            species, altered, born = r[6], r[9], r[8]
            category = f"{species}s, {'spayed or neutered' if altered else 'not spayed or neutered'}"
            totals = {}
            for law, d in (("current", now), ("amended", then)):
                v = d.value
                tax, late = v.tax or ZERO, v.late_fee or ZERO
                not_set[law] += v.no_tax == "local_amount_not_set"
                revenue[law][f"License tax: {category}"] += tax
                revenue[law]["Late fees"] += late
                county[law] += county_share(packs_of_day[law], on, species, altered, born, v)
                totals[law] = tax + late
            owner = owners.setdefault(r[2], [ZERO, ZERO])
            owner[0] += totals["current"]
            owner[1] += totals["amended"]
            before, after = status_of(now), status_of(then)
            if before != after:
                changes[f"{before} → {after}"] += 1
            if totals["current"] != totals["amended"] or before != after:
                affected.append(
                    [
                        r[1],
                        r[3],
                        r[4],
                        str(on),
                        str(totals["current"]),
                        str(totals["amended"]),
                        str(totals["amended"] - totals["current"]),
                        before,
                        after,
                    ]
                )
    kennels = _kennel_changes(municipality, current, amended, year)
    return {
        "year": year,
        "licenses": len(rows),
        "decisions": decided,
        "revenue": [
            [
                name,
                str(revenue["current"][name]),
                str(revenue["amended"][name]),
                str(revenue["amended"][name] - revenue["current"][name]),
            ]
            for name in sorted(set(revenue["current"]) | set(revenue["amended"]))
        ],
        "total": [str(sum(revenue["current"].values(), ZERO)), str(sum(revenue["amended"].values(), ZERO))],
        "tax_not_set": [not_set["current"], not_set["amended"]],
        "county": [str(county["current"]), str(county["amended"])],
        "owners": _owners(owners),
        "status_changes": sorted([k, v] for k, v in changes.items()),
        "kennels": kennels,
        "affected": affected,
    }


def _owners(owners: dict[int, list]) -> dict:
    diffs = [after - before for before, after in owners.values()]
    bins = []
    labels = [f"Less by ${-EDGES[0]} or more"]
    labels += [
        f"Less by ${-b} to ${-a}" if b <= 0 else f"More by ${a} to ${b}" for a, b in zip(EDGES, EDGES[1:], strict=False)
    ]
    labels += [f"More by ${EDGES[-1]} or more"]
    counts = [0] * (len(EDGES) + 1)
    for d in diffs:
        if d == 0:
            continue
        i = sum(1 for e in EDGES if d >= e) if d > 0 else sum(1 for e in EDGES if d > e)
        counts[i] += 1
    bins = [[label, n] for label, n in zip(labels, counts, strict=True)]
    more = [d for d in diffs if d > 0]
    less = [d for d in diffs if d < 0]
    return {
        "owners": len(diffs),
        "more": len(more),
        "less": len(less),
        "same": len(diffs) - len(more) - len(less),
        "more_total": str(sum(more, ZERO)),
        "less_total": str(-sum(less, ZERO)),
        "largest_more": str(max(more, default=ZERO)),
        "largest_less": str(-min(less, default=ZERO)),
        "bins": bins,
    }


def _kennel_changes(municipality, current, amended, year: int) -> dict:
    """Premises whose count of dogs over the kennel age (`kennel.required`) needs a kennel license
    under one law and not the other, on the first day of the year."""
    on = license_year_bounds(packs.load_pack(municipality.rule_pack), year)[0]
    rules_of = {
        law: getattr(get(on).kennel, "required", None) if get(on).kennel else None
        for law, get in (("current", current), ("amended", amended))
    }
    if not any(rules_of.values()):
        return {"premises": 0, "now_required": 0, "no_longer_required": 0}
    births = defaultdict(list)
    for premises, born in Animal.objects.filter(
        municipality=municipality,
        species="dog",
        status=Animal.Status.ACTIVE,
        premises__isnull=False,
        birth_date__isnull=False,
    ).values_list("premises_id", "birth_date"):
        births[premises].append(born)

    def required(rule, born_list) -> bool:
        return rule is not None and sum(1 for b in born_list if plus(b, rule.over_age) < on) > rule.more_than

    now_required = no_longer = 0
    for born_list in births.values():
        before, after = required(rules_of["current"], born_list), required(rules_of["amended"], born_list)
        now_required += after and not before
        no_longer += before and not after
    return {"premises": len(births), "now_required": now_required, "no_longer_required": no_longer}


def run(preview_id: int) -> None:
    """The worker's task: compute and store the preview (a failure is stored as failed and logged)."""
    from dogtag.registry.actions import record_preview
    from dogtag.registry.models import AmendmentPreview

    preview = AmendmentPreview.objects.select_related("amendment__municipality").get(pk=preview_id)
    amendment = preview.amendment
    try:
        result = compare(amendment.municipality, amendment, preview.year)
    except Exception:
        log.exception("amendment %s: the preview for %s failed", amendment.pk, preview.year)
        result = None
    record_preview(preview_id, result=result)
