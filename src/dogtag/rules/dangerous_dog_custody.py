"""Keeping a dangerous dog: who may take it over, the owner's notice to the police when it
escapes, bites or attacks, and what a failure to comply brings (River Hills § 2.14(6)[e](1)(vii),
(viii) and (ix); [f](1) for vicious dogs).

The provisions live in the pack's `dangerous_dogs` section (`transfer`, `escape_notice`,
`failure_to_comply`, `vicious_as_dangerous`); the questions are here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from functools import cache
from typing import Annotated, Literal

from .catalogue import Facts, PackSet, PackValues, named_by, question
from .decision import Decision
from .schema import Provision
from .spans import choice_notes

Class = Literal["potentially_dangerous", "dangerous", "vicious"]


@cache
def _classes(pack) -> PackValues | None:
    s = pack.dangerous_dogs
    rule = None if s is None else s.classification
    return None if rule is None else named_by("dangerous_dogs.classification", rule, rule.classes)


# A declaration's class: the pack names the classes its ordinance declares; another (a dog declared
# elsewhere under another ordinance's classes) is a fact too, answered by the rules for it, if any.
DeclaredClass = Annotated[
    Class,
    PackSet(
        "Classification",
        _classes,
        "a class the ordinance declares",
        other="a class this ordinance does not declare (a dog declared elsewhere): the answer says which rules "
        "of this ordinance, if any, reach it",
    ),
]
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
    """`cite` is the revocation sentence; `seizure` the sentence on seizure and impoundment.
    `revokes` false: the ordinance revokes nothing, the dog may only be seized (Cedarburg
    § 7-1-6(b)(1)); `cite` is then the duty whose breach leads to the seizure."""

    classes: list[Class]
    seizure: Provision
    revokes: bool = True


def _rule(pack, name: str, doing: str, absent):
    """The pack's rule `name`, or the Decision saying the ordinance sets none (its value `absent`)."""
    s = pack.dangerous_dogs
    rule = None if s is None else getattr(s, name)
    if rule is None:
        return None, Decision(absent, (), (f"this ordinance sets no {doing}",))
    return rule, None


def _binds_only(rule, what: str) -> tuple[str, ...]:
    return (f"{what} {' and '.join(c.replace('_', ' ') for c in rule.classes)} dogs only",)


def _vicious_cites(pack, classification: str) -> tuple:
    """[f](1): a vicious dog "shall be subject to all of the requirements applicable to a dangerous dog"."""
    extra = pack.dangerous_dogs.vicious_as_dangerous
    return (extra.cite.citation,) if classification == "vicious" and extra is not None else ()


class TransferFacts(Facts):
    classification: DeclaredClass
    recipient_resides_in_municipality: bool | None = None
    same_household_and_premises: bool | None = None
    status_disclosed: bool | None = None


TransferFact = Literal["recipient_resides_in_municipality", "same_household_and_premises", "status_disclosed"]


@dataclass(frozen=True)
class TransferAnswer:
    """`restricted`: the ordinance restricts transferring a dog of this classification; `allowed`
    whether this transfer may be made; `reasons` each fact that refuses it, with why."""

    restricted: bool
    allowed: bool
    reasons: dict[TransferFact, str] = field(default_factory=dict)


@question(
    "dangerous_dog_transfer",
    facts=TransferFacts,
    value=TransferAnswer,
    doc="Whether the owner of a declared dog may sell or otherwise transfer it to a recipient "
    "(residence in the municipality, same household and premises, status disclosed); "
    "`reasons` maps each fact that refuses it to why.",
)
def dangerous_dog_transfer(pack, facts: TransferFacts, on: date, local) -> Decision:
    unrestricted = TransferAnswer(restricted=False, allowed=True)
    rule, none = _rule(pack, "transfer", "restriction on selling or transferring a declared dog", unrestricted)
    if none:
        return none
    if facts.classification not in rule.classes:
        return Decision(unrestricted, (), _binds_only(rule, "the restriction binds"))
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
    return Decision(TransferAnswer(True, not reasons, reasons), tuple(cites), choice_notes(rule))


class EscapeFacts(Facts):
    classification: DeclaredClass
    event: Event


@dataclass(frozen=True)
class EscapeNoticeAnswer:
    """`required`: the owner or keeper must notify `whom`, `when` ("immediately": the law sets no
    number of hours)."""

    required: bool
    whom: str | None = None
    when: Literal["immediately"] | None = None


@question(
    "dangerous_dog_escape_notice",
    facts=EscapeFacts,
    value=EscapeNoticeAnswer,
    doc="Whether the owner or keeper of a declared dog must notify the police of an escape, "
    "bite or attack, and whom; the law says 'immediately', with no number of hours.",
)
def dangerous_dog_escape_notice(pack, facts: EscapeFacts, on: date, local) -> Decision:
    no_duty = EscapeNoticeAnswer(required=False)
    rule, none = _rule(pack, "escape_notice", "duty to notify the police of an escape", no_duty)
    if none:
        return none
    if facts.classification not in rule.classes:
        return Decision(no_duty, (), _binds_only(rule, "the duty binds"))
    cite = rule.cite if facts.event == "escaped_at_large" else rule.bite.cite
    value = EscapeNoticeAnswer(True, rule.whom, "immediately")
    cites = (cite.citation, *_vicious_cites(pack, facts.classification))
    return Decision(value, cites, choice_notes(rule))


class FailureFacts(Facts):
    classification: DeclaredClass


@dataclass(frozen=True)
class FailureAnswer:
    """`applies`: the ordinance attaches consequences to this classification's failure to comply:
    the license and the permit revoked (`revoke_license`, `revoke_permit`), the dog subject to
    seizure and impoundment (`seizure`)."""

    applies: bool
    revoke_license: bool = False
    revoke_permit: bool = False
    seizure: bool = False


@question(
    "failure_to_comply",
    facts=FailureFacts,
    value=FailureAnswer,
    doc="What the ordinance makes of a declared dog's owner failing to comply with its requirements: "
    "the license and the permit for keeping the dog revoked, the dog subject to seizure and impoundment.",
)
def failure_to_comply(pack, facts: FailureFacts, on: date, local) -> Decision:
    rule, none = _rule(pack, "failure_to_comply", "consequence of a failure to comply", FailureAnswer(applies=False))
    if none:
        return none
    if facts.classification not in rule.classes:
        return Decision(FailureAnswer(applies=False), (), _binds_only(rule, "the consequences bind"))
    value = FailureAnswer(True, revoke_license=rule.revokes, revoke_permit=rule.revokes, seizure=True)
    cites = (rule.cite.citation, rule.seizure.cite.citation, *_vicious_cites(pack, facts.classification))
    return Decision(value, cites, choice_notes(rule))
