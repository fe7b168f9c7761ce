"""The rule engine's speed: license tax plus late fee, with citations, for synthetic dogs over the
five municipalities' packs and the state's, against a naive per-dog Python function that computes
the same numbers (no citations, no notes) from the same packs' figures.

    .venv/bin/python bench/rules.py                  # BENCH_SCALE=10k|100k|1m (default 100k)

Measures, each Dogtag and the naive function interleaved, CPU seconds:
- rules.one_by_one: `license_charges` per dog; goal <= 1.5x the naive function;
- rules.batch: `decide_rows`, each pack's dogs on one day (a renewal run's or a county report's
  shape), each dog a row of its facts as a query's values_list gives it (a tuple with dates of
  its own); goal >= 500,000 decisions per CPU-second. Beside it, in the same interleaving,
  `decide_many` on the facts models, and for the record the same dogs in batches of one pack
  and one day each (their own random days: about 46 dogs a batch at 100k).
Before timing, every dog's tax, late fee and total are checked equal across the three.
"""

from __future__ import annotations

import calendar
import random
from collections import defaultdict
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from _harness import Bench

from dogtag.rules import licensing_many, load_pack
from dogtag.rules.amounts import LocalAmounts, amount_at
from dogtag.rules.licensing import Animal, license_charges
from dogtag.rules.licensing_many import ROW_FACTS, decide_many, decide_rows
from dogtag.rules.time import named_day

JURISDICTIONS = ["wi", "wi-benton", "wi-webster", "wi-river-hills", "wi-sampson", "wi-cedarburg"]
LOCAL = LocalAmounts.of(
    {
        "license_tax.altered": {"2023-01-01": "6.00"},
        "license_tax.unaltered": {"2023-01-01": "12.00"},
        "late_fee": {"2023-01-01": "10.00"},
    }
)
YEAR = 2025
BATCH_GOAL = 500_000  # decisions per CPU-second, the floor for a batch path
REPORT_DAY = date(YEAR, 6, 15)


def synthetic_dogs(n: int, seed: int = 7) -> list[tuple[str, Animal, date]]:
    rng = random.Random(seed)
    start = date(YEAR, 1, 1)
    dogs = []
    for _ in range(n):
        on = start + timedelta(days=rng.randrange(365))
        born = on - timedelta(days=rng.randrange(30, 365 * 12))
        acquired = born + timedelta(days=rng.randrange((on - born).days + 1)) if rng.random() < 0.3 else None
        animal = Animal.model_construct(
            species="dog",
            born_on=born,
            altered=rng.random() < 0.7,
            acquired_on=acquired,
            trained_to=None,
            kept_only_for_education_or_science=False,
            license_year=None,
        )
        dogs.append((rng.choice(JURISDICTIONS), animal, on))
    return dogs


# --- the floor: what a clerk's script would do, one dog at a time ------------------------------


def plain_figures(jurisdiction: str) -> dict:
    """The pack's licensing figures for the benchmark's year as a plain dict (read once)."""
    pack = load_pack(jurisdiction)
    lic = pack.licensing
    on = date(YEAR, 6, 1)
    tax = lic.tax or lic.minimum_tax
    cite = tax.cite.citation
    ext = pack.time.last_day_extension if pack.time else None
    return {
        "year_starts": (lic.license_year.starts.month, lic.license_year.starts.day),
        "age_months": lic.licensable_age.age.months,
        "tax": {
            altered: amount_at(tax.altered if altered else tax.unaltered, on, LOCAL, cite)[0]
            for altered in (True, False)
        },
        "minimum": {True: lic.minimum_tax.altered.at(on), False: lic.minimum_tax.unaltered.at(on)},
        "half_after": (lic.half_tax.after.month, lic.half_tax.after.day),
        "half": lic.half_tax.fraction,
        "late_fee": amount_at(lic.late_fee.amount, on, LOCAL, cite)[0],
        "renewal_before": (lic.late_fee.renewal_before.month, lic.late_fee.renewal_before.day),
        "acquired_within_days": lic.late_fee.acquired_within.days,
        "extend": bool(ext and ext.extend),
    }


def naive_charges(law: dict, born: date, altered: bool, acquired: date | None, on: date):
    """(tax, late fee, total) for one dog, straight from the figures."""
    m, d = law["year_starts"]
    year = on.year if on >= date(on.year, m, d) else on.year - 1
    start, end = date(year, m, d), date(year, 12, 31)
    months = born.month - 1 + law["age_months"]
    y, mo = born.year + months // 12, months % 12 + 1
    due = date(y, mo, min(born.day, calendar.monthrange(y, mo)[1]))
    tax = max(law["tax"][altered], law["minimum"][altered])
    if start <= due <= end and due > date(year, *law["half_after"]):
        tax = (tax * law["half"]).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if due < start and (acquired is None or acquired < start):
        deadline = date(year, *law["renewal_before"]) - timedelta(days=1)
    elif acquired is not None and acquired >= start and due <= acquired:
        deadline = acquired + timedelta(days=law["acquired_within_days"])
    elif start <= due <= end and (acquired is None or acquired < due):
        deadline = due
    else:
        deadline = None
    if deadline is not None and law["extend"]:
        deadline = named_day(deadline).day  # each last day past a Sunday or holiday (s. 990.001(4)(b))
    fee = law["late_fee"] if deadline is not None and on > deadline else Decimal("0.00")
    return tax, fee, tax + fee


