"""A jurisdiction's adopted text, section by section as it reads, each paragraph beside what the
pack does with it: the provisions that quote it and the figures they set (dated,
with their citation), the questions that read them, or why it is not encoded; the sections whose
transcription is cut off, and where; the Wisconsin Statutes the text names, linked.

It is `coverage` (the map a test holds complete) read in the text's order, with the paragraphs'
words. A section's anchor is made from its number alone (`§ 98-6` -> `s-98-6`), so a permanent
link holds whatever the pack's values become. Loaded once per pack: packs are immutable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

from pydantic import BaseModel

from .catalogue import QUESTIONS, load_topics
from .coverage import OPENING, coverage
from .packs import Pack, load_pack
from .schema import Cite, Dated, LocalAmount, MonthDay, Period, Provision

# The Legislature's address of a section of the Wisconsin Statutes, as wi.yaml cites s. 990.001(4).
STATUTES = "https://docs.legis.wisconsin.gov/statutes/statutes/"
# "s. 174.05", "§§ 174.05 through 174.10", "Section 95.21(2)", "174.02(3), Wis. Stats.": a dotted
# number is a statute (the ordinances' own sections are "§ 98-6", "7-1-3").
_STATUTE = re.compile(
    r"(?:(?<=§ )|(?<=§§ )|(?<=\bs\. )|(?<=\bss\. )|(?<=Section )|(?<=through )|(?<=and ))"
    r"(\d{2,3})\.(\d{2,4})(?:\s?\((\w{1,4})\))?"
    r"|(\d{2,3})\.(\d{2,4})(?:\s?\((\w{1,4})\))?(?=,? Wis)"
    r"|(?:Chapter|Ch\.) (\d{2,3})(?=,? Wis)"
)
# Provision fields that are its citation or its reading, not a figure it sets.
_NOT_FIGURES = {"cite", "also", "choice", "reading", "unconfirmed", "not_moved"}


@dataclass(frozen=True)
class Link:
    start: int
    end: int
    url: str


@dataclass(frozen=True)
class Figure:
    """One provision as a reader sees it: what it sets, in words, and where the pack cites it."""

    path: str
    sets: tuple[str, ...]
    cites: tuple[tuple[str, str], ...]  # (section, quoted words)
    choice: str
    reading_id: str | None
    local: tuple[str, ...] = ()  # the fee-schedule amounts it leaves to the municipality (`LocalAmount.local`)


@dataclass(frozen=True)
class Paragraph:
    anchor: str
    label: str | None
    words: str
    statutes: tuple[Link, ...]
    provisions: tuple[str, ...]
    questions: tuple[str, ...]
    not_encoded: str | None


@dataclass(frozen=True)
class Section:
    number: str
    anchor: str
    heading: str | None
    paragraphs: tuple[Paragraph, ...]
    provisions: tuple[str, ...]
    questions: tuple[str, ...]
    not_encoded: str | None
    gap: dict | None  # the pack's `text_gaps` entry: where the transcription stops, what is known

    @property
    def kind(self) -> str:
        """The pack section ("licensing", "kennel") most of its provisions are in, for the staff's counts."""
        tops = [p.split(".", 1)[0] for p in self.provisions]
        return max(sorted(set(tops)), key=tops.count) if tops else ""

    @property
    def heading_lost(self) -> bool:
        return not self.paragraphs


@dataclass(frozen=True)
class Annotated:
    jurisdiction: str
    name: str
    sections: tuple[Section, ...]
    figures: dict[str, Figure]
    questions: dict[str, str]  # name -> the first sentence of its description

    def section(self, anchor: str) -> Section | None:
        return next((s for s in self.sections if s.anchor == anchor), None)


def anchor(section: str) -> str:
    """A section's permanent fragment id, from its number only: `§ 115-3B(4)` -> `s-115-3b-4`."""
    if section == OPENING:
        return "s-opening"
    return "s-" + (re.sub(r"[^0-9a-z]+", "-", section.lower()).strip("-") or "x")


def statute_url(chapter: str, section: str | None = None, sub: str | None = None) -> str:
    return STATUTES + "/".join(p for p in (chapter, section, sub) if p)


def statutes(words: str) -> tuple[Link, ...]:
    """The Wisconsin Statutes `words` names, each with its address on docs.legis.wisconsin.gov."""
    links = []
    for m in _STATUTE.finditer(words):
        g = m.groups()
        if g[0]:
            url = statute_url(g[0], g[1], g[2])
        elif g[3]:
            url = statute_url(g[3], g[4], g[5])
        else:
            url = statute_url(g[6])
        links.append(Link(m.start(), m.end(), url))
    return tuple(links)


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, date):
        return f"{value:%B} {value.day}, {value.year}"
    if isinstance(value, LocalAmount):
        said = f"the amount the municipality's fee schedule sets ({value.local.replace('_', ' ').replace('.', ', ')})"
        until = {
            "state_minimum": ", the state minimum until one is set",
            "state_amount": ", the state's until one is set",
        }
        return said + until.get(value.until_set, "")
    if isinstance(value, Period):
        n, unit = next(
            (n, u) for n, u in ((value.days, "day"), (value.months, "month"), (value.years, "year")) if n is not None
        )
        return f"{n} {unit}{'' if n == 1 else 's'}"
    if isinstance(value, MonthDay):
        return f"{date(2001, value.month, value.day):%B} {value.day}"
    if isinstance(value, Dated):
        return "; ".join(
            f"{_words(v) if v is not None else 'ended'} from {_words(d)}"
            for d, v in zip(value.starts, value.values, strict=True)
        )
    if isinstance(value, BaseModel):
        keys = [
            k for k in type(value).model_fields if k not in _NOT_FIGURES and getattr(value, k) not in (None, [], {})
        ]
        said = [(k, _words(getattr(value, k))) for k in keys]
        return ", ".join(
            f"{k.replace('_', ' ')}: {w}" if w not in ("", "yes") else k.replace("_", " ") for k, w in said
        )
    if isinstance(value, Cite):
        return ""
    if isinstance(value, dict):
        said = [(str(k).replace("_", " "), _words(v)) for k, v in value.items()]
        return ", ".join(f"{k}: {w}" if w else k for k, w in said)
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value)
    if hasattr(value, "quantize"):  # Decimal money
        return f"${value:,.2f}"
    return str(value).replace("_", " ")


