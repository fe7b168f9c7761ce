"""The translation catalogues under dogtag/locale/ as data: which messages a language's
django.po leaves untranslated. A language is offered to residents only once its catalogue is
complete (portal/language.py); docs/translations.md says how a catalogue is made and kept."""

import ast
from functools import cache
from pathlib import Path

from django.conf import settings

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def catalogue(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


def entries(path: Path) -> list[dict]:
    """Each entry of a .po file: its msgid (with msgctxt), msgstr(s) and flags; the header (empty
    msgid) and obsolete entries (#~) left out."""
    found, entry, field = [], None, None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        line = line.strip()
        if not line or line.startswith("#~"):
            if entry and "".join(entry.get("msgid", [])):
                found.append({k: v if k in ("flags", "msgstr") else "".join(v) for k, v in entry.items()})
            entry, field = None, None
            continue
        entry = entry if entry is not None else {"flags": set(), "msgstr": []}
        if line.startswith("#,"):
            entry["flags"] |= {f.strip() for f in line[2:].split(",")}
        elif line.startswith('"'):
            entry[field][-1] += ast.literal_eval(line)
        elif not line.startswith("#"):
            keyword, _, value = line.partition(" ")
            field = "msgstr" if keyword.startswith("msgstr") else keyword
            entry.setdefault(field, []).append(ast.literal_eval(value))
    return found


def untranslated(language: str) -> list[str]:
    """The messages of a language's catalogue with no translation yet, or marked fuzzy."""
    path = catalogue(language)
    if not path.exists():
        return ["(no catalogue)"]
    return [e["msgid"] for e in entries(path) if "fuzzy" in e["flags"] or not all(e["msgstr"])]


@cache
def complete_languages() -> tuple[str, ...]:
    """The languages of settings.LANGUAGES a resident may choose: English (the source) and each
    whose catalogue translates every message. Read once a process: catalogues change with a release."""
    return tuple(code for code, _ in settings.LANGUAGES if code == settings.LANGUAGE_CODE or not untranslated(code))
