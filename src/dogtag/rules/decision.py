"""What the engine answers: a value, the law that produced it, and what nobody has set yet.

A `Decision` is frozen and JSON-ready (`to_json`): money as "10.00", dates as ISO strings, so the
clerk's screen, the API and `dogtag rules ask` show the same figures with the same "why".
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

CENT = Decimal("0.01")
ZERO = Decimal("0.00")  # money, to the cent


@dataclass(frozen=True, slots=True)
class Citation:
    """A section and the words quoted from it. `unconfirmed` says why the figure the provision
    sets is not confirmed by the text held (wi.yaml's state figures); `inferred` says how a
    section number the transcription lost was restored. Both reach the screen beside the quote."""

    jurisdiction: str
    section: str
    quote: str
    unconfirmed: str | None = None
    inferred: str | None = None
    # A reading the provision picked where the text allows another (`choice`): `reading_status`
    # "pending" until the municipality rules, "ruled" with `ruled_by`; `other_reading` is the
    # other reading and what it would change.
    reading: str | None = None
    reading_status: str | None = None
    ruled_by: str | None = None
    other_reading: str | None = None
    # The section's adopted text is cut off or missing here: what staff are told (`text_gaps`).
    incomplete: str | None = None
    # The instrument that amended the provision, where an adopted amendment set it ("Board
    # resolution 2027-4 of March 1, 2027"): the source of the figure beside the section it amends.
    amended_by: str | None = None

    @property
    def pending(self) -> bool:
        return self.reading_status == "pending"


PENDING_LABEL = "Dogtag's reading — awaiting your attorney's ruling"


@dataclass(frozen=True, slots=True)
class NotSet:
    """A local amount the decision needed that nobody has set (key as the pack declares it)."""

    key: str
    citation: Citation


@dataclass(frozen=True, slots=True)
class Decision:
    value: Any
    citations: tuple[Citation, ...]
    notes: tuple[str, ...] = ()
    not_set: tuple[NotSet, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "value": to_json(self.value),
            "citations": [to_json(c) for c in self.citations],
            "notes": list(self.notes),
            "not_set": [to_json(n) for n in self.not_set],
            "unconfirmed": self.unconfirmed(),
            "status": self.status,
            "text_incomplete": self.text_incomplete(),
            "readings": self.readings(),
        }

    @property
    def status(self) -> str:
        """`text_incomplete` where the answer rests on a section whose adopted text Dogtag lacks."""
        return "text_incomplete" if any(c.incomplete for c in self.citations) else "answered"

    def text_incomplete(self) -> list[str]:
        """What staff are told of each cut-off or missing section the answer rests on."""
        return list(dict.fromkeys(c.incomplete for c in self.citations if c.incomplete))

    def readings(self) -> list[dict[str, Any]]:
        """Each reading of contestable text the answer used: pending (Dogtag's default, with the
        other reading and what it would change) or ruled (by whom)."""
        out: dict[str, dict[str, Any]] = {}
        for c in self.citations:
            if c.reading_status and c.reading not in out:
                row = {"section": c.section, "reading": c.reading, "status": c.reading_status}
                if c.pending:
                    row["label"] = PENDING_LABEL
                if c.other_reading:
                    row["other_reading"] = c.other_reading
                if c.ruled_by:
                    row["ruled_by"] = c.ruled_by
                out[c.reading] = row
        return list(out.values())

    def unconfirmed(self) -> list[str]:
        """Every figure the decision used that the text held does not confirm, with why."""
        return [f"{c.section}: {c.unconfirmed}" for c in self.citations if c.unconfirmed]


def citations_json(citations) -> list[dict[str, str]]:
    """The one way a citation becomes data (kept on a record, sent by the API): section, quote,
    jurisdiction, and why it is unconfirmed or inferred when it is."""
    return [to_json(c) for c in citations]


def to_json(value: Any) -> Any:
    """Plain JSON data for a decision value: Decimal -> "10.00", date -> ISO, dataclasses -> dicts."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Decimal):
        return str(value.quantize(CENT))
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Citation):
        out = {"jurisdiction": value.jurisdiction, "section": value.section, "quote": value.quote}
        if value.unconfirmed:
            out["unconfirmed"] = value.unconfirmed
        if value.inferred:
            out["inferred"] = value.inferred
        for key in ("reading", "reading_status", "ruled_by", "other_reading", "incomplete", "amended_by"):
            if getattr(value, key):
                out[key] = getattr(value, key)
        return out
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(to_json(k)): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json(v) for v in value]
    if hasattr(value, "model_dump"):
        return to_json(value.model_dump())
    if isinstance(value, float):
        raise TypeError("a decision never carries a float; use Decimal for money")
    raise TypeError(f"cannot express {type(value).__name__} as JSON")
