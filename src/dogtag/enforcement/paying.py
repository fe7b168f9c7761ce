"""How the person cited pays the forfeiture, shown on the citation's page and printed on the
citation: online at the citation's signed address (and its short form, to type from paper) where
the municipality takes forfeitures online through a connected processor; otherwise at the court
or the clerk's office, never a link that leads nowhere. Nothing to pay on a void or paid citation."""

from dataclasses import dataclass

from dogtag.lib import links, processors


@dataclass(frozen=True)
class HowToPay:
    online: bool
    url: str = ""
    short_url: str = ""


def how_to_pay(citation, municipality) -> HowToPay | None:
    """`municipality` is the citation's (its case's, already in hand): no query is made."""
    if citation.voided_at or citation.paid_on:
        return None
    if processors.forfeitures_online(municipality) and processors.processor_of(municipality):
        return HowToPay(True, links.citation_pay_url(citation.pk), links.citation_short_url(citation.pk))
    return HowToPay(False)
