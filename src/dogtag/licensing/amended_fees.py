"""What the fee schedule page says of the municipality's adopted amendments: each sets figures in
place of the pack's own, and where the pack left them to the fee schedule, the schedule's entries
for them no longer apply from the amendment's effective date."""

from dataclasses import dataclass

from dogtag.lib.dates import shown
from dogtag.licensing.owed import fee_label
from dogtag.registry import amending
from dogtag.registry.models import Amendment
from dogtag.rules import packs


@dataclass(frozen=True)
class AmendedFigure:
    amendment: Amendment
    sets: str  # the figures it sets, in words
    overrides: tuple[str, ...]  # the fee-schedule amounts it takes the place of, by their labels


def _said(kind: str, figures: dict) -> str:
    if kind == Amendment.Kind.KENNEL_THRESHOLD:
        return f"a kennel license for more than {figures['more_than']} dogs"
    if kind == Amendment.Kind.FORFEITURE_SCHEDULE:
        return (
            f"a forfeiture of not less than ${figures['minimum']:,.2f} nor more than ${figures['maximum']:,.2f} "
            f"for violation {figures['violation']}"
        )
    return ", ".join(f"{name.replace('_', ' ')} ${amount:,.2f}" for name, amount in figures.items())


def adopted(municipality) -> list[AmendedFigure]:
    """The municipality's adopted amendments not voided, by effective date (one query)."""
    pack = packs.load_pack(municipality.rule_pack)
    amendments = Amendment.objects.filter(municipality=municipality, voided_at=None, adopted_at__isnull=False)
    return [
        AmendedFigure(
            a,
            f"{_said(a.kind, amending.figures_of(a.kind, a.provisions))} from {shown(a.effective_on)}",
            tuple(fee_label(k) for k in amending.fee_schedule_keys(pack, a.kind, a.provisions)),
        )
        for a in amendments.order_by("effective_on", "pk")
    ]
