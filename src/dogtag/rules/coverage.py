"""`law coverage`: every section of a jurisdiction's text and every paragraph (subsection) in it,
each encoded (the provisions whose quoted words it holds, and the questions that read them) or not
encoded with the pack's reason (`not_encoded`).

Sections come from the text through the pack's `headings` (regexes; `{1}` is filled from the
match, `{n}` counts headings in order, for texts whose numbers were lost) and from its
`outline` (sections whose headings the transcription lost, anchored by quoted words). Each
section runs from its heading to the next one. Paragraphs are read from the text itself: blocks
between blank lines, or starting where the pack's `paragraphs.starts` says (a label such as
"(3)" or "B." at the start of a line); a block that is only a label joins the next. A paragraph
is encoded when some provision of the pack quotes words of it; otherwise a `not_encoded` entry of
its section must give the reason (its `anchors` pick paragraphs; without anchors the reason
covers the rest of the section). A paragraph neither encoded nor explained is `unaccounted`,
and a test fails on it.
"""

from __future__ import annotations

import inspect
import re
from functools import cache

from .catalogue import QUESTIONS, load_topics
from .packs import Pack, load_pack, normalise, within

_LABEL = re.compile(r"^\s*((?:\(\w{1,5}\)|\[\w{1,3}\]|[A-Z]\.|[a-z]\.)(?:\s*\(\w{1,5}\))*)\s")
_MATCH = 40  # characters of a quote (or paragraph) that must be found to call them the same words


def headings(pack: Pack) -> list[tuple[str, str]]:
    return [(section, title) for section, title, _ in _starts(pack)]


def _starts(pack: Pack) -> list[tuple[str, str, int | None]]:
    found: list[tuple[str, str, int | None]] = []
    for h in pack.meta.headings:
        for n, m in enumerate(re.finditer(h.pattern, pack.text, flags=re.MULTILINE), start=1):
            section = h.section.replace("{n}", str(n))
            section = re.sub(r"\{(\d+)\}", lambda g, m=m: m.group(int(g.group(1))), section)
            found.append((section, m.group(h.title_group).strip(), m.start()))
    for o in pack.meta.outline:
        words = r"\s+".join(re.escape(w) for w in o.heading.split())
        m = re.search(words, pack.text)
        found.append((o.section, o.heading, m.start() if m else None))
    seen, unique = set(), []
    for section, title, at in found:
        if section not in seen:
            seen.add(section)
            unique.append((section, title, at))
    return unique


def _paragraphs(pack: Pack, body: str) -> list[str]:
    p = pack.meta.paragraphs
    if p.join:
        body = re.sub(p.join, " ", body)
    blocks = re.split(r"\n\s*\n", body)
    if p.starts:
        blocks = [part for b in blocks for part in re.split(f"(?m)(?={p.starts})", b)]
    out: list[str] = []
    carry = ""
    for b in blocks:
        b = re.sub(r"\s+", " ", b).strip()
        if not b:
            continue
        if len(b) <= 6:  # a label alone on its line ("(7)", "(a)"): it heads the next block
            carry = f"{carry} {b}".strip()
            continue
        out.append(f"{carry} {b}".strip() if carry else b)
        carry = ""
    return out


_HISTORY = re.compile(r"^\[(?:Amended|Added|Adopted|Rep\.?)|^State Law Reference|^\(Ord\b|^\[.*\]$", re.I)
_RULE_WORDS = re.compile(r"\b(?:shall|may|must|means|is|are|includes?|unlawful|no person)\b", re.I)


def _structural(para: str, heading: str, first: bool) -> str | None:
    """Why a paragraph carries no rule of its own: the heading, a history note, a title."""
    if first and heading and normalise(heading)[:30] in normalise(para) and len(para) <= len(heading) + 40:
        return "the section's heading"
    if _HISTORY.search(para):
        return "a history or reference note (amendments, the statute referred to): no rule"
    body = _LABEL.sub("", para, count=1)
    if len(body.split()) <= 6 and not _RULE_WORDS.search(body) and "(" not in body:
        return "a subsection's title: its rule is in the paragraphs that follow"
    return None


def _same_words(quote: str, para: str) -> bool:
    return quote in para or para in quote or quote[:_MATCH] in para or quote[-_MATCH:] in para or para[:_MATCH] in quote


