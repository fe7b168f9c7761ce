"""A municipality's rulings on the readings its rule pack leaves pending, and its adopted
amendments of the ordinance (registry/amending.py), put to the engine.

Every answer the apps compute for a municipality reads its pack through `pack_on` here (via
`licensing.law.pack_of`), so a ruling takes effect everywhere from its effective date and answers
for earlier days do not change. The engine stays pure: the rulings are data passed to
`rules.packs.pack_on(pack_id, on, rulings)` as `(reading id, rules.schema.Ruled)` pairs.

Cheap by construction: each process keeps, per municipality and `Municipality.rulings_version`,
the rulings and the ruled pack of each span of days between two effective dates. A page reads the
municipality row it already has; the rulings are queried once per process after each change
(record or void raises the version), and never when the municipality has none.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import date

from dogtag.lib.dates import today
from dogtag.rules import packs
from dogtag.rules.schema import Ruled

_LOCK = threading.Lock()


@dataclass
class _Book:
    """One municipality's rulings and amendments at one version: the days on which a reading's
    ruling changes (its own and those its pack records) or an amendment takes effect, and the pack
    read in each span between them."""

    pack_id: str
    rulings: tuple
    starts: list[date]
    by_span: dict[int, packs.Pack] = field(default_factory=dict)

    def pack_on(self, on: date) -> packs.Pack:
        span = bisect_right(self.starts, on)
        pack = self.by_span.get(span)
        if pack is None:
            pack = self.by_span[span] = packs.pack_on(self.pack_id, on, self.rulings)
        return pack


_BOOKS: dict[tuple[int, int, str], _Book] = {}


def in_force(municipality_id: int) -> list[tuple[str, Ruled]]:
    """The municipality's rulings not voided, as the engine takes them: (reading id, Ruled), the
    attorney named beside the number, so every answer says who ruled ("attorney's opinion
    OP-7 (Jane Roe) of <its effective date>")."""
    from dogtag.registry.models import Ruling

    rows = Ruling.objects.filter(municipality_id=municipality_id, voided_at=None).values_list(
        "reading_id", "instrument", "number", "attorney", "effective_on", "adopted"
    )
    return [
        (rid, Ruled(by=by, number=f"{number} ({attorney})", on=on, reading=adopted))
        for rid, by, number, attorney, on, adopted in rows
    ]


def amendments_in_force(municipality_id: int) -> list[packs.Amendment]:
    """The municipality's adopted amendments not voided, as the engine takes them (each applies
    from its effective date)."""
    from dogtag.registry.models import Amendment

    rows = Amendment.objects.filter(municipality_id=municipality_id, voided_at=None, adopted_at__isnull=False)
    return [as_engine_amendment(a) for a in rows]


def as_engine_amendment(amendment) -> packs.Amendment:
    return packs.Amendment.of(amendment.described(), amendment.effective_on, amendment.words, amendment.provisions)


def law_of(municipality_id: int) -> list:
    """Its rulings and adopted amendments, as `rules.packs.pack_on` takes them."""
    return [*in_force(municipality_id), *amendments_in_force(municipality_id)]


def of_municipality(slug: str) -> tuple[str, list] | None:
    """For `dogtag rules ask` and the API asked for a municipality by its slug: its pack, its
    rulings and its adopted amendments not voided (the engine applies each from its effective
    date, so an answer follows the law in force on the day asked); None when no municipality has
    that slug."""
    from dogtag.registry.models import Municipality

    row = Municipality.objects.filter(slug=slug).values_list("pk", "rule_pack", "rulings_version").first()
    if row is None:
        return None
    pk, pack_id, version = row
    return pack_id, law_of(pk) if version else []


def _book(municipality) -> _Book:
    key = (municipality.pk, municipality.rulings_version, municipality.rule_pack)
    book = _BOOKS.get(key)
    if book is None:
        base = packs.load_pack(municipality.rule_pack)
        rulings = tuple(law_of(municipality.pk)) if municipality.rulings_version else ()
        days = {r.on if isinstance(r, packs.Amendment) else r[1].on for r in rulings}
        starts = sorted(days | {r.on for _, r in base.recorded_rulings()})
        book = _Book(municipality.rule_pack, rulings, starts)
        with _LOCK:
            for old in [k for k in _BOOKS if k[0] == municipality.pk]:
                del _BOOKS[old]
            _BOOKS[key] = book
    return book


def pack_on(municipality, on: date | None = None) -> packs.Pack:
    """The municipality's pack as a question on `on` reads it: the rulings in force that day (its
    own and those the pack records) overlaid. Without `on` (a question that is not about a day:
    which species, which sections), the pack as ruled today."""
    if not municipality.rulings_version and not packs.load_pack(municipality.rule_pack).has_recorded_rulings:
        return packs.load_pack(municipality.rule_pack)
    if on is None:
        on = today()
    return _book(municipality).pack_on(on)


def forget(municipality_id: int) -> None:
    """Drop this process's rulings of a municipality (after a ruling is recorded or voided here;
    other processes see the raised version)."""
    with _LOCK:
        for key in [k for k in _BOOKS if k[0] == municipality_id]:
            del _BOOKS[key]
