"""Definitions an officer applies in the field: who is the "owner" (and when the occupant of a
premises is presumed to harbor the animal), when a dog is "untagged" or "unlicensed", and what
is a "kennel" (Cedarburg § 7-1-1(b)(1), River Hills § 2.14(1)[a], [d], Sampson Section 4E, 4K
and 6, Benton § 115-3A(6), B, Webster § 98-3A(6))."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

from pydantic import Field

from .catalogue import Facts, question
from .decision import Decision
from .schema import Provision, Strict, section
from .spans import choice_notes

Relation = Literal["owns", "harbors", "keeps", "shelters"]
Purpose = Literal["show", "sale", "boarding", "breeding"]
# The dogs an ordinance excuses from the tag on the collar: Sampson Section 6B to 6D, Benton § 115-2E
# (which § 115-3A(5) applies to the license tag) for a dog during competition or training or while
# hunting; its dog "securely confined indoors or ... in a fenced area" is the definition's own.
TagExemption = Literal[
    "law_enforcement",
    "educational_or_scientific",
    "blind_deaf_or_mobility_impaired",
    "competition_or_training",
    "hunting",
]


class OwnerDefinition(Provision):
    """ "Owner" includes whoever stands in one of `relations` to the animal; where
    `occupant_presumed_after_days` is set, the occupant of premises on which the animal remains
    or to which it customarily returns daily for that many days is presumed to harbor it."""

    relations: list[Relation]
    occupant_presumed_after_days: int | None = None


class UntaggedDefinition(Provision):
    """`term`: what the ordinance calls a dog without its tag (River Hills: an "Unlicensed Dog").
    `outdoors_only`: the tag is needed only outdoors; `not_when`: where it is not needed."""

    term: Literal["untagged", "unlicensed"]
    outdoors_only: bool = True
    not_when: list[Literal["confined_in_fenced_area", "confined_on_owner_premises"]] = []


class TagExemptionRule(Provision):
    exemption: TagExemption


class PresumedUnlicensed(Provision):
    """A dog "without a tag" is presumptive evidence that it is unlicensed. `follows_definition`:
    "without a tag" in the sense of the untagged definition (a dog indoors, or securely confined in
    a fenced area, is not without one); false: any dog found without its tag on a collar, except,
    with `indoors_excepted`, one indoors, where the ordinance's own tag rule does not require the
    tag (Cedarburg § 7-1-3(a)(5), § 7-1-2(e): "securely confined indoors")."""

    follows_definition: bool = True
    indoors_excepted: bool = False


class KennelDefinition(Provision):
    at_least_dogs: int
    purposes: list[Purpose]


@section("definitions")
class DefinitionsSection(Strict):
    owner: OwnerDefinition | None = None
    untagged: UntaggedDefinition | None = None
    untagged_exemptions: list[TagExemptionRule] = []
    presumed_unlicensed: PresumedUnlicensed | None = None
    kennel: KennelDefinition | None = None


def _defs(pack) -> DefinitionsSection | None:
    return pack.definitions


class OwnerFacts(Facts):
    relations: list[Relation] = []
    occupant_of_premises: bool = False
    days_remained_or_returned_daily: int = Field(default=0, ge=0)


@dataclass(frozen=True)
class OwnerAnswer:
    defined: bool
    owner: bool | None = None
    presumed_harboring: bool | None = None
    presumption_after_days: int | None = None


@question(
    "owner",
    facts=OwnerFacts,
    value=OwnerAnswer,
    doc="Whether a person is the animal's 'owner' as the ordinance defines it: owning, harboring, keeping "
    "(or sheltering), or, where the ordinance presumes it, occupying premises the animal stays on or "
    "returns to daily for the period set.",
)
def owner(pack, f: OwnerFacts, on: date, local) -> Decision:
    d = _defs(pack)
    rule = d.owner if d else None
    if rule is None:
        return Decision(OwnerAnswer(False), (), ("this law does not define owner; the statute's meaning applies",))
    presumed = (
        rule.occupant_presumed_after_days is not None
        and f.occupant_of_premises
        and f.days_remained_or_returned_daily >= rule.occupant_presumed_after_days
    )
    is_owner = bool(set(f.relations) & set(rule.relations)) or presumed
    value = OwnerAnswer(True, is_owner, presumed, rule.occupant_presumed_after_days)
    return Decision(value, (rule.cite.citation,), choice_notes(rule))


class UntaggedFacts(Facts):
    tag_attached_to_collar: bool
    outdoors: bool = True
    confined_in_fenced_area: bool = False
    confined_on_owner_premises: bool = False
    exemptions: list[TagExemption] = []


@dataclass(frozen=True)
class UntaggedAnswer:
    defined: bool
    untagged: bool | None = None
    term: str | None = None
    presumed_unlicensed: bool | None = None
    exempt: str | None = None


@question(
    "untagged",
    facts=UntaggedFacts,
    value=UntaggedAnswer,
    doc="Whether a dog is 'untagged' (River Hills: an 'unlicensed dog') as the ordinance defines it, any "
    "exemption that applies, and whether the missing tag is presumptive evidence the dog is unlicensed.",
)
def untagged(pack, f: UntaggedFacts, on: date, local) -> Decision:
    d = _defs(pack)
    if d is None or (d.untagged is None and d.presumed_unlicensed is None):
        return Decision(UntaggedAnswer(False), (), ("this law does not define untagged",))
    cites, notes = [], []
    missing = not f.tag_attached_to_collar
    term = "untagged"
    if d.untagged is not None:
        rule = d.untagged
        term = rule.term
        cites.append(rule.cite.citation)
        notes += choice_notes(rule)
        if rule.outdoors_only and not f.outdoors:
            missing = False
        if ("confined_in_fenced_area" in rule.not_when and f.confined_in_fenced_area) or (
            "confined_on_owner_premises" in rule.not_when and f.confined_on_owner_premises
        ):
            missing = False
    exempt = None
    if missing:
        for ex in d.untagged_exemptions:
            if ex.exemption in f.exemptions:
                exempt = ex.exemption
                cites += ex.citations()
                missing = False
                break
    presumed = None
    if d.presumed_unlicensed is not None:
        follows = d.untagged is not None and d.presumed_unlicensed.follows_definition
        rule = d.presumed_unlicensed
        without = not f.tag_attached_to_collar and not (rule.indoors_excepted and not f.outdoors)
        presumed = (missing if follows else without) and exempt is None
        cites += rule.citations()
        notes += choice_notes(d.presumed_unlicensed)
    return Decision(UntaggedAnswer(True, missing, term, presumed, exempt), tuple(cites), tuple(notes))


class KennelFacts(Facts):
    dogs_kept: int = Field(ge=0)
    purposes: list[Purpose] = []


@dataclass(frozen=True)
class KennelAnswer:
    defined: bool
    kennel: bool | None = None
    at_least_dogs: int | None = None


@question(
    "kennel_definition",
    facts=KennelFacts,
    value=KennelAnswer,
    doc="Whether an establishment is a 'kennel' as the ordinance defines it: at least the number of dogs "
    "set, kept for show, sale, boarding or breeding.",
)
def kennel_definition(pack, f: KennelFacts, on: date, local) -> Decision:
    d = _defs(pack)
    rule = d.kennel if d else None
    if rule is None:
        return Decision(KennelAnswer(False), (), ("this law does not define kennel",))
    is_kennel = f.dogs_kept >= rule.at_least_dogs and bool(set(f.purposes) & set(rule.purposes))
    return Decision(KennelAnswer(True, is_kennel, rule.at_least_dogs), (rule.cite.citation,), choice_notes(rule))
