"""Charges no ordinance of the five sets but a board may set by its own resolution, such as a
replacement for a lost license tag. The clerk enters one on the fee schedule with the resolution
that set it (the fee schedule's "Set by" is its citation). Until one is set nothing is charged:
no law asks for it, so no amount is guessed and none is required before the work is done."""

from datetime import date

from dogtag.licensing.models import FeeScheduleEntry

CHARGES = {
    "replacement_tag": "replacement tag",
    # A card convenience fee on online payments: the municipality's own charge, never license
    # tax; none of the five ordinances nor ch. 174 speaks to it.
    "card_convenience_fee": "card convenience fee (paid online)",
}


def charge_on(municipality, key: str, on: date) -> FeeScheduleEntry | None:
    """The entry in force on `on` for a charge, or None when the board has set none."""
    return (
        FeeScheduleEntry.objects.filter(municipality=municipality, key=key, voided_at=None, effective_on__lte=on)
        .order_by("-effective_on")
        .first()
    )
