"""Amounts on a date: a pack's dated figure, or a local amount the clerk has set.

`local_amounts` (the input to `ask`) maps a key a pack declares (`{local: <key>}`) to dated
values: `{"benton.license_tax.altered": {"2023-02-15": "12.00"}}`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from .decision import Citation, NotSet
from .schema import Dated, LocalAmount


class LocalAmounts:
    __slots__ = ("_by_key",)

    def __init__(self, by_key: Mapping[str, Dated]):
        self._by_key = dict(by_key)

    @classmethod
    def of(cls, raw: LocalAmounts | Mapping[str, Mapping[Any, Any]] | None) -> LocalAmounts:
        if isinstance(raw, LocalAmounts):
            return raw
        by_key = {}
        for key, values in (raw or {}).items():
            dated = {}
            for on, amount in values.items():
                when = on if isinstance(on, date) else date.fromisoformat(str(on))
                if isinstance(amount, float):
                    raise ValueError(f"local amount {key}: write money as a string, not a float")
                dated[when] = None if amount is None else Decimal(str(amount))
                if dated[when] is not None and dated[when] < 0:
                    raise ValueError(f"local amount {key}: {amount} is negative")
            by_key[key] = Dated(dated)
        return cls(by_key)

    def items(self) -> list[tuple[str, Dated]]:
        """Each key with its dated values, as entered."""
        return list(self._by_key.items())

    def at(self, key: str, on: date) -> Decimal | None:
        dated = self._by_key.get(key)
        return None if dated is None else dated.at(on)


NO_LOCAL_AMOUNTS = LocalAmounts({})


def amount_at(
    amount: Dated | LocalAmount, on: date, local: LocalAmounts, citation: Citation
) -> tuple[Decimal | None, NotSet | None]:
    """The amount in force on `on`, or (None, NotSet) when it is a local amount nobody has set."""
    if isinstance(amount, LocalAmount):
        value = local.at(amount.local, on)
        return (value, None) if value is not None else (None, NotSet(amount.local, citation))
    return amount.at(on), None
