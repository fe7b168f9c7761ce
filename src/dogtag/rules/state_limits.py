"""The limits ch. 174 sets on a municipal pack's own amounts, checked when the pack loads.

s. 174.05(5) fixes the late fee ("a late fee of $5"): a municipal figure is the state's or the
pack is refused. s. 174.05(2) sets the minimum tax and s. 174.05(3) lets a municipality raise it,
provided "the tax for unneutered male dogs and unspayed female dogs is greater than the tax for
neutered male dogs and spayed female dogs". The limits themselves are read from the state pack
(`licensing.late_fee`, `licensing.minimum_tax`) with their citations, never written here.
A fee-schedule amount (`{local: ...}`) is the clerk's and is checked where it is entered.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from .schema import Dated


def _dated(amount: Any) -> list[tuple[date, Any]]:
    if isinstance(amount, Dated):
        return [(d, v) for d, v in zip(amount.starts, amount.values, strict=True) if v is not None]
    return []


def state_limit_errors(
    file: str, pack_id: str, sections: dict, origins: dict, state: Any
) -> list[tuple[str, str, str]]:
    """(file, key path, reason) for each amount the pack declares outside the limits of `state`
    (the pack its chain starts from)."""
    state_lic = state.sections.get("licensing")
    lic = sections.get("licensing")
    if state_lic is None or lic is None:
        return []
    errors: list[tuple[str, str, str]] = []
    late, state_late = getattr(lic, "late_fee", None), getattr(state_lic, "late_fee", None)
    if late is not None and state_late is not None and origins.get(("licensing", "late_fee")) == pack_id:
        for on, amount in _dated(late.amount):
            fixed = state_late.amount.at(on) if isinstance(state_late.amount, Dated) else None
            if fixed is not None and amount != fixed:
                errors.append(
                    (
                        file,
                        f"licensing.late_fee.amount.{on.isoformat()}",
                        f"a late fee of ${amount} where {state_late.cite.section} fixes ${fixed} "
                        f"(“{state_late.cite.quote}”)",
                    )
                )
    tax, minimum = getattr(lic, "tax", None), getattr(state_lic, "minimum_tax", None)
    if tax is not None and minimum is not None and origins.get(("licensing", "tax")) == pack_id:
        cite = f"{minimum.cite.section} (“{minimum.cite.quote}”)"
        for kind in ("altered", "unaltered"):
            for on, amount in _dated(getattr(tax, kind)):
                floor = getattr(minimum, kind).at(on)
                if floor is not None and amount < floor:
                    errors.append(
                        (
                            file,
                            f"licensing.tax.{kind}.{on.isoformat()}",
                            f"${amount} is below the minimum ${floor} of {cite}",
                        )
                    )
        altered, unaltered = tax.altered, tax.unaltered
        if isinstance(altered, Dated) and isinstance(unaltered, Dated):
            for on in sorted(set(altered.starts) | set(unaltered.starts)):
                a, u = altered.at(on), unaltered.at(on)
                floor_a, floor_u = minimum.altered.at(on), minimum.unaltered.at(on)
                raised = a is not None and u is not None and (a, u) != (floor_a, floor_u)
                if raised and u <= a:
                    errors.append(
                        (
                            file,
                            f"licensing.tax.unaltered.{on.isoformat()}",
                            f"${u} for an unaltered dog is not greater than ${a} for an altered one: where a "
                            "municipality raises the minimum tax, s. 174.05(3) requires the tax for unneutered "
                            "and unspayed dogs to be the greater",
                        )
                    )
    return errors
