"""The limits ch. 174 sets on the amounts a municipality sets itself: one check, `breaches`, used
when a pack loads (`state_limit_errors`: the pack's own dated figures) and when the clerk enters a
fee-schedule amount (`limits.state_limits`).

s. 174.05(5) fixes the late fee ("a late fee of $5"). s. 174.05(2) sets the minimum tax and
s. 174.05(3) lets a municipality raise it, provided "the tax for unneutered male dogs and unspayed
female dogs is greater than the tax for neutered male dogs and spayed female dogs". The limits
themselves are read from the state pack (`licensing.late_fee`, `licensing.minimum_tax`,
`licensing.additional_tax`) with their citations, never written here. s. 174.05(3)'s cap on the
additional tax is a figure Dogtag does not hold (`licensing.additional_tax_cap` says so).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, Literal

from .schema import Dated

Kind = Literal["late_fee", "altered", "unaltered"]


@dataclass(frozen=True)
class Breach:
    """An amount outside a state limit: which amount (`kind`), why, and the provision that says so."""

    kind: Kind
    message: str
    provision: Any  # the state pack's provision (its `cite` is the citation)


def breaches(state: Any, on: date, amounts: dict[Kind, Decimal | None], entering: Kind = "unaltered") -> list[Breach]:
    """Every state limit `amounts` (late fee, altered and unaltered tax, in force on `on`) break
    under `state` (the state pack's licensing section). The intact-above-altered rule compares
    the two taxes where both are known and is charged to `entering` (the amount being set)."""
    found: list[Breach] = []
    late, rule = amounts.get("late_fee"), state.late_fee
    if late is not None and rule is not None and isinstance(rule.amount, Dated):
        fixed = rule.amount.at(on)
        if fixed is not None and late != fixed:
            found.append(Breach("late_fee", f"the state fixes a late fee of ${fixed}, not ${late}", rule))
    minimum = state.minimum_tax
    if minimum is None:
        return found
    for kind in ("altered", "unaltered"):
        amount, floor = amounts.get(kind), getattr(minimum, kind).at(on)
        if amount is not None and floor is not None and amount < floor:
            message = f"${amount} is below the state minimum tax of ${floor}; a local tax may be higher, not lower"
            found.append(Breach(kind, message, minimum))
    altered, intact, raise_rule = amounts.get("altered"), amounts.get("unaltered"), state.additional_tax
    if altered is not None and intact is not None and raise_rule is not None:
        # s. 174.05(3) binds a raised tax: "If the governing body ... increases the minimum tax"
        raised = (altered, intact) != (minimum.altered.at(on), minimum.unaltered.at(on))
        if raised and intact <= altered:
            message = (
                f"the tax for an intact dog (${intact}) must be greater than the tax for a spayed or "
                f"neutered dog (${altered})"
            )
            found.append(Breach(entering, message, raise_rule))
    return found


def _dated(amount: Any) -> list[tuple[date, Any]]:
    if isinstance(amount, Dated):
        return [(d, v) for d, v in zip(amount.starts, amount.values, strict=True) if v is not None]
    return []


def state_limit_errors(
    file: str, pack_id: str, sections: dict, origins: dict, state: Any
) -> list[tuple[str, str, str]]:
    """(file, key path, reason) for each amount the pack declares outside the limits of `state`
    (the pack its chain starts from). A fee-schedule amount (`{local: ...}`) is the clerk's and is
    checked where it is entered."""
    state_lic = state.sections.get("licensing")
    lic = sections.get("licensing")
    if state_lic is None or lic is None:
        return []
    own = {key for key in ("late_fee", "tax") if origins.get(("licensing", key)) == pack_id}
    late = getattr(lic, "late_fee", None) if "late_fee" in own else None
    late = late if late is not None and late.held_to_state else None
    tax = getattr(lic, "tax", None) if "tax" in own else None
    dated: dict[Kind, Any] = {
        "late_fee": late.amount if late is not None else None,
        "altered": tax.altered if tax is not None else None,
        "unaltered": tax.unaltered if tax is not None else None,
    }
    paths = {"late_fee": "licensing.late_fee.amount", "altered": "licensing.tax.altered"}
    paths["unaltered"] = "licensing.tax.unaltered"
    days = sorted({d for amount in dated.values() for d, _ in _dated(amount)})
    errors: list[tuple[str, str, str]] = []
    seen: set[tuple[Kind, str]] = set()
    for on in days:
        amounts = {k: v.at(on) for k, v in dated.items() if isinstance(v, Dated)}
        for b in breaches(state_lic, on, amounts):
            if (b.kind, b.message) not in seen:
                seen.add((b.kind, b.message))
                cite = b.provision.cite
                errors.append(
                    (file, f"{paths[b.kind]}.{on.isoformat()}", f"{b.message} ({cite.section}: “{cite.quote}”)")
                )
    return errors