def _figures(value: Any) -> list[Provision]:
    """The provisions under a pack key: one, or a list of them (`free_license`), or a mapping."""
    if isinstance(value, Provision):
        return [value]
    if isinstance(value, (list, tuple)):
        return [p for v in value for p in _figures(v)]
    if isinstance(value, dict):
        return [p for v in value.values() for p in _figures(v)]
    return []


def figure(pack: Pack, path: str) -> Figure:
    top, key = path.split(".", 1)
    value = getattr(pack.sections[top], key)
    provisions = _figures(value)
    sets, cites, choice, rid = [], [], "", None
    for p in provisions:
        for name in type(p).model_fields:
            if name not in _NOT_FIGURES and getattr(p, name) not in (None, [], {}):
                sets.append(f"{name.replace('_', ' ')}: {_words(getattr(p, name))}")
        cites += [(c.section, c.quote) for c in (p.cite, *p.also)]
        if p.choice and not choice:
            choice = p.choice
            rid = p.reading.id if p.reading and p.reading.id else path
    if not provisions:  # a section model whose fields carry the citations themselves
        sets.append(_words(value))
        cites += [(c.section, c.quote) for c in _cites(value)]
    return Figure(path, tuple(sets), tuple(dict.fromkeys(cites)), choice, rid, tuple(dict.fromkeys(_local(value))))


def _local(value: Any) -> list[str]:
    if isinstance(value, LocalAmount):
        return [value.local]
    if isinstance(value, BaseModel):
        return [k for f in type(value).model_fields for k in _local(getattr(value, f))]
    if isinstance(value, (list, tuple)):
        return [k for v in value for k in _local(v)]
    if isinstance(value, dict):
        return [k for v in value.values() for k in _local(v)]
    return []


def _cites(value: Any) -> list[Cite]:
    if isinstance(value, Cite):
        return [value]
    if isinstance(value, BaseModel):
        return [c for k in type(value).model_fields for c in _cites(getattr(value, k))]
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _cites(v)]
    if isinstance(value, dict):
        return [c for v in value.values() for c in _cites(v)]
    return []


def _first_sentence(doc: str) -> str:
    doc = " ".join(doc.split())
    return re.split(r"(?<=\.)\s", doc, maxsplit=1)[0]


@cache
def annotated(pack_id: str) -> Annotated:
    pack = load_pack(pack_id)
    load_topics()
    cov = coverage(pack_id)
    gaps = {g["section"]: g for g in cov["cut_off"]}
    rows = sorted(cov["sections"], key=lambda r: (r["at"] is None, r["at"] or 0))
    sections, paths, seen = [], set(), set()
    for r in rows:
        a = anchor(r["section"])
        if a in seen:  # two numbers that read the same once made an id: the later keeps its order
            a = f"{a}-{len(seen)}"
        seen.add(a)
        paragraphs = tuple(
            Paragraph(
                anchor=f"{a}-p{i}",
                label=p["label"],
                words=p["words"],
                statutes=statutes(p["words"]),
                provisions=tuple(p["provisions"]),
                questions=tuple(p["questions"]),
                not_encoded=p["not_encoded"],
            )
            for i, p in enumerate(r["subsections"], start=1)
        )
        # the text before the first heading: coverage credits it with every provision; it holds its own
        own = (
            tuple(r["provisions"])
            if r["section"] != OPENING
            else tuple(sorted({x for p in paragraphs for x in p.provisions}))
        )
        paths |= set(own)
        sections.append(
            Section(
                number=r["section"],
                anchor=a,
                heading=r["heading"],
                paragraphs=paragraphs,
                provisions=own,
                questions=tuple(r["questions"])
                if r["section"] != OPENING
                else tuple(sorted({q for p in paragraphs for q in p.questions})),
                not_encoded=r["not_encoded"],
                gap=gaps.get(r["section"]),
            )
        )
    names = {q for s in sections for q in s.questions}
    return Annotated(
        jurisdiction=pack.id,
        name=pack.name,
        sections=tuple(sections),
        figures={p: figure(pack, p) for p in sorted(paths)},
        questions={n: _first_sentence(QUESTIONS[n].doc) for n in sorted(names) if n in QUESTIONS},
    )
