"""What a municipality's records add to its annotated ordinance: the readings each
section leaves to a ruling and the rulings made, the amounts its fee schedule sets for the
figures the ordinance leaves to it, the staff's procedures that apply a section, and, for its
staff, live counts per section from their records.

The text and its annotation are `rules.annotated` (pure, loaded once per pack); this module asks
the database what changes from day to day, one query per kind, whatever the number of sections.
It lives with the portal, above licensing and enforcement, because it reads their records.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db.models import Count
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from dogtag.enforcement.models import Case, Citation
from dogtag.licensing import law
from dogtag.licensing.models import FeeScheduleEntry, KennelLicense, License
from dogtag.licensing.owed import fee_label
from dogtag.registry import readings
from dogtag.registry.models import Ruling
from dogtag.registry.templatetags.readings import side_by_side
from dogtag.rules.annotated import Annotated, Figure, Paragraph, Section, figure
from dogtag.rules.licensing import license_year_of
from dogtag.rules.packs import load_pack, within

# The staff's pages that apply a pack section's provisions, by the pack section: (what, URL name).
PROCEDURES: dict[str, tuple[tuple[str, str | None], ...]] = {
    "licensing": (
        ("The clerk's fee schedule", "fees"),
        ("Licenses at the counter and online applications", "application-queue"),
        ("Unlicensed animals", "unlicensed"),
        ("Renewals and renewal notices", "renewals"),
        ("License certificate and receipt (PDF)", None),
    ),
    "remittance": (("Tag stock and the county's tag return", "tags"),),
    "kennel": (("Kennel licenses and inspections", "kennels"), ("Kennel license certificate (PDF)", None)),
    "multiple_dog": (("Multiple-dog licenses", "multiple-dog-licenses"), ("Multiple-dog license (PDF)", None)),
    "rabies": (("Rabies certificates, on each animal's record", None),),
    "quarantine": (("Bite and quarantine cases", "municipality-cases"), ("Quarantine order (PDF)", None)),
    "impoundment": (("Impoundment cases", "municipality-cases"), ("Impoundment notice (PDF)", None)),
    "dangerous_dogs": (
        ("Dangerous or vicious dog cases, hearings and appeals", "municipality-cases"),
        ("Determination and hearing notices (PDF)", None),
    ),
    "declared_keeping": (("Dangerous or vicious dog cases", "municipality-cases"),),
    "nuisance": (("Complaints", "municipality-cases"),),
    "control": (("Complaints and impoundments", "municipality-cases"),),
    "forfeitures": (("Citations", "municipality-cases"),),
    "permits.hen": (("Hen permits", "hen-permits"),),
    "permits.vicious": (("Vicious-dog permits, on each declaration's case", "municipality-cases"),),
}
# The kinds of open case a pack section's provisions decide (Case.Kind).
CASES: dict[str, tuple[str, ...]] = {
    "quarantine": (Case.Kind.BITE, Case.Kind.EXPOSURE, Case.Kind.DISTRICT),
    "rabies": (Case.Kind.BITE, Case.Kind.EXPOSURE),
    "impoundment": (Case.Kind.IMPOUNDMENT,),
    "dangerous_dogs": (Case.Kind.DECLARATION,),
    "declared_keeping": (Case.Kind.DECLARATION,),
    "nuisance": (Case.Kind.COMPLAINT,),
    "control": (Case.Kind.COMPLAINT, Case.Kind.IMPOUNDMENT),
    "forfeitures": (Case.Kind.CITATION,),
}
# The pack sections whose provisions decide licenses: the tax, its rabies certificate, the
# county's share of it paid over (s. 174.08).
LICENSED = {"licensing", "rabies", "remittance"}
SEARCH_LIMIT = 100  # characters of a search: more is no phrase of an ordinance


@dataclass
class Counts:
    """A section's figures from the municipality's records, this license year."""

    licenses: int | None = None
    kennel_licenses: int | None = None
    open_cases: int | None = None
    citations: int = 0
    # the section the citations are under: its own number, or the whole section a schedule names
    # where the text is numbered by subsection (River Hills' § 2.14(8) prices "§ 2.14")
    cited_under: str = ""

    @property
    def any(self) -> bool:
        return any(n is not None for n in (self.licenses, self.kennel_licenses, self.open_cases)) or bool(
            self.citations
        )


@dataclass
class FigureView:
    figure: Figure
    amounts: list[str]  # what the municipality's fee schedule sets for the amounts left to it


@dataclass
class ParagraphView:
    paragraph: Paragraph
    html: SafeString  # its words, the statutes linked and the search's words marked
    matched: bool
    figures: list[FigureView]
    questions: list[tuple[str, str]]  # (question, what it answers)


@dataclass
class RulingView:
    """A ruling made on a reading of the section: who ruled (its number and date) and, where the
    reading is the pack's, the figures and the worked example's answer as ruled."""

    section: str
    words: str  # the ruling in words: who, its number, its date, the reading it adopts
    in_force: bool = True  # False: ruled, in force from a later day
    figures: list[Figure] = field(default_factory=list)  # the figures the ruled pack sets, where they moved
    answer: list[tuple[str, str]] = field(default_factory=list)  # the worked example's answer as ruled


@dataclass
class SectionView:
    section: Section
    paragraphs: list[ParagraphView]
    pending: list[readings.Reading] = field(default_factory=list)
    figures: list[FigureView] = field(default_factory=list)  # where the heading was lost: the section's own
    rulings: list[RulingView] = field(default_factory=list)
    procedures: list[tuple[str, str | None]] = field(default_factory=list)
    counts: Counts | None = None


def _tops(section: Section) -> list[str]:
    return sorted({p.split(".", 1)[0] for p in section.provisions})


def _applied_by(section: Section) -> list[str]:
    """The keys of PROCEDURES a section's provisions name: their pack section, a permit by its kind."""
    keys = {p.split(".", 1)[0] for p in section.provisions} - {"permits"}
    kinds = ("hen", "vicious")
    keys |= {f"permits.{k}" for p in section.provisions for k in kinds if p.startswith(f"permits.{k}")}
    return sorted(keys)


