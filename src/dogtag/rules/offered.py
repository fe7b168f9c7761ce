"""What a municipality's law offers, read from its pack: the menus, procedures and steps a
screen may show. What the pack lacks is not offered; a screen that asks here cannot
offer a form whose action would then answer "this ordinance has no ..."."""

from __future__ import annotations

from .nuisance import NuisanceSection
from .permits import PermitsSection


def licensed_species(pack) -> tuple[str, ...]:
    """The animals the ordinance licenses ("dog", "cat"), in the pack's order."""
    return tuple(pack.licensing.species.species)


def hen_permit(pack) -> bool:
    """Whether the ordinance has a backyard hen permit (Cedarburg § 7-1-26)."""
    s: PermitsSection | None = pack.permits
    return s is not None and s.hen_fees is not None


def complaint_notice_step(pack, kind: str) -> bool:
    """Whether a complaint of this kind has the written notice to the owner, then the repeat:
    a dog at large seen again after the notice (Cedarburg § 7-1-6(c)(2)), barking that goes on
    after the notice was received (Sampson Section 5)."""
    s: NuisanceSection | None = pack.nuisance
    if s is None:
        return False
    if kind == "at-large":
        return s.at_large_complaints is not None
    if kind == "barking":
        return s.barking_after_notice is not None
    return False
