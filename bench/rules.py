"""Decisions per second: license tax plus late fee for 1,000,000 synthetic dogs.

    .venv/bin/python bench/rules.py [--dogs N]

Each jurisdiction's pack is loaded and validated once (`load_pack` is cached); per dog the
engine resolves a handful of dated values and date comparisons.
"""
from __future__ import annotations

import argparse
import random
import time
from datetime import date, timedelta

from dogtag.rules import load_pack
from dogtag.rules.amounts import LocalAmounts
from dogtag.rules.licensing import Animal, license_charges

JURISDICTIONS = ["wi", "wi-benton", "wi-webster", "wi-river-hills", "wi-sampson", "wi-cedarburg"]
LOCAL = LocalAmounts.of({
    "license_tax.altered": {"2023-01-01": "6.00"}, "license_tax.unaltered": {"2023-01-01": "12.00"},
    "late_fee": {"2023-01-01": "10.00"},
})


def synthetic_dogs(n: int, seed: int = 7) -> list[tuple[str, Animal, date]]:
    rng = random.Random(seed)
    start = date(2025, 1, 1)
    dogs = []
    for _ in range(n):
        on = start + timedelta(days=rng.randrange(365))
        born = on - timedelta(days=rng.randrange(30, 365 * 12))
        acquired = born + timedelta(days=rng.randrange((on - born).days + 1)) if rng.random() < 0.3 else None
        animal = Animal.model_construct(species="dog", born_on=born, altered=rng.random() < 0.7,
                                        acquired_on=acquired, trained_to=None,
                                        kept_only_for_education_or_science=False, license_year=None)
        dogs.append((rng.choice(JURISDICTIONS), animal, on))
    return dogs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dogs", type=int, default=1_000_000)
    n = parser.parse_args().dogs
    packs = {j: load_pack(j) for j in JURISDICTIONS}
    dogs = synthetic_dogs(n)
    began = time.perf_counter()
    total = 0
    for jurisdiction, animal, on in dogs:
        value = license_charges(packs[jurisdiction], animal, on, LOCAL).value
        total += value["total"] is not None
    elapsed = time.perf_counter() - began
    print(f"{n:,} dogs (license tax + late fee) in {elapsed:.2f} s: {n / elapsed:,.0f} decisions/s "
          f"({total:,} with a total)")


if __name__ == "__main__":
    main()
