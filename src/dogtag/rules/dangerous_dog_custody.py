"""Keeping a dangerous dog: who may take it over, the owner's notice to the police when it
escapes, bites or attacks, and what a failure to comply brings (River Hills § 2.14(6)[e](1)(vii),
(viii) and (ix); [f](1) for vicious dogs).

The provisions live in the pack's `dangerous_dogs` section (`transfer`, `escape_notice`,
`failure_to_comply`, `vicious_as_dangerous`); the questions are here.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from .catalogue import Facts, question
from .decision import Decision
from .schema import Provision
from .spans import choice_notes

Class = Literal["potentially_dangerous", "dangerous", "vicious"]
Event = Literal["escaped_at_large", "bit_or_attacked_person", "bit_or_attacked_domestic_animal"]


class TransferRestriction(Provision):
    """The prohibition; `to_nonresidents` and `disclosure` cite the proviso and the last sentence."""

    classes: list[Class]
    to_nonresidents: Provision
    disclosure: Provision


class EscapeNotice(Provision):
    """`cite` is the escape sentence; `bite` the sentence on bites and attacks."""

    classes: list[Class]
    whom: str
    bite: Provision


class FailureToComply(Provision):
    """`cite` is the revocation sentence; `seizure` the sentence on seizure and impoundment."""

    classes: list[Class]
    seizure: Provision


def _rule(pack, name: str, doing: str):
    s = pack.dangerous_dogs
    rule = None if s is None else getattr(s, name)
    if rule is None:
        return None, Decision(None, (), (f"this ordinance sets no {doing}",))
    return rule, None


def _vicious_cites(pack, classification: str) -> tuple:
    """[f](1): a vicious dog "shall be subject to all of the requirements applicable to a dangerous dog"."""
    extra = pack.dangerous_dogs.vicious_as_dangerous
    return (extra.cite.citation,) if classification == "vicious" and extra is not None else ()


class TransferFacts(Facts):
    classification: Class
    recipient_resides_in_municipality: bool | None = None
    same_household_and_premises: bool | None = None
    status_disclosed: bool | None = None


@question(
    "dangerous_dog_transfer",
    facts=TransferFacts,
    doc="Whether the owner of a declared dog may sell or otherwise transfer it to a recipient "
    "(residence in the municipality, same household and premises, status disclosed); "
    "`reasons` maps each fact that refuses it to why.",
)
def dangerous_dog_transfer(pack, facts: TransferFacts, on: date, local) -> Decision:
    rule, none = _rule(pack, "transfer", "restriction on selling or transferring a declared dog")
    if none:
        return none
    if facts.classification not in rule.classes:
        return Decision(
            {"allowed": True, "reasons": {}},
            (),
            (f"the restriction binds {' and '.join(c.replace('_', ' ') for c in rule.classes)} dogs only",),
        )
    cites, reasons = [rule.cite.citation], {}
    resident = facts.recipient_resides_in_municipality
    if resident is None:
        reasons["recipient_resides_in_municipality"] = "say whether the recipient resides in the municipality"
    elif resident and facts.same_household_and_premises is not True:
        reasons["same_household_and_premises"] = (
            "a recipient within the municipality must reside permanently in the same household and "
            "on the same premises as the owner"
        )
    elif not resident:
        cites.append(rule.to_nonresidents.cite.citation)
    cites.append(rule.disclosure.cite.citation)
    if facts.status_disclosed is not True:
        reasons["status_disclosed"] = "the owner must disclose the dog's status to the recipient"
    cites += _vicious_cites(pack, facts.classification)
    value = {"allowed": not reasons, "reasons": reasons}
    return Decision(value, tuple(cites), choice_notes(rule))


class EscapeFacts(Facts):
    classification: Class
    event: Event


@question(
    "dangerous_dog_escape_notice",
    facts=EscapeFacts,
    doc="Whether the owner or keeper of a declared dog must notify the police of an escape, "
    "bite or attack, and whom; the law says 'immediately', with no number of hours.",
)
def dangerous_dog_escape_notice(pack, facts: EscapeFacts, on: date, local) -> Decision:
    rule, none = _rule(pack, "escape_notice", "duty to notify the police of an escape")
    if none:
        return none
    if facts.classification not in rule.classes:
        return Decision(
            {"required": False, "whom": None, "when": None},
            (),
            (f"the duty binds {' and '.join(c.replace('_', ' ') for c in rule.classes)} dogs only",),
        )
    cite = rule.cite if facts.event == "escaped_at_large" else rule.bite.cite
    value = {"required": True, "whom": rule.whom, "when": "immediately"}
    cites = (cite.citation, *_vicious_cites(pack, facts.classification))
    return Decision(value, cites, choice_notes(rule))


class FailureFacts(Facts):
    classification: Class


@question(
    "failure_to_comply",
    facts=FailureFacts,
    doc="What the ordinance makes of a declared dog's owner failing to comply with its requirements: "
    "the license and the permit for keeping the dog revoked, the dog subject to seizure and impoundment.",
)
def failure_to_comply(pack, facts: FailureFacts, on: date, local) -> Decision:
    rule, none = _rule(pack, "failure_to_comply", "consequence of a failure to comply")
    if none:
        return none
    if facts.classification not in rule.classes:
        return Decision(
            None, (), (f"the consequences bind {' and '.join(c.replace('_', ' ') for c in rule.classes)} dogs only",)
        )
    value = {"revoke_license": True, "revoke_permit": True, "seizure": True}
    cites = (rule.cite.citation, rule.seizure.cite.citation, *_vicious_cites(pack, facts.classification))
    return Decision(value, cites, choice_notes(rule))