def words_html(paragraph: Paragraph, query: str = "") -> tuple[SafeString, bool]:
    """A paragraph's words, escaped, the statutes it names linked and the search's words marked."""
    text = paragraph.words
    marks = []
    if query:
        pattern = r"\s+".join(re.escape(w) for w in query.split())
        marks = [(m.start(), m.end()) for m in re.finditer(pattern, text, flags=re.I)]
    cuts = sorted(
        {0, len(text), *(b for lk in paragraph.statutes for b in (lk.start, lk.end)), *(b for m in marks for b in m)}
    )
    out = []
    for begin, end in zip(cuts, cuts[1:], strict=False):
        piece = escape(text[begin:end])
        if any(b <= begin and end <= e for b, e in marks):
            piece = format_html("<mark>{}</mark>", piece)
        link = next((lk for lk in paragraph.statutes if lk.start <= begin and end <= lk.end), None)
        if link:
            piece = format_html('<a class="statute" href="{}" rel="external">{}</a>', link.url, piece)
        out.append(str(piece))
    return mark_safe("".join(out)), bool(marks)  # noqa: S308 -- every piece escaped above


def ruled_words(ruling: Ruling) -> str:
    reading = "the other reading" if ruling.adopted == Ruling.Adopted.OTHER else "Dogtag's reading"
    return (
        f"{ruling.get_instrument_display()} {ruling.number} of {ruling.ruled_on:%B} {ruling.ruled_on.day}, "
        f"{ruling.ruled_on.year} adopts {reading}, in force from {ruling.effective_on:%B} "
        f"{ruling.effective_on.day}, {ruling.effective_on.year}: {ruling.adopted_words}"
    )


def fee_schedule(municipality, text: Annotated) -> tuple[dict[str, list[str]], dict[str, dict[date, Decimal]]]:
    """For each figure the ordinance leaves to the fee schedule, the amounts set, in words; and
    the whole schedule by key and day, as the readings' worked examples take it (one query)."""
    keys = {k for f in text.figures.values() for k in f.local}
    rows = FeeScheduleEntry.objects.filter(municipality=municipality, voided_at=None).order_by("key", "effective_on")
    said: dict[str, list[str]] = {}
    by_key: dict[str, dict[date, Decimal]] = {}
    for key, on, amount in rows.values_list("key", "effective_on", "amount"):
        by_key.setdefault(key, {})[on] = amount
        if key in keys:
            said.setdefault(key, []).append(f"{fee_label(key)}: ${amount:,.2f} from {on:%B} {on.day}, {on.year}")
    return said, by_key


