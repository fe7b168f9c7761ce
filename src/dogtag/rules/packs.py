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

import os
import re
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from .catalogue import LOCK, load_topics
from .schema import SECTIONS, Cite, Dated, Strict

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
)


class PackError(ValueError):
    def __init__(self, file: str, path: str, reason: str):
        self.file, self.path, self.reason = file, path, reason
        super().__init__(f"{file}: {path or '(top)'}: {reason}")


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

    def __repr__(self) -> str:
        return f"<Pack {self.id}>"


def _cites(value: Any) -> Iterator[Cite]:
    for cite, _ in _cites_with_flags(value, None):
        yield cite


def _cites_with_flags(value: Any, unconfirmed: str | None) -> Iterator[tuple[Cite, str | None]]:
    """Every Cite under `value`, with the `unconfirmed:` of the nearest provision declaring one."""
    if isinstance(value, Cite):
        yield value, unconfirmed
    elif isinstance(value, BaseModel):
        own = getattr(value, "unconfirmed", None)
        for key in type(value).model_fields:
            yield from _cites_with_flags(getattr(value, key), own if isinstance(own, str) else unconfirmed)
    elif isinstance(value, Dated):
        for v in value.values:
            yield from _cites_with_flags(v, unconfirmed)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _cites_with_flags(v, unconfirmed)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _cites_with_flags(v, unconfirmed)


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


def clear_cache() -> None:
    """Forget loaded packs (tests that swap the law folder); never needed while serving."""
    with LOCK:
        _PACKS.clear()
        _IDS.clear()


def _load(pack_id: str, below: tuple[str, ...]) -> Pack:
    file = f"{pack_id}.yaml"
    path = _pack_file(pack_id)
    if path is None:
        raise PackError(file, "", f"no rule pack {pack_id!r} in {', '.join(map(str, law_dirs()))}")
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise PackError(file, "", "a pack is a mapping")
    for key in raw:
        if key not in META_KEYS and key not in SECTIONS:
            raise PackError(file, str(key), f"unknown section; known: {', '.join(sorted(SECTIONS))}")
    try:
        meta = _Meta.model_validate({k: raw[k] for k in META_KEYS if k in raw})
    except ValidationError as exc:
        err = exc.errors()[0]
        raise PackError(file, _error_path(err), err["msg"]) from None
    if meta.id != pack_id:
        raise PackError(file, "id", f"id {meta.id!r} does not match the file name")
    text_path = path.parent / "texts" / meta.text
    if not text_path.exists():
        text_path = TEXTS / meta.text
    if not text_path.exists():
        raise PackError(file, "text", f"no text {meta.text!r} in {path.parent / 'texts'}")
    text = text_path.read_text(encoding="utf-8")

    parent: Pack | None = None
    if meta.inherits is not None:
        if meta.inherits in below + (pack_id,):
            raise PackError(file, "inherits", f"inheritance cycle through {meta.inherits!r}")
        if _pack_file(meta.inherits) is None:
            raise PackError(file, "inherits", f"inherits unknown pack {meta.inherits!r}")
        parent = load_pack(meta.inherits) if not below else _load(meta.inherits, below + (pack_id,))

    raw_sections: dict[str, dict] = {}
    origins: dict[tuple[str, str], str] = {}
    sections: dict[str, BaseModel] = {}
    for name, model in SECTIONS.items():
        inherited = dict(parent.raw_sections.get(name, {})) if parent else {}
        own = raw.get(name) or {}
        if not isinstance(own, dict):
            raise PackError(file, name, "a section is a mapping of provisions")
        if not inherited and not own:
            continue
        merged = {**inherited, **own}
        for key in merged:
            origins[(name, key)] = pack_id if key in own else parent.origins[(name, key)]
        try:
            sections[name] = model.model_validate(merged)
        except ValidationError as exc:
            errors = exc.errors()
            err = errors[0]
            origin = origins.get((name, str(err["loc"][0])), pack_id) if err["loc"] else pack_id
            also = "; ".join(f"{name}.{_error_path(e)}: {e['msg']}" for e in errors[1:4])
            raise PackError(
                f"{origin}.yaml", f"{name}.{_error_path(err)}", err["msg"] + (f" (also {also})" if also else "")
            ) from None
        raw_sections[name] = merged

    metas = {**(parent.metas if parent else {}), pack_id: meta}
    normalised = normalise(text)
    for name, model in sections.items():
        for key in type(model).model_fields:
            value = getattr(model, key)
            origin = origins.get((name, key))
            for cite, unconfirmed in _cites_with_flags(value, None):
                declared = metas[origin]
                inferred = next((i.note for i in declared.inferred_numbers if within(cite.section, i.section)), None)
                cite.bind(origin, unconfirmed, inferred)
                if origin == pack_id and normalise(cite.quote) not in normalised:
                    missing = f"quote {cite.quote!r} ({cite.section}) is not in {meta.text}"
                    raise PackError(file, f"{name}.{key}", missing)
    for i, entry in enumerate(meta.outline):
        if normalise(entry.heading) not in normalised:
            raise PackError(file, f"outline.{i}.heading", f"{entry.heading!r} is not in {meta.text}")
    chain = (parent.chain if parent else ()) + (pack_id,)
    pack = Pack(meta, file, text, chain, raw_sections, origins, sections)
    pack.__dict__["metas"] = metas  # set while building, before anyone reads the pack
    return pack


def all_packs() -> list[Pack]:
    return [load_pack(p) for p in pack_ids()]
