"""Loading rule packs: `src/dogtag/law/<id>.yaml`, validated once per process.

A pack has `id`, `name`, `county`, `inherits` (the pack it builds on: `wi` for the
municipalities), `text` (its source text in `law/texts/`), and top-level sections, each
validated by the model a topic module registered (`schema.section`). An unknown top-level
key is an error. Coverage metadata: `headings` (regexes that find the section headings in the
text), `outline` (sections whose number the transcription lost: section + heading words quoted
from the text) and `not_encoded` (sections deliberately left out, with the reason).

Inheritance works provision by provision: a municipal section's provisions replace the
inherited ones of the same name; `name: null` says a state provision does not apply locally.
Every `cite.quote` is checked against the text of the pack that declares it (case, whitespace,
curly quotes and dashes normalised). Errors name the file, the key path and the reason.

A pack is loaded once per process under the catalogue's lock (a thread never sees one half
built) and is read-only afterwards: its attributes cannot be reassigned and its mappings are
`MappingProxyType` views.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ValidationError, model_validator

from .catalogue import LOCK, QUESTIONS, load_topics
from .decision import Citation
from .schema import SECTIONS, Cite, Dated, Provision, Ruled, Strict
from .state_limits import state_limit_errors

LAW = Path(__file__).resolve().parent.parent / "law"
TEXTS = LAW / "texts"
# More law folders (os.pathsep-separated), each laid out like `law/`: `<id>.yaml` and `texts/`.
EXTRA_LAW_ENV = "DOGTAG_EXTRA_LAW"
META_KEYS = (
    "id",
    "name",
    "county",
    "inherits",
    "text",
    "headings",
    "outline",
    "not_encoded",
    "inferred_numbers",
    "paragraphs",
    "text_gaps",
)


class PackError(ValueError):
    """A pack that does not validate. `file`, `path`, `reason`: the first error; `errors`: every
    error found (file, path, reason), so an author fixes them in one pass."""

    def __init__(self, file: str, path: str, reason: str, more: Iterable[tuple[str, str, str]] = ()):
        self.file, self.path, self.reason = file, path, reason
        self.errors = [(file, path, reason), *more]
        lines = [f"{f}: {p or '(top)'}: {r}" for f, p, r in self.errors]
        super().__init__(lines[0] if len(lines) == 1 else f"{len(lines)} errors:\n" + "\n".join(lines))


class Heading(Strict):
    """A regex over the text; `section` is a template filled from its groups ({1}) or count ({n})."""

    pattern: str
    section: str
    title_group: int = 2


class OutlineEntry(Strict):
    section: str
    heading: str
    note: str | None = None


class NotEncoded(Strict):
    """A part of the text deliberately not encoded, with the reason. Without `anchors` it covers
    every paragraph of `section` no provision encodes; with them, only the paragraphs containing
    one of the quoted words."""

    section: str
    reason: str
    anchors: list[str] = []


class Paragraphs(Strict):
    """How the text divides into paragraphs (subsections) for `law coverage`: `starts` is a regex
    (multiline) at which a new paragraph begins besides a blank line; `join` is a regex replaced by
    a space first (page breaks, a transcription's page numbers)."""

    starts: str | None = None
    join: str | None = None


class InferredNumber(Strict):
    """A section number the transcription lost, restored by inference: every citation of the
    section (or of its subsections) carries `note` to the screen."""

    section: str
    note: str


class TextGap(Strict):
    """A section whose adopted text the transcription cuts off (`text: incomplete`, stopping after
    `stops_after`, its last words `last_words` quoted) or lacks altogether (`text: missing`).
    `known`: what is known of it up to the cut (or from elsewhere); `questions`: those whose
    answer depends on it, which answer status text_incomplete naming it. `full_text_from`: the day
    from which a pack update carries the full adopted text (answers from then on no longer cite
    the gap). `when_facts`: a question that takes such a fact answers about more than this section
    (the forfeiture of any violation): it depends on the gap only where the fact names the section
    or one of its subdivisions (`{violation: ["7-1-26"]}`: "7-1-26", "7-1-26(d)"); questions that do
    not take the fact depend on the gap always. `when_cited`: the gap binds a listed question only
    where its answer cites the section (a penalty section that prices the ordinance's violations,
    not the statute's)."""

    section: str
    text: Literal["incomplete", "missing"]
    stops_after: str | None = None
    last_words: str | None = None
    known: str
    questions: list[str] = []
    when_facts: dict[str, list[str]] = {}
    full_text_from: date | None = None
    when_cited: bool = False

    def reached_by(self, facts: Any) -> bool:
        """Whether the facts of a question bring it to this section (always, with no `when_facts`)."""
        taken = {k: names for k, names in self.when_facts.items() if facts is not None and hasattr(facts, k)}
        if not taken:
            return True
        for key, names in taken.items():
            value = getattr(facts, key)
            if isinstance(value, str) and any(re.match(rf"{re.escape(n)}(?![\w-])", value.strip()) for n in names):
                return True
        return False

    @model_validator(mode="after")
    def _where_it_stops(self) -> TextGap:
        if self.text == "incomplete" and not (self.stops_after and self.last_words):
            raise ValueError("an incomplete text says where it stops: stops_after and last_words")
        return self

    def message(self) -> str:
        where = f" after {self.stops_after}" if self.text == "incomplete" else ""
        return f"the adopted text of {self.section}{where} is not in Dogtag: ask the clerk for it"

    def in_force(self, on: date) -> bool:
        return self.full_text_from is None or on < self.full_text_from

    def citation(self, jurisdiction: str) -> Citation:
        quote = self.last_words or ""
        return Citation(jurisdiction, self.section, quote, incomplete=f"{self.message()} (known: {self.known})")


class _Meta(Strict):
    id: str
    name: str
    county: str | None = None
    inherits: str | None = None
    text: str
    headings: list[Heading] = []
    outline: list[OutlineEntry] = []
    not_encoded: list[NotEncoded] = []
    inferred_numbers: list[InferredNumber] = []
    paragraphs: Paragraphs = Paragraphs()
    text_gaps: list[TextGap] = []


# libyaml's parser where it is installed (the packs are read at every process start), else PyYAML's own.
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _UniqueKeyLoader(_SafeLoader):
    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


# YAML 1.2 booleans only: `on:` (a case's date) and `no`/`yes` stay strings.
_UniqueKeyLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_UniqueKeyLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def read_yaml(path: Path) -> Any:
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)
    except yaml.YAMLError as exc:
        raise PackError(path.name, "", str(exc).replace("\n", " ")) from None