def _source(func, seen: set) -> str:
    """A function's source with that of the module-level functions it calls, recursively."""
    if func in seen:
        return ""
    seen.add(func)
    try:
        src = inspect.getsource(func)
    except (OSError, TypeError):
        return ""
    module = inspect.getmodule(func)
    parts = [src]
    for name in set(re.findall(r"\b([A-Za-z_]\w*)\(", src)):
        called = inspect.unwrap(getattr(module, name, None) or (lambda: None))  # a cached helper too
        if (inspect.isfunction(called) or inspect.isclass(called)) and called.__module__ == func.__module__:
            parts.append(_source(called, seen))
    return "\n".join(parts)


@cache
def _question_sources() -> dict[str, str]:
    load_topics()
    return {name: _source(q.decide, set()) for name, q in QUESTIONS.items()}


def questions_reading(path: str) -> list[str]:
    """The questions whose code reads provision `path` ("section.key"), found in their source (and
    that of the helpers they call): it reads `pack.<section>` and names the key; where none names
    it, every question reading the section."""
    top, key = path.split(".", 1)
    readers = {n: src for n, src in _question_sources().items() if f"pack.{top}" in src}
    naming = [n for n, src in readers.items() if re.search(rf"\.{re.escape(key)}\b|\"{re.escape(key)}\"", src)]
    return sorted(naming or readers)


_SENTENCE_END = re.compile(r"(?<=[.;])\s+(?=\S)")


def _intervals(quotes: list[tuple[str, str]], paras: list[str]) -> list[list[tuple[int, int, str]]]:
    """For each paragraph (normalised), the spans of its words that a provision quotes: (start,
    end, provision path). A quote is found in the section's paragraphs joined, so one quoting
    across two paragraphs covers the end of the one and the start of the other."""
    joined, starts, at = [], [], 0
    for p in paras:
        starts.append(at)
        joined.append(p)
        at += len(p) + 1
    text = " ".join(joined)
    spans: list[list[tuple[int, int, str]]] = [[] for _ in paras]
    for path, quote in quotes:
        if not quote:
            continue
        found = [m.start() for m in re.finditer(re.escape(quote), text)]
        for begin in found:
            end = begin + len(quote)
            for i, p_start in enumerate(starts):
                p_end = p_start + len(paras[i])
                if begin < p_end and end > p_start:
                    spans[i].append((max(begin, p_start) - p_start, min(end, p_end) - p_start, path))
    return spans


def _sentences(para: str) -> list[tuple[int, int]]:
    out, at = [], 0
    for part in _SENTENCE_END.split(para):
        begin = para.index(part, at)
        out.append((begin, begin + len(part)))
        at = begin + len(part)
    return out


def _unquoted(para: str, spans: list[tuple[int, int, str]], anchors: list[str]) -> list[str]:
    """The sentences of an encoded paragraph no provision quotes and no declaration names: a
    sentence is quoted where a quote covers at least half of it (or 40 characters)."""
    out = []
    for begin, end in _sentences(para):
        sentence = para[begin:end]
        if len(sentence) < 12 or _LABEL_ONLY.match(sentence):
            continue
        covered = sum(max(0, min(end, e) - max(begin, b)) for b, e, _ in spans)
        if covered >= min(40, (end - begin) / 2):
            continue
        if any(normalise(a) in sentence for a in anchors):
            continue
        out.append(sentence)
    return out


_LABEL_ONLY = re.compile(r"^\W*(?:\(?\w{1,4}[.)]\s*)+$")


def _gap_rows(pack: Pack) -> list[dict]:
    return [
        {
            "section": g.section,
            "text": g.text,
            "stops_after": g.stops_after,
            "last_words": g.last_words,
            "known": g.known,
            "questions": list(g.questions),
            "full_text_from": g.full_text_from.isoformat() if g.full_text_from else None,
            "message": g.message(),
        }
        for g in pack.meta.text_gaps
    ]


OPENING = "(before the first heading)"


