"""`law coverage`: every section of a jurisdiction's text, the provisions that cite it, and the
sections deliberately not encoded (the pack's `not_encoded`, each with its reason).

Sections come from the text through the pack's `headings` (regexes; `{1}` is filled from the
match, `{n}` counts headings in order, for texts whose numbers were lost) and from its
`outline` (sections whose headings the transcription lost, anchored by quoted words).
"""
from __future__ import annotations

import re

from .packs import Pack, load_pack


def headings(pack: Pack) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for h in pack.meta.headings:
        for n, m in enumerate(re.finditer(h.pattern, pack.text, flags=re.MULTILINE), start=1):
            section = h.section.replace("{n}", str(n))
            section = re.sub(r"\{(\d+)\}", lambda g, m=m: m.group(int(g.group(1))), section)
            found.append((section, m.group(h.title_group).strip()))
    found += [(o.section, o.heading) for o in pack.meta.outline]
    seen, unique = set(), []
    for section, title in found:
        if section not in seen:
            seen.add(section)
            unique.append((section, title))
    return unique


def _cites_section(cited: str, section: str) -> bool:
    if not cited.startswith(section):
        return False
    rest = cited[len(section):]
    return not rest or not (rest[0].isdigit() or (rest[0] == "." and rest[1:2].isdigit()))


def coverage(pack_id: str) -> dict:
    pack = load_pack(pack_id)
    own = [(path, cites) for path, origin, cites in pack.provisions() if origin == pack.id]
    not_encoded = {n.section: n.reason for n in pack.meta.not_encoded}
    rows = []
    for section, title in headings(pack):
        provisions = sorted({path for path, cites in own if any(_cites_section(c.section, section) for c in cites)})
        rows.append({"section": section, "heading": title, "provisions": provisions,
                     "not_encoded": not_encoded.get(section)})
    listed = {r["section"] for r in rows}
    for path, cites in own:  # cited sections the headings do not name (numbers lost in the text)
        for c in cites:
            if not any(_cites_section(c.section, known) for known in listed):
                rows.append({"section": c.section, "heading": None, "provisions": [path], "not_encoded": None})
                listed.add(c.section)
    for section, reason in not_encoded.items():
        if section not in listed:
            rows.append({"section": section, "heading": None, "provisions": [], "not_encoded": reason})
    return {
        "jurisdiction": pack.id,
        "text": pack.meta.text,
        "sections": rows,
        "unaccounted": [r["section"] for r in rows if not r["provisions"] and not r["not_encoded"]],
    }
