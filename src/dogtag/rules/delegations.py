"""The amounts an ordinance leaves to a local fee schedule ("as prescribed in § 173-1",
"established by the Village Board"): the keys a pack declares with `{local: key}`, the
provision that delegates each, and the state minimum that still binds it."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from pydantic import BaseModel

from .decision import Citation
from .packs import Pack
from .schema import Cite, Dated, LocalAmount


def delegated_amounts(pack: Pack) -> dict[str, Citation]:
    """Every local amount key of the pack, with the citation of the provision declaring it."""
    found: dict[str, Citation] = {}

    def walk(value: Any, cite: Citation | None) -> None:
        if isinstance(value, LocalAmount):
            found.setdefault(value.local, cite)
        elif isinstance(value, BaseModel):
            own = getattr(value, "cite", None)
            for key in type(value).model_fields:
                walk(getattr(value, key), own.citation if isinstance(own, Cite) else cite)
        elif isinstance(value, Dated):
            for v in value.values:
                walk(v, cite)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v, cite)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, cite)

    for model in pack.sections.values():
        walk(model, None)
    return found


def state_minimum(pack: Pack, key: str, on: date) -> tuple[Decimal, Citation] | None:
    """The minimum a local license tax may not go below (s. 174.05(2)), if `key` is one."""
    lic = pack.licensing
    if lic is None or lic.tax is None or lic.minimum_tax is None:
        return None
    for kind in ("altered", "unaltered"):
        local = getattr(lic.tax, kind)
        if isinstance(local, LocalAmount) and local.local == key:
            floor = getattr(lic.minimum_tax, kind).at(on)
            return (floor, lic.minimum_tax.cite.citation) if floor is not None else None
    return None