def coverage(pack_id: str) -> dict:
    pack = load_pack(pack_id)
    own = [(path, cites) for path, origin, cites in pack.provisions() if origin == pack.id]
    starts = _starts(pack)
    placed = sorted((at, section) for section, _, at in starts if at is not None)
    if placed and pack.text[: placed[0][0]].strip():
        # the text before the first heading is read too: a section whose heading was lost there
        # is reported, not skipped
        starts.insert(0, (OPENING, "", 0))
        placed.insert(0, (0, OPENING))
    ends = {
        section: (placed[i + 1][0] if i + 1 < len(placed) else len(pack.text)) for i, (_, section) in enumerate(placed)
    }
    gaps = {g.section: g for g in pack.meta.text_gaps}
    rows, unaccounted, unquoted_all = [], [], []
    for section, title, at in starts:
        reasons = [n for n in pack.meta.not_encoded if within(section, n.section) or within(n.section, section)]
        cited = [(path, cite) for path, cites in own for cite in cites if within(cite.section, section)]
        if section == OPENING:
            cited = [(path, cite) for path, cites in own for cite in cites]
        provisions = sorted({path for path, _ in cited})
        section_reason = next((n.reason for n in reasons if not n.anchors and n.section == section), None)
        anchors = [a for n in reasons for a in n.anchors]
        subsections = []
        if at is not None:
            paras = _paragraphs(pack, pack.text[at : ends[section]])
            words = [normalise(p) for p in paras]
            spans = _intervals([(path, normalise(cite.quote)) for path, cite in cited], words)
            for i, para in enumerate(paras, start=1):
                hits = sorted({path for _, _, path in spans[i - 1]})
                reason = next((n.reason for n in reasons if any(normalise(a) in words[i - 1] for a in n.anchors)), None)
                if not hits and reason is None:
                    reason = _structural(para, title, i == 1) or section_reason
                label = _LABEL.match(para)
                unquoted = _unquoted(words[i - 1], spans[i - 1], anchors) if hits and not section_reason else []
                row = {
                    "paragraph": f"{section} ¶{i}",
                    "label": label.group(1) if label else None,
                    "begins": para[:90],
                    "words": para,
                    "provisions": hits,
                    "questions": sorted({q for path in hits for q in questions_reading(path)}),
                    "not_encoded": None if hits else reason,
                    "unquoted_sentences": unquoted,
                }
                subsections.append(row)
                unquoted_all += [f"{row['paragraph']}: {u[:80]}" for u in unquoted]
                if not hits and reason is None:
                    unaccounted.append(row["paragraph"])
        elif not provisions and section_reason is None:
            unaccounted.append(section)
        if section == OPENING:
            # the opening's paragraphs were matched against every quote; it holds only those found in them
            provisions = sorted({path for row in subsections for path in row["provisions"]})
        gap = gaps.get(section)
        rows.append(
            {
                "section": section,
                "heading": title,
                "at": at,
                "provisions": provisions,
                "questions": sorted({q for path in provisions for q in questions_reading(path)}),
                "not_encoded": section_reason,
                "text": gap.text if gap else "complete",
                "subsections": subsections,
            }
        )
    listed = {r["section"] for r in rows}
    extra = []
    for path, cites in own:  # cited sections the headings do not name (numbers lost in the text)
        for c in cites:
            if not any(within(c.section, known) for known in listed - {OPENING}):
                extra.append((c.section, [path], questions_reading(path), None))
                listed.add(c.section)
    for n in pack.meta.not_encoded:
        if n.section not in listed:
            extra.append((n.section, [], [], n.reason))
            listed.add(n.section)
    for g in pack.meta.text_gaps:
        if g.section not in listed:
            extra.append((g.section, [], [], None))
            listed.add(g.section)
    for section, provisions, questions, reason in extra:
        gap = gaps.get(section)
        rows.append(
            {
                "section": section,
                "heading": None,
                "at": None,
                "provisions": provisions,
                "questions": questions,
                "not_encoded": reason,
                "text": gap.text if gap else "complete",
                "subsections": [],
            }
        )
    return {
        "jurisdiction": pack.id,
        "text": pack.meta.text,
        "sections": rows,
        "paragraphs": sum(len(r["subsections"]) for r in rows),
        "unaccounted": unaccounted,
        "unquoted_sentences": unquoted_all,
        "cut_off": _gap_rows(pack),
    }
