"""The building blocks of a rule pack, and the registry of its top-level sections.

A topic module declares the pydantic model of its section and registers it::

    @section("licensing")
    class LicensingSection(Strict):
        late_fee: LateFee | None = None

Every provision is a `Provision` (it carries `cite: {section, quote}`, and optionally
`choice:`, the reading picked where the text is ambiguous, with `alternative: {reading,
would_change}` where the text allows two, and `unconfirmed:`, why a state
figure is not confirmed by the text we have). Building blocks:

- `Dated[T]`: values keyed by effective date, `{2000-01-01: "5.00", 2023-06-01: "10.00"}`;
  `null` ends a value (OpenFisca style). `.at(on)` gives the value in force or None.
- `Amount`: either `Dated[Money]` or `{local: <key>}`, an amount the ordinance delegates to a
  fee schedule or board; the clerk sets it (`local_amounts` input) and until then the engine
  answers not_set with the section, never a guess.
- `Period`: `{days: 30}`, `{months: 5}` or `{years: 2}`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from types import MappingProxyType
from typing import Annotated, Any, Generic, Literal, TypeVar, get_args

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, model_validator
from pydantic_core import core_schema

from .decision import Citation

T = TypeVar("T")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)


def _no_float(value: Any) -> Any:
    if isinstance(value, float):
        raise ValueError(f'write money as a quoted string ("{value:.2f}"), never a float')
    return value


Money = Annotated[Decimal, BeforeValidator(_no_float)]


def _not_negative(value: Decimal) -> Decimal:
    if value < 0:
        raise ValueError("a measurement is not negative")
    return value


def _measure_not_float(value: Any) -> Any:
    if isinstance(value, float):
        raise ValueError(
            f'a length in feet or inches may be decimal: write it as a quoted string ("{value!r}"), '
            "not a JSON number, which is read as a float"
        )
    return value


# Feet, inches: a fact measured by the officer ("4.5"), never negative. (Not `Field(ge=0)`: pydantic
# writes that bound into the JSON Schema as a float, and a schema carries no float.)
Measure = Annotated[Decimal, BeforeValidator(_measure_not_float), AfterValidator(_not_negative)]


class _CiteFields(Strict):
    section: str
    quote: str


class Cite:
    """`cite: {section, quote}`; the loader binds it to the pack that declares it.

    A plain slotted object rather than a pydantic model, so reading `.citation` on the hot path
    costs one attribute lookup.
    """

    __slots__ = ("section", "quote", "citation")

    def __init__(self, section: str, quote: str):
        self.section, self.quote = section, quote
        self.citation = Citation("", section, quote)

    def bind(
        self,
        jurisdiction: str,
        unconfirmed: str | None = None,
        inferred: str | None = None,
        reading: str | None = None,
        reading_status: str | None = None,
        ruled_by: str | None = None,
        other_reading: str | None = None,
        amended_by: str | None = None,
    ) -> None:
        self.citation = Citation(
            jurisdiction,
            self.section,
            self.quote,
            unconfirmed,
            inferred,
            reading,
            reading_status,
            ruled_by,
            other_reading,
            amended_by=amended_by,
        )

    def __repr__(self) -> str:
        return f"Cite(section={self.section!r}, quote={self.quote!r})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> core_schema.CoreSchema:
        from_fields = core_schema.no_info_after_validator_function(
            lambda fields: cls(fields.section, fields.quote), handler.generate_schema(_CiteFields)
        )
        return core_schema.union_schema([core_schema.is_instance_schema(cls), from_fields], mode="left_to_right")


class Ruled(Strict):
    """A municipality's ruling on a reading: by a Board resolution or an attorney's opinion, its
    number and the day it takes effect; `reading` is the one it adopts (Dogtag's `choice`, or the
    `other`). Answers for days before `on` keep the reading in force then."""

    by: Literal["board_resolution", "attorney_opinion"]
    number: str
    on: date
    reading: Literal["choice", "other"] = "choice"

    def describe(self) -> str:
        who = "Board resolution" if self.by == "board_resolution" else "attorney's opinion"
        return f"{who} {self.number} of {self.on:%B} {self.on.day}, {self.on.year}"


class Example(Strict):
    """A question asked on both readings, so the administrator sees both answers before ruling.
    `amounts`: the fee-schedule figures the example assumes (local amount key -> effective date ->
    amount), used in place of the municipality's own for those keys, so an example whose readings
    differ only on a local figure shows the difference before the clerk has entered one;
    `assumes`: other readings (id -> the one adopted) taken as ruled for both answers, where this
    reading changes an answer only together with another (Cedarburg § 7-1-25(c) with (b)(1))."""

    question: str
    on: date
    facts: dict[str, Any] = {}
    amounts: dict[str, dict[date, Money]] = {}
    assumes: dict[str, Literal["choice", "other"]] = {}


class OtherReading(Strict):
    """The other reading the text allows: in words, what it would change, and the provision's
    fields under it (`set`, merged over the provision when it is ruled)."""

    choice: str
    changes: str
    set: dict[str, Any] = {}


class Reading(Strict):
    """How a `choice` waits for a ruling: `id` names it for rulings (default: the provision's key
    path), `other` the other reading, `ruled` the rulings the pack itself records. `further`: the
    readings the text allows beyond those two, each shown beside the other with what it would
    change (and, in a forfeiture, the price its `set` gives, quoted from its `set.cite`, whose
    words are the pack's text or a text it inherits). A ruling adopts `choice` or `other`; a
    further reading is adopted by amending the pack."""

    id: str | None = None
    other: OtherReading | None = None
    further: list[OtherReading] = []
    example: Example | None = None
    ruled: list[Ruled] = []

    @model_validator(mode="after")
    def _further_after_other(self) -> Reading:
        if self.further and self.other is None:
            raise ValueError("a further reading comes after the other reading (`other`)")
        return self


class Provision(Strict):
    """`also`: the other subsections whose words the provision encodes (cited beside `cite`);
    `choice`: the reading picked where the text is ambiguous, pending until ruled (`reading`, with
    the other reading the text allows); `not_moved`: why a period this provision sets keeps a last
    day that falls on a Sunday or legal holiday instead of moving it under s. 990.001(4)(b)
    (`rules.time`), a reading awaiting a ruling."""

    cite: Cite
    also: list[Cite] = []
    choice: str | None = None
    reading: Reading | None = None
    unconfirmed: str | None = None
    not_moved: str | None = None

    @model_validator(mode="after")
    def _reading_needs_choice(self) -> Provision:
        if self.reading is not None and not self.choice:
            raise ValueError("a reading (other, ruled) belongs to a provision's `choice`")
        return self

    def citations(self) -> tuple[Citation, ...]:
        return (self.cite.citation, *(c.citation for c in self.also))


class Dated(Generic[T]):
    """Values keyed by effective date; None ends the value."""

    __slots__ = ("starts", "values")

    def __init__(self, items: dict[date, Any]):
        pairs = sorted(items.items())
        self.starts = [d for d, _ in pairs]
        self.values = [v for _, v in pairs]

    def at(self, on: date) -> Any:
        i = bisect_right(self.starts, on) - 1
        return None if i < 0 else self.values[i]

    def __repr__(self) -> str:
        return f"Dated({dict(zip(self.starts, self.values, strict=True))!r})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> core_schema.CoreSchema:
        args = get_args(source)
        item = args[0] if args else Any
        mapping = handler.generate_schema(dict[date, item | None])  # type: ignore[valid-type]

        def build(items: dict[date, Any]) -> Dated[Any]:
            if not items:
                raise ValueError("a dated value needs at least one effective date")
            return cls(items)

        return core_schema.no_info_after_validator_function(build, mapping)


class LocalAmount(Strict):
    """An amount the clerk sets in the fee schedule. `until_set: state_minimum`: where the
    ordinance adopts the statute and may, but need not, set more (s. 174.05(3)), the state
    minimum is the amount until the clerk enters one; `until_set: state_amount`: where the
    statute the ordinance adopts fixes the figure itself (s. 174.05(5)'s late fee), the state's
    figure is the amount until the clerk enters one."""

    local: str
    until_set: Literal["state_minimum", "state_amount"] | None = None


Amount = Dated[Money] | LocalAmount


class Period(Strict):
    days: int | None = None
    months: int | None = None
    years: int | None = None

    @model_validator(mode="after")
    def _one_unit(self) -> Period:
        given = [n for n in (self.days, self.months, self.years) if n is not None]
        if len(given) != 1 or given[0] < 0:
            raise ValueError("a period is exactly one of days, months or years, not negative")
        return self


class MonthDay(Strict):
    """A day of the year such as April 1: `{month: 4, day: 1}`."""

    month: int
    day: int

    def of(self, year: int) -> date:
        return date(year, self.month, self.day)


_SECTIONS: dict[str, type[BaseModel]] = {}
SECTIONS: Mapping[str, type[BaseModel]] = MappingProxyType(_SECTIONS)  # read-only; filled by topic modules
_sealed = False


def register_section(name: str, model: type[BaseModel]) -> type[BaseModel]:
    if _SECTIONS.get(name, model) is not model:
        raise ValueError(f"pack section {name!r} is registered twice")
    if _sealed and name not in _SECTIONS:
        raise RuntimeError(f"pack section {name!r} registered after the packs' sections were sealed")
    _SECTIONS[name] = model
    return model


def seal_sections() -> None:
    """No new section after the topics are loaded (catalogue.load_topics): packs read SECTIONS."""
    global _sealed
    _sealed = True


def section(name: str):
    """Class decorator: `@section("licensing")` registers a top-level pack section model."""

    def register(model: type[BaseModel]) -> type[BaseModel]:
        return register_section(name, model)

    return register