# The worked examples' answers, per (pack, reading, fee schedule): the engine's answers depend on
# nothing else, so a page asks them once per process until the clerk changes the schedule.
_ANSWERS: dict[tuple, dict[str, readings.Answer]] = {}
_ANSWERS_KEPT = 4096


def _answered(pack_id: str, reading: readings.Reading, by_key: dict) -> None:
    """The reading's worked example asked under each reading (pure: the engine, no query)."""
    if not reading.example or reading.answers:
        return
    key = (pack_id, reading.id, tuple(sorted((k, tuple(sorted(v.items()))) for k, v in by_key.items())))
    answers = _ANSWERS.get(key)
    if answers is None:
        if len(_ANSWERS) >= _ANSWERS_KEPT:
            _ANSWERS.clear()
        answers = _ANSWERS[key] = readings.example_answers(pack_id, reading, by_key)
    reading.answers = answers


def _as_ruled(reading: readings.Reading | None, adopted: str) -> list[tuple[str, str]]:
    """The worked example's answer under the reading a ruling adopts, part by part."""
    if reading is None or not reading.answers:
        return []
    column = 1 if adopted == Ruling.Adopted.CHOICE else 2
    return [(row[0], row[column]) for row in side_by_side(reading.answers) if row[column]]


def _figures_as_ruled(text: Annotated, ruled_pack, reading: readings.Reading | None) -> list[Figure]:
    """The figures of the reading's provision as the ruled pack sets them, where they differ from
    the text's own (a ruling for the other reading moves them)."""
    if reading is None:
        return []
    paths = [p for p, f in text.figures.items() if f.reading_id == reading.id or reading.id.startswith(f"{p}.")]
    out = []
    for path in paths:
        now = figure(ruled_pack, path)
        if now.sets != text.figures[path].sets:
            out.append(now)
    return out


def cited_under(violation: str, number: str) -> bool:
    """Whether a citation's violation falls under the section numbered `number`: `§ 115-3B(4)`
    under `§ 115-3`; a schedule that names a section without its ordinance's number ("Section 5"
    in Sampson's Ord. 3-2007 Section 9) under `Ord. 3-2007 Section 5`."""
    number = number.removeprefix("§ ").strip()
    cited = violation.removeprefix("§ ").strip()
    if not number or not cited:
        return False
    short = number[number.rfind("Section ") :] if number.rfind("Section ") > 0 else None
    return within(cited, number) or (short is not None and within(cited, short))


def divides(violation: str, number: str) -> bool:
    """Whether a citation names a whole section of which `number` is a subsection: `§ 2.14` for
    `§ 2.14(8)`, where the text is numbered by subsection and the schedule prices the whole."""
    number = number.removeprefix("§ ").strip()
    cited = violation.removeprefix("§ ").strip()
    return bool(number and cited) and cited != number and within(number, cited)


def staff_counts(municipality, sections: list[Section], on: date) -> dict[str, Counts]:
    """Per section, its records this license year: licenses, kennel licenses, open cases by the
    kinds its provisions decide, citations under its number. One query per kind of record."""
    year = license_year_of(law.pack_of(municipality, on), on)
    tops = {s.anchor: _tops(s) for s in sections}
    wanted = {t for ts in tops.values() for t in ts}
    licenses = (
        License.objects.filter(municipality=municipality, license_year=year, voided_at=None).count()
        if wanted & LICENSED
        else 0
    )
    kennels = (
        KennelLicense.objects.filter(municipality=municipality, license_year=year, voided_at=None).count()
        if wanted & {"kennel", "multiple_dog"}
        else 0
    )
    open_cases = dict(
        Case.objects.filter(municipality=municipality, closed_on=None)
        .values_list("kind")
        .annotate(n=Count("pk"))
        .values_list("kind", "n")
    )
    cited = (
        Citation.objects.filter(municipality=municipality, voided_at=None, issued_on__year=year)
        .values_list("violation")
        .annotate(n=Count("pk"))
        .values_list("violation", "n")
    )
    by_violation = list(cited)
    out = {}
    for s in sections:
        ts = tops[s.anchor]
        c = Counts()
        if LICENSED & set(ts):
            c.licenses = licenses
        if {"kennel", "multiple_dog"} & set(ts):
            c.kennel_licenses = kennels
        kinds = {k for t in ts for k in CASES.get(t, ())}
        if kinds:
            c.open_cases = sum(open_cases.get(k, 0) for k in kinds)
        c.citations = sum(n for v, n in by_violation if cited_under(v, s.number))
        c.cited_under = s.number
        whole = [(v, n) for v, n in by_violation if not cited_under(v, s.number) and divides(v, s.number)]
        if whole:
            c.citations += sum(n for _, n in whole)
            c.cited_under = ", ".join(sorted({f"§ {v.removeprefix('§ ').strip()}" for v, _ in whole}, key=len))
            c.cited_under = f"{s.number} or the whole of {c.cited_under}"
        out[s.anchor] = c
    return out