_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " "})


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text.translate(_QUOTES)).strip().lower()


class Pack:
    """A validated, inheritance-resolved pack. Section models are attributes: `pack.licensing`."""

    def __init__(
        self,
        meta: _Meta,
        file: str,
        text: str,
        chain: tuple[str, ...],
        raw_sections: dict[str, dict],
        origins: dict[tuple[str, str], str],
        sections: dict[str, BaseModel],
    ):
        fields = {
            "id": meta.id,
            "name": meta.name,
            "county": meta.county,
            "inherits": meta.inherits,
            "meta": meta,
            "file": file,
            "text": text,
            "chain": chain,
            "raw_sections": MappingProxyType(raw_sections),
            "origins": MappingProxyType(origins),
            "sections": MappingProxyType(sections),
        }
        # plain attributes: `pack.licensing` is one dict lookup
        fields.update({name: sections.get(name) for name in SECTIONS})
        self.__dict__.update(fields)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{self.id}: a loaded rule pack is read-only (tried to set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{self.id}: a loaded rule pack is read-only (tried to delete {name!r})")

    def provisions(self) -> Iterator[tuple[str, str, list[Cite]]]:
        """Every provision in force here: (key path, declaring pack id, its citations)."""
        for name, model in self.sections.items():
            for key in type(model).model_fields:
                value = getattr(model, key)
                if value is not None and (name, key) in self.origins:
                    yield f"{name}.{key}", self.origins[(name, key)], list(_cites(value))

    def readings(self) -> Iterator[tuple[str, str, Provision]]:
        """Every provision in force here that makes a `choice`: (reading id, declaring pack, it)."""
        seen = set()
        for name, model in self.sections.items():
            for key in type(model).model_fields:
                origin = self.origins.get((name, key))
                if origin is None:
                    continue
                for _, _, provision, at in _cites_with_flags(getattr(model, key), None, None, f"{name}.{key}"):
                    if provision is not None and id(provision) not in seen:
                        seen.add(id(provision))
                        yield reading_id(provision, at), origin, provision

    def recorded_rulings(self) -> list[tuple[str, Ruled]]:
        """The rulings the pack itself records on its readings (reading id, ruling)."""
        return [(rid, r) for rid, _, p in self.readings() if p.reading for r in p.reading.ruled]

    def text_gaps(
        self, question: str, on: date, facts: Any = None, cited: Collection[str] | None = None
    ) -> list[Citation]:
        """The cut-off or missing sections `question` (with `facts`) depends on here on `on`, as
        citations; a gap `when_cited` only where `cited` (the answer's sections) names it."""
        return [
            gap.citation(pid)
            for pid in self.chain
            for gap in self.metas[pid].text_gaps
            if question in gap.questions
            and gap.in_force(on)
            and gap.reached_by(facts)
            and (not gap.when_cited or cited is None or gap.section in cited)
        ]

    def __repr__(self) -> str:
        return f"<Pack {self.id}>"


def _cites(value: Any) -> Iterator[Cite]:
    for cite, _, _, _ in _cites_with_flags(value, None):
        yield cite


def _cites_with_flags(
    value: Any, unconfirmed: str | None, provision: Provision | None = None, path: str = "", at: str = ""
) -> Iterator[tuple[Cite, str | None, Provision | None, str]]:
    """Every Cite under `value` (whose key path is `path`), with the `unconfirmed:` of the nearest
    provision declaring one, and the nearest provision making a `choice` with its key path `at`."""
    if isinstance(value, Cite):
        yield value, unconfirmed, provision, at
    elif isinstance(value, BaseModel):
        own = getattr(value, "unconfirmed", None)
        flag = own if isinstance(own, str) else unconfirmed
        if isinstance(value, Provision) and value.choice:
            provision, at = value, path
        for key in type(value).model_fields:
            yield from _cites_with_flags(getattr(value, key), flag, provision, f"{path}.{key}", at)
    elif isinstance(value, Dated):
        for start, v in zip(value.starts, value.values, strict=True):
            yield from _cites_with_flags(v, unconfirmed, provision, f"{path}.{start.isoformat()}", at)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _cites_with_flags(v, unconfirmed, provision, f"{path}.{k}", at)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _cites_with_flags(v, unconfirmed, provision, f"{path}.{i}", at)


def _further_readings(sections: dict, origins: dict, pack_id: str) -> Iterator[tuple[str, Any]]:
    """(key path, further reading) of each provision this pack declares with further readings."""
    seen: set[int] = set()
    for name, model in sections.items():
        for key in type(model).model_fields:
            if origins.get((name, key)) != pack_id:
                continue
            for _, _, provision, at in _cites_with_flags(getattr(model, key), None, None, f"{name}.{key}"):
                if provision is not None and provision.reading is not None and id(provision) not in seen:
                    seen.add(id(provision))
                    for i, further in enumerate(provision.reading.further):
                        yield f"{at}.reading.further.{i}", further


def text_of_quote(pack: Pack, quote: str) -> str:
    """The pack in `pack`'s chain whose text holds `quote` (its own first), else the pack's id."""
    words = normalise(quote)
    return next((pid for pid in reversed(pack.chain) if words in normalise(load_pack(pid).text)), pack.id)


def reading_id(provision: Provision, path: str) -> str:
    """The name a ruling gives a provision's reading: its own `reading.id`, else its key path."""
    return provision.reading.id if provision.reading and provision.reading.id else path


def within(cited: str, section: str) -> bool:
    """`§ 115-3B(4)` is within `§ 115-3`; `§ 115-30` is not."""
    if not cited.startswith(section):
        return False
    rest = cited[len(section) :]
    return not rest or not (rest[0].isdigit() or (rest[0] == "." and rest[1:2].isdigit()))


def _error_path(err: dict) -> str:
    """The key path of a pydantic error, without the names of union branches and validators."""
    parts = []
    for part in err["loc"]:
        if isinstance(part, str) and ("[" in part or part[:1].isupper()):
            continue
        text = part.isoformat() if hasattr(part, "isoformat") else str(part)
        parts.append(
            re.sub(r"datetime\.date\((\d+), (\d+), (\d+)\)", lambda m: f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d}", text)
        )
    return ".".join(parts)


def law_dirs() -> list[Path]:
    """`law/` and the folders DOGTAG_EXTRA_LAW names: a jurisdiction is a pack file in one."""
    extra = [Path(p) for p in os.environ.get(EXTRA_LAW_ENV, "").split(os.pathsep) if p.strip()]
    return [LAW, *extra]


def _pack_file(pack_id: str) -> Path | None:
    for folder in law_dirs():
        path = folder / f"{pack_id}.yaml"
        if path.exists():
            return path
    return None


_IDS: dict[tuple[Path, ...], tuple[str, ...]] = {}


def pack_ids() -> list[str]:
    """Every jurisdiction in the law folders, each after the pack it inherits from. Read once per
    set of folders: /healthz asks for every pack on each probe."""
    folders = tuple(law_dirs())
    ids = _IDS.get(folders)
    if ids is None:
        ids = _IDS[folders] = tuple(_read_pack_ids(folders))
    return list(ids)


def _read_pack_ids(folders: tuple[Path, ...]) -> list[str]:
    inherits: dict[str, str | None] = {}
    for folder in folders:
        for path in sorted(folder.glob("*.yaml")):
            raw = read_yaml(path)
            if isinstance(raw, dict) and "id" in raw:
                inherits.setdefault(path.stem, raw.get("inherits"))
    ordered: list[str] = []

    def place(pid: str, seen: tuple[str, ...] = ()) -> None:
        if pid in ordered or pid in seen:
            return
        parent = inherits.get(pid)
        if parent in inherits:
            place(parent, seen + (pid,))
        ordered.append(pid)

    for pid in sorted(inherits, key=lambda p: (inherits[p] is not None, p)):
        place(pid)
    return ordered


_PACKS: dict[str, Pack] = {}


def load_pack(pack_id: str) -> Pack:
    pack = _PACKS.get(pack_id)
    if pack is None:
        with LOCK:  # one thread loads; the others wait for the finished pack
            pack = _PACKS.get(pack_id)
            if pack is None:
                load_topics()
                pack = _PACKS[pack_id] = _load(pack_id, ())
    return pack


_RULED: dict[tuple[str, tuple[tuple[str, Ruled], ...]], Pack] = {}


@dataclass(frozen=True)
class Amendment:
    """An amendment of the ordinance as the engine takes it: the instrument that adopts it (`by`,
    e.g. "Board resolution 2027-4 of March 1, 2027"), the day it takes effect (`on`), its words
    (its provisions' quotes are read in them) and its provisions as a pack writes them, in JSON:
    `{"licensing": {"late_fee": {...}}}`. Each provision replaces the pack's own from `on`; the
    amended pack is validated as the pack is (schema, quotes, the state's limits)."""

    by: str
    on: date
    words: str
    provisions: str

    @classmethod
    def of(cls, by: str, on: date, words: str, provisions: dict) -> Amendment:
        return cls(by, on, words, json.dumps(provisions, sort_keys=True, default=str))

    def sections(self) -> dict[str, dict]:
        return json.loads(self.provisions)


_AMENDED: dict[tuple, Pack] = {}


def amended(pack_id: str, amendments: Iterable[Amendment], rulings: dict[str, Ruled] | None = None) -> Pack:
    """The pack with `amendments` in force (in the order of their effective dates, a later one
    over an earlier) and `rulings` overlaid. Raises PackError naming the provision, the reason and
    the section (a state limit: s. 174.05) when the amended pack would not load."""
    amendments = tuple(sorted(amendments, key=lambda a: a.on))
    if not amendments:
        return with_rulings(pack_id, rulings or {})
    key = (pack_id, amendments, tuple(sorted((rulings or {}).items(), key=lambda kv: kv[0])))
    pack = _AMENDED.get(key)
    if pack is None:
        load_pack(pack_id)  # the topics and the parent, outside the lock
        with LOCK:
            pack = _AMENDED.get(key)
            if pack is None:
                pack = _AMENDED[key] = _load(pack_id, (), dict(rulings or {}), amendments)
    return pack


def with_rulings(pack_id: str, rulings: dict[str, Ruled]) -> Pack:
    """The pack with the municipality's rulings in force (reading id -> the ruling) overlaid: a
    reading ruled `other` answers by the other reading's fields; each ruled reading is cited as
    ruled, by whom. Built once per set of rulings."""
    base = load_pack(pack_id)
    if not rulings:
        return base
    key = (pack_id, tuple(sorted(rulings.items(), key=lambda kv: kv[0])))
    pack = _RULED.get(key)
    if pack is None:
        with LOCK:
            pack = _RULED.get(key)
            if pack is None:
                pack = _RULED[key] = _load(pack_id, (), dict(rulings))
    return pack


def rulings_on(pack: Pack, on: date, rulings: Iterable[tuple[str, Ruled]] = ()) -> dict[str, Ruled]:
    """The ruling in force on `on` for each reading: the latest dated on or before `on`, among
    those the pack records and `rulings` (the municipality's, from its database)."""
    known = {rid for rid, _, _ in pack.readings()}
    latest: dict[str, Ruled] = {}
    for rid, ruling in (*pack.recorded_rulings(), *rulings):
        if rid in known and ruling.on <= on and (rid not in latest or ruling.on >= latest[rid].on):
            latest[rid] = ruling
    return latest


def pack_on(pack_id: str, on: date, rulings: Iterable[tuple[str, Ruled] | Amendment] = ()) -> Pack:
    """The pack a question on `on` reads: with the amendments in force that day (an `Amendment`
    among `rulings`, from its effective date) and the rulings in force that day overlaid."""
    base = load_pack(pack_id)
    rulings = list(rulings)
    amendments = [a for a in rulings if isinstance(a, Amendment)]
    if amendments:
        rulings = [r for r in rulings if not isinstance(r, Amendment)]
        return amended(pack_id, [a for a in amendments if a.on <= on], rulings_on(base, on, rulings))
    if not rulings and not base.has_recorded_rulings:
        return base
    return with_rulings(pack_id, rulings_on(base, on, rulings))


def clear_cache() -> None:
    """Forget loaded packs (tests that swap the law folder); never needed while serving."""
    with LOCK:
        _PACKS.clear()
        _IDS.clear()
        _RULED.clear()
        _AMENDED.clear()


def _overlay(raw: Any, path: str, rulings: dict[str, Ruled]) -> Any:
    """`raw` (a section's provisions as read) with each provision ruled `other` replaced by its
    other reading: the `set` fields merged over it and its `choice` the other one."""
    if isinstance(raw, dict):
        out = {k: _overlay(v, f"{path}.{k.isoformat() if isinstance(k, date) else k}", rulings) for k, v in raw.items()}
        reading = raw.get("reading") if isinstance(raw.get("reading"), dict) else None
        if "choice" in raw and reading and reading.get("other"):
            ruling = rulings.get(reading.get("id") or path)
            if ruling is not None and ruling.reading == "other":
                other = reading["other"]
                out = {**out, **(other.get("set") or {}), "choice": other.get("choice")}
        return out
    if isinstance(raw, list):
        return [_overlay(v, f"{path}.{i}", rulings) for i, v in enumerate(raw)]
    return raw


def _entries(current: Any, value: Any, path: str, errors: list, file: str) -> Any:
    """An amendment's provision: the value it sets, or, for a list of entries (the ordinance's
    forfeiture schedules), `{"<index>": entry}`, the entries it replaces, the others kept."""
    if not (isinstance(current, list) and isinstance(value, dict) and value and all(k.isdigit() for k in value)):
        return value
    out = list(current)
    for k, entry in value.items():
        if int(k) >= len(out):
            errors.append((file, f"{path}.{k}", f"the pack has {len(out)} entries at {path}; no entry {k} to amend"))
            continue
        out[int(k)] = entry
    return out


def _bind(
    cite: Cite, origin: str, unconfirmed, inferred, provision, at: str, rulings: dict[str, Ruled], amended_by=None
) -> None:
    if provision is None or amended_by:  # an amended provision reads no pending reading (amending.py)
        cite.bind(origin, unconfirmed, inferred, amended_by=amended_by)
        return
    reading = provision.reading
    rid = reading_id(provision, at)
    ruling = rulings.get(rid)
    other = reading.other if reading else None
    if ruling is None:
        others = [other, *reading.further] if other else []
        other_words = "; or: ".join(f"{o.choice} (would change: {o.changes})" for o in others) or None
        cite.bind(origin, unconfirmed, inferred, provision.choice, "pending", None, other_words)
    else:
        cite.bind(origin, unconfirmed, inferred, provision.choice, "ruled", ruling.describe(), None)


def _load(
    pack_id: str,
    below: tuple[str, ...],
    rulings: dict[str, Ruled] | None = None,
    amendments: tuple[Amendment, ...] = (),
) -> Pack:
    rulings = rulings or {}
    file = f"{pack_id}.yaml"
    path = _pack_file(pack_id)
    if path is None:
        raise PackError(file, "", f"no rule pack {pack_id!r} in {', '.join(map(str, law_dirs()))}")
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise PackError(file, "", "a pack is a mapping")
    errors: list[tuple[str, str, str]] = []
    for key in raw:
        if key not in META_KEYS and key not in SECTIONS:
            errors.append((file, str(key), f"unknown section; known: {', '.join(sorted(SECTIONS))}"))
    try:
        meta = _Meta.model_validate({k: raw[k] for k in META_KEYS if k in raw})
    except ValidationError as exc:
        errors += [(file, _error_path(e), e["msg"]) for e in exc.errors()]
        raise PackError(*errors[0], errors[1:]) from None
    if meta.id != pack_id:
        errors.append((file, "id", f"id {meta.id!r} does not match the file name"))
    text_path = path.parent / "texts" / meta.text
    if not text_path.exists():
        text_path = TEXTS / meta.text
    if not text_path.exists():
        errors.append((file, "text", f"no text {meta.text!r} in {path.parent / 'texts'}"))
        raise PackError(*errors[0], errors[1:])
    text = text_path.read_text(encoding="utf-8")
    quoted = text
    amended_by: dict[tuple[str, str], str] = {}  # (section, key) -> the instrument of the latest amendment
    listed: set[tuple[str, str]] = set()  # amended lists (forfeitures.ordinance): only some of their entries
    for amendment in amendments:
        for name, provisions in amendment.sections().items():
            if name not in SECTIONS or not isinstance(provisions, dict):
                errors.append(
                    (file, name, f"an amendment amends a section of the pack; known: {', '.join(sorted(SECTIONS))}")
                )
                continue
            own = raw.get(name) or {}
            patched = {
                key: _entries(own.get(key), value, f"{name}.{key}", errors, file) for key, value in provisions.items()
            }
            raw[name] = {**own, **patched}
            amended_by.update({(name, key): amendment.by for key in provisions})
            listed.update((name, key) for key, v in patched.items() if isinstance(v, list))
        quoted += "\n" + amendment.words

    parent: Pack | None = None
    if meta.inherits is not None:
        if meta.inherits in below + (pack_id,):
            errors.append((file, "inherits", f"inheritance cycle through {meta.inherits!r}"))
        elif _pack_file(meta.inherits) is None:
            errors.append((file, "inherits", f"inherits unknown pack {meta.inherits!r}"))
        else:
            parent = load_pack(meta.inherits) if not below else _load(meta.inherits, below + (pack_id,))
        if parent is None:
            raise PackError(*errors[0], errors[1:])

    raw_sections: dict[str, dict] = {}
    origins: dict[tuple[str, str], str] = {}
    sections: dict[str, BaseModel] = {}
    for name, model in SECTIONS.items():
        inherited = dict(parent.raw_sections.get(name, {})) if parent else {}
        own = raw.get(name) or {}
        if not isinstance(own, dict):
            errors.append((file, name, "a section is a mapping of provisions"))
            continue
        if not inherited and not own:
            continue
        merged = {**inherited, **own}
        for key in merged:
            origins[(name, key)] = pack_id if key in own else parent.origins[(name, key)]
        try:
            sections[name] = model.model_validate(_overlay(merged, name, rulings) if rulings else merged)
        except ValidationError as exc:
            for err in exc.errors():
                origin = origins.get((name, str(err["loc"][0])), pack_id) if err["loc"] else pack_id
                errors.append((f"{origin}.yaml", f"{name}.{_error_path(err)}", err["msg"]))
            continue
        raw_sections[name] = merged

    metas = {**(parent.metas if parent else {}), pack_id: meta}
    normalised = normalise(quoted)
    own_text = normalise(text) if listed else ""
    for name, model in sections.items():
        for key in type(model).model_fields:
            value = getattr(model, key)
            origin = origins.get((name, key))
            for cite, unconfirmed, provision, at in _cites_with_flags(value, None, None, f"{name}.{key}"):
                declared = metas[origin]
                inferred = next((i.note for i in declared.inferred_numbers if within(cite.section, i.section)), None)
                by = amended_by.get((name, key)) if origin == pack_id else None
                if by and (name, key) in listed and normalise(cite.quote) in own_text:
                    by = None  # an entry of an amended list the amendment kept: the ordinance's own words
                _bind(cite, origin, unconfirmed, inferred, provision, at, rulings, by)
                if origin == pack_id and normalise(cite.quote) not in normalised:
                    where = meta.text + (" nor in the amendment's words" if amendments else "")
                    missing = f"quote {cite.quote!r} ({cite.section}) is not in {where}"
                    errors.append((file, f"{name}.{key}", missing))
    for i, entry in enumerate(meta.outline):
        if normalise(entry.heading) not in normalised:
            errors.append((file, f"outline.{i}.heading", f"{entry.heading!r} is not in {meta.text}"))
    for i, gap in enumerate(meta.text_gaps):
        if gap.last_words and normalise(gap.last_words) not in normalised:
            errors.append((file, f"text_gaps.{i}.last_words", f"{gap.last_words!r} is not in {meta.text}"))
        for q in gap.questions:
            if q not in QUESTIONS:
                errors.append((file, f"text_gaps.{i}.questions", f"no question {q!r}"))
    if parent is not None:
        errors += state_limit_errors(file, pack_id, sections, origins, load_pack(parent.chain[0]))
        texts = [normalised, *(normalise(load_pack(pid).text) for pid in parent.chain)]
        for at, further in _further_readings(sections, origins, pack_id):
            quote = (further.set.get("cite") or {}).get("quote")
            if quote is None or not any(normalise(quote) in t for t in texts):
                errors.append(
                    (file, at, f"a further reading quotes the words of its price ({quote!r}): not in its texts")
                )
    if errors:
        raise PackError(*errors[0], errors[1:])
    chain = (parent.chain if parent else ()) + (pack_id,)
    pack = Pack(meta, file, text, chain, raw_sections, origins, sections)
    pack.__dict__["metas"] = metas  # set while building, before anyone reads the pack
    pack.__dict__["has_recorded_rulings"] = bool(pack.recorded_rulings())
    return pack


def all_packs() -> list[Pack]:
    return [load_pack(p) for p in pack_ids()]
