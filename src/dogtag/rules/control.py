"""At large and under control: when a dog off its owner's premises is "at large" (Benton § 115-5C,
Webster § 98-6, Cedarburg § 7-1-6(c)(1), River Hills § 2.14(1)[c], Sampson Sections 4F and 6;
s. 174.042's supervised hunting or training dog)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

from pydantic import Field

from .catalogue import Facts, question
from .decision import Decision
from .schema import Measure, Provision, Strict, section
from .spans import choice_notes


class AtLarge(Provision):
    """Off the owner's premises a dog is not at large when it is on a leash held as the ordinance
    says (`leash`: no longer than `leash_max_ft`, held by a person at least `holder_min_age` and able
    to control it), or, where the ordinance says "control" (`control`), under anyone's control."""

    kept_by: Literal["leash", "control"]
    leash_max_ft: int | None = None
    holder_min_age: int | None = None
    in_vehicle: bool = False


ExemptionName = Literal["hunting_or_training", "law_enforcement"]


class Exemption(Provision):
    """`reaches_local`: a state exemption (s. 174.042(1)(b)) also narrows the ordinance's own "at
    large" (a reading: the other holds it to the state offense)."""

    exemption: ExemptionName
    reaches_local: bool = True


class AtLargePlaces(Provision):
    """Where the ordinance's "at large" lies off the owner's premises only on public places or on
    private property "without the permission of the owner of the property" (Cedarburg
    § 7-1-6(c)(1)): a dog on private property with that permission is not at large."""


class InVehicle(Provision):
    """A dog confined within a vehicle off its owner's premises, where the ordinance's "at large"
    does not name vehicles (Benton § 115-5C, Sampson Section 4F): `at_large` is the reading's
    answer; where it is at large, the leash or control rules decide as for any dog."""

    at_large: bool


@section("control")
class ControlSection(Strict):
    at_large: AtLarge | None = None
    at_large_places: AtLargePlaces | None = None
    at_large_exemptions: list[Exemption] = []
    in_vehicle: InVehicle | None = None


class AtLargeFacts(Facts):
    off_owner_premises: bool
    on_leash: bool = False
    leash_ft: Measure | None = None  # feet, as measured ("6.5")
    on_private_property_with_permission: bool = False  # of the property's owner
    holder_age: int | None = Field(default=None, ge=0)
    holder_able_to_control: bool = True
    under_control: bool = False  # by a person, without a leash (voice, hand)
    in_vehicle: bool = False  # confined within a vehicle: inside it, or restrained so it cannot leave it
    hunting_or_training_supervised: bool = False
    on_land_open_to_hunting_or_permitted: bool = False  # or on which the person may hunt or train
    law_enforcement_dog: bool = False


@dataclass(frozen=True)
class AtLargeAnswer:
    """`applies`: the law defines at large; `at_large` the answer (None where it does not), with its
    `reason` in words, and the `exemption` that took the dog out of it, if one did."""

    applies: bool
    at_large: bool | None = None
    reason: str | None = None
    exemption: ExemptionName | None = None


@question(
    "at_large",
    facts=AtLargeFacts,
    value=AtLargeAnswer,
    doc="Whether a dog is at large: off its owner's premises and not on a leash held as the ordinance "
    "requires (length, holder's age and ability) or not under control, unless exempt (a supervised "
    "hunting or training dog, a law-enforcement dog).",
)
def at_large(pack, f: AtLargeFacts, on: date, local) -> Decision:
    s: ControlSection | None = pack.control
    rule = s.at_large if s is not None else None
    if rule is None:
        return Decision(AtLargeAnswer(applies=False), (), ("this law does not define at large",))
    cites, notes = list(rule.citations()), list(choice_notes(rule))

    def answer(at: bool, reason: str, exemption: ExemptionName | None = None) -> Decision:
        return Decision(AtLargeAnswer(True, at, reason, exemption), tuple(cites), tuple(notes))

    if not f.off_owner_premises:
        return answer(False, "on the owner's premises")
    if s.at_large_places is not None:
        # the definition's own words decide whether the dog is at large at all (Cedarburg
        # § 7-1-6(c)(1)): cited with every answer off the owner's premises
        cites.insert(0, s.at_large_places.cite.citation)
        notes.extend(choice_notes(s.at_large_places))
        if f.on_private_property_with_permission:
            return answer(False, "on private property with the permission of the owner of the property")
    # s. 174.042(1)(b), Sampson Section 6A: supervised, and "on land that is open to hunting or on
    # land on which the person has obtained permission to hunt or to train a dog".
    hunting = f.hunting_or_training_supervised and f.on_land_open_to_hunting_or_permitted
    for ex in s.at_large_exemptions:
        if ex.exemption == "hunting_or_training" and hunting and not ex.reaches_local:
            cites.append(ex.cite.citation)
            notes.append(f"{ex.cite.section} does not reach this ordinance's 'at large': {ex.choice}")
            continue
        if (ex.exemption == "hunting_or_training" and hunting) or (
            ex.exemption == "law_enforcement" and f.law_enforcement_dog
        ):
            cites.append(ex.cite.citation)
            return answer(False, f"exempt: {ex.exemption.replace('_', ' ')}", ex.exemption)
    if rule.in_vehicle and f.in_vehicle:
        return answer(False, "properly restrained within a motor vehicle")
    if s.in_vehicle is not None and f.in_vehicle:
        cites.extend(s.in_vehicle.citations())
        notes.extend(choice_notes(s.in_vehicle))
        if not s.in_vehicle.at_large:
            return answer(False, "confined within a vehicle")
    if rule.kept_by == "control" and (f.under_control or (f.on_leash and f.holder_able_to_control)):
        return answer(False, "within the control of a person")
    if not f.on_leash:
        return answer(
            True,
            "off the owner's premises and not on a leash"
            if rule.kept_by == "leash"
            else "off the owner's premises and not within anyone's control",
        )
    if rule.leash_max_ft is not None and (f.leash_ft is None or f.leash_ft > rule.leash_max_ft):
        return answer(True, f"the leash is not shown to be {rule.leash_max_ft} feet or shorter")
    if rule.holder_min_age is not None and (f.holder_age is None or f.holder_age < rule.holder_min_age):
        return answer(True, f"the leash is not held by a person at least {rule.holder_min_age} years of age")
    if not f.holder_able_to_control:
        return answer(True, "the person holding the leash cannot control the dog")
    return answer(False, "on a leash held as the ordinance requires")