def main() -> None:
    bench = Bench("rules")
    n = bench.size
    packs = {j: load_pack(j) for j in JURISDICTIONS}
    figures = {j: plain_figures(j) for j in JURISDICTIONS}
    dogs = synthetic_dogs(n)
    by_day = defaultdict(list)
    for jurisdiction, animal, on in dogs:
        by_day[(jurisdiction, on)].append(animal)
    bench.note(f"{n:,} dogs over {len(JURISDICTIONS)} packs, {len(by_day):,} (pack, day) batches")

    by_pack = defaultdict(list)
    for jurisdiction, animal, _ in dogs:
        by_pack[jurisdiction].append(animal)

    def one_by_one():
        return [license_charges(packs[j], a, on, LOCAL) for j, a, on in dogs]

    def naive():
        return [naive_charges(figures[j], a.born_on, a.altered, a.acquired_on, on) for j, a, on in dogs]

    def row_of(a: Animal) -> tuple:
        """What a query's row holds: the facts in ROW_FACTS order, each date an object of its own."""
        return tuple(
            date.fromordinal(v.toordinal()) if isinstance(v, date) else v for v in (getattr(a, f) for f in ROW_FACTS)
        )

    rows_by_pack = {j: [row_of(a) for a in animals] for j, animals in by_pack.items()}

    def batch():
        return {j: decide_rows(packs[j], rows, REPORT_DAY, LOCAL) for j, rows in rows_by_pack.items()}

    def batch_of_models():
        return {j: decide_many(packs[j], animals, REPORT_DAY, LOCAL) for j, animals in by_pack.items()}

    def naive_on_report_day():
        return {
            j: [naive_charges(figures[j], a.born_on, a.altered, a.acquired_on, REPORT_DAY) for a in animals]
            for j, animals in by_pack.items()
        }

    def small_batches():
        return {key: decide_many(packs[key[0]], animals, key[1], LOCAL) for key, animals in by_day.items()}

    # The same numbers, dog by dog, before anything is timed.
    engine, floor = one_by_one(), naive()
    for (j, a, on), decision, numbers in zip(dogs, engine, floor, strict=True):
        v = decision.value
        assert (v.tax, v.late_fee, v.total) == numbers, (j, a, on, v, numbers)
    small, position = small_batches(), defaultdict(int)
    for (j, a, on), decision in zip(dogs, engine, strict=True):
        assert small[(j, on)][position[(j, on)]] == decision, (j, a, on)
        position[(j, on)] += 1
    batched, of_models, floor = batch(), batch_of_models(), naive_on_report_day()
    assert batched == of_models
    for j, animals in by_pack.items():
        for a, decision, numbers in zip(animals, batched[j], floor[j], strict=True):
            assert decision == license_charges(packs[j], a, REPORT_DAY, LOCAL), (j, a)
            v = decision.value
            assert (v.tax, v.late_fee, v.total) == numbers, (j, a, v, numbers)
    groups = sum(len({id(d) for d in ds}) for ds in batched.values())
    bench.note(
        f"checked: the engine, decide_rows, decide_many and the naive function agree on all {n:,} dogs "
        f"({groups:,} distinct decisions on {REPORT_DAY})"
    )
    del engine, floor, batched, of_models, small

    runs = bench.interleave(
        {"dogtag": one_by_one, "naive": naive}, repetitions=3, label="license_charges one by one vs the naive function"
    )
    ratio = runs.ratio("cpu")
    bench.result(
        "rules.one_by_one",
        ratio=ratio,
        value=n / runs["dogtag"].cpu.median,
        unit="decisions/CPU-s",
        goal="ratio<=1.5",
        met=ratio <= 1.5,
    )
    bench.note(f"naive function: {n / runs['naive'].cpu.median:,.0f} decisions/CPU-s")

    def batch_result(name, runs, measured):
        rate = n / runs[measured].cpu.median
        bench.result(
            name,
            ratio=runs.ratio("cpu"),
            value=rate,
            unit="decisions/CPU-s",
            goal=f"value>={BATCH_GOAL}",
            met=rate >= BATCH_GOAL,
        )

    runs = bench.interleave(
        {"decide_rows": batch, "naive": naive_on_report_day, "decide_many": batch_of_models},
        repetitions=5,
        label=f"decide_rows (and decide_many), each pack's dogs on {REPORT_DAY}, vs naive",
    )
    batch_result("rules.batch", runs, "decide_rows")
    bench.note(
        f"decide_many on the facts models, same runs: {n / runs['decide_many'].cpu.median:,.0f} "
        f"decisions/CPU-s, {runs.ratio('cpu', 'decide_many', 'naive'):.2f}x the naive function"
    )

    def first_batch_of_the_day():
        """decide_rows with nothing kept from an earlier batch: every memo of the engine cleared
        (pack terms, license years, days, birth dates)."""
        licensing_many.clear_memos()
        return batch()

    runs = bench.interleave(
        {"first batch": first_batch_of_the_day, "naive": naive_on_report_day},
        repetitions=5,
        label="decide_rows, the day's first batch (every memo cleared before each run), vs naive",
    )
    batch_result("rules.batch_first", runs, "first batch")

    runs = bench.interleave(
        {"decide_many": small_batches, "naive": naive},
        repetitions=3,
        label=f"decide_many in {len(by_day):,} batches of one pack and day, vs the naive function",
    )
    bench.note(
        f"small batches: {n / runs['decide_many'].cpu.median:,.0f} decisions/CPU-s, "
        f"{runs.ratio('cpu'):.2f}x the naive function"
    )


if __name__ == "__main__":
    main()