def assemble(municipality, text: Annotated, *, query: str = "", staff: bool = False, on: date) -> list[SectionView]:
    """The sections to show (those the search matches, or all), each with its readings, rulings,
    procedures and, for staff, its counts."""
    pack = load_pack(municipality.rule_pack)
    all_readings = readings.of(pack)
    by_id = {r.id: r for r in all_readings}
    rulings = list(
        Ruling.objects.filter(municipality=municipality, voided_at=None, ruled_on__lte=on).order_by("effective_on")
    )
    ruled_ids = {r.reading_id for r in rulings} | {rid for rid, _ in pack.recorded_rulings()}
    # the ruling in force on `on` for each reading (a later one supersedes an earlier from its day)
    governing = {r.reading_id: r.pk for r in rulings if r.effective_on <= on}
    fees, by_key = fee_schedule(municipality, text)
    ruled_pack = law.pack_of(municipality, on) if ruled_ids else pack
    views = []
    for s in text.sections:
        paragraphs = [
            ParagraphView(
                p,
                *words_html(p, query),
                figures=[
                    FigureView(text.figures[path], [a for k in text.figures[path].local for a in fees.get(k, [])])
                    for path in p.provisions
                ],
                questions=[(q, text.questions.get(q, "")) for q in p.questions],
            )
            for p in s.paragraphs
        ]
        if query and not any(p.matched for p in paragraphs) and not (s.heading and query.lower() in s.heading.lower()):
            continue
        in_section = [r for r in all_readings if within(r.section, s.number)]
        v = SectionView(
            section=s,
            paragraphs=paragraphs,
            figures=[
                FigureView(text.figures[path], [a for k in text.figures[path].local for a in fees.get(k, [])])
                for path in s.provisions
                if not s.paragraphs
            ],
            pending=[r for r in in_section if r.id not in ruled_ids],
            procedures=[
                (what, reverse(name, args=[municipality.slug]) if staff and name else None)
                for t in _applied_by(s)
                for what, name in PROCEDURES.get(t, ())
            ],
        )
        for r in v.pending:
            _answered(pack.id, r, by_key)
        for ruling in rulings:
            if within(ruling.section, s.number):
                reading = by_id.get(ruling.reading_id)
                if reading is not None:
                    _answered(pack.id, reading, by_key)
                v.rulings.append(
                    RulingView(
                        ruling.section,
                        ruled_words(ruling),
                        in_force=governing.get(ruling.reading_id) == ruling.pk,
                        figures=_figures_as_ruled(text, ruled_pack, reading)
                        if governing.get(ruling.reading_id) == ruling.pk
                        else [],
                        answer=_as_ruled(reading, ruling.adopted),
                    )
                )
        for r in in_section:
            for ruled in r.provision.reading.ruled if r.provision.reading else []:
                _answered(pack.id, r, by_key)
                adopted = "the other reading" if ruled.reading == "other" else "this reading"
                v.rulings.append(
                    RulingView(
                        r.section,
                        f"{ruled.describe()} adopts {adopted}",
                        in_force=ruled.on <= on,
                        figures=_figures_as_ruled(text, ruled_pack, r) if ruled.on <= on else [],
                        answer=_as_ruled(r, ruled.reading),
                    )
                )
        views.append(v)
    if staff:
        counts = staff_counts(municipality, [v.section for v in views], on)
        for v in views:
            v.counts = counts[v.section.anchor]
    return views
