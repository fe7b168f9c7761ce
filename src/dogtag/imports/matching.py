"""What one batch of a roll matches, looked up for the whole batch at once: the owners on record
by their match key (Person.match_key), the animals by microchip or by their owner, name and
species, the certificates by serial and the licenses by animal and year, a handful of indexed
queries a batch whatever the municipality holds.

What earlier batches of the same file planned is in a scratch table of the connection's own (a
temporary table): the row keys seen (a line repeating an earlier line), and in a dry run the
stand-ins for the records it would write, which later batches match as a real run matches the
records its earlier batches wrote. So the planner holds one batch at a time in memory, never the
file's keys: a million-row roll is checked in the memory of one batch.
"""

from datetime import date

from django.db import connection

from dogtag.imports.bulk import write_rows
from dogtag.imports.models import ImportBatch, ImportRow
from dogtag.lib.meta import db_table
from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Ownership, Person, RabiesVaccination
from dogtag.registry.names import normalise

SCRATCH = "dogtag_import_scratch"


def _in(column: str, values: list) -> tuple[str, list]:
    """`column` among `values`: one array on PostgreSQL (an IN list of thousands of literals takes
    twice as long to send and parse), an IN list on SQLite."""
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s)", [values]
    return f"{column} IN ({', '.join(['%s'] * len(values))})", values


def _rows(sql: str, params: list, column: str, values) -> list:
    values = list(values)
    if not values:
        return []
    where, more = _in(column, values)
    with connection.cursor() as cursor:
        cursor.execute(sql.format(where=where), [*params, *more])
        return cursor.fetchall()


class Scratch:
    """The scratch table: `k` a kind and a key ("r:" row key, "o:" owner, "c:" microchip,
    "a:" owner|name|species, "v:" certificate, "l:" animal|year), `id` what it stands for,
    `aux` a birth date's ordinal (or a line). Emptied when a plan starts and when it ends."""

    def __init__(self):
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE TEMPORARY TABLE IF NOT EXISTS {SCRATCH} (k TEXT NOT NULL, id BIGINT, aux BIGINT)")
            cursor.execute(f"CREATE INDEX IF NOT EXISTS {SCRATCH}_k ON {SCRATCH} (k)")
            cursor.execute(f"DELETE FROM {SCRATCH}")
        self.pending = []

    def add(self, k: str, id=None, aux=None) -> None:
        self.pending.append((k, id, aux))

    def flush(self) -> None:
        if self.pending:
            write_rows(SCRATCH, ["k", "id", "aux"], self.pending)
            self.pending = []

    def get(self, keys) -> dict:
        """{k: (id, aux)} of `keys` (the first written of each)."""
        found = {}
        for k, id, aux in _rows(f"SELECT k, id, aux FROM {SCRATCH} WHERE {{where}}", [], "k", set(keys)):
            found.setdefault(k, (id, aux))
        return found

    def close(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {SCRATCH}")


def recorded(municipality_id, keys) -> dict:
    """{row key: its run} of the keys already imported, in one query."""
    row, batch = ImportRow._meta.db_table, ImportBatch._meta.db_table
    return dict(
        _rows(
            f"SELECT r.row_key, b.run_id FROM {row} r JOIN {batch} b ON b.id = r.batch_id "
            "WHERE r.municipality_id = %s AND {where}",
            [municipality_id],
            "r.row_key",
            keys,
        )
    )


def _born(ordinal):
    return date.fromordinal(ordinal) if ordinal else None


class Found:
    """What a batch matches: {owner key: person}, {chip: animal}, {(person, name, species):
    animal}, {serial: animal}, {(animal, year)} of licenses, {animal: birth date}. The batch's
    own new records are added as it is planned."""

    def __init__(self, m, scratch: Scratch | None, rows: list):
        """`rows`: (owner key, name as normalised, species, chip, serial) of each row; `scratch`
        in a dry run, where earlier batches' records are stand-ins in the scratch table."""
        self.people, self.chips, self.animals, self.certificates = {}, {}, {}, {}
        self.licenses, self.births = set(), {}
        owners = {r[0] for r in rows}
        chips = {r[3] for r in rows if r[3]}
        serials = {r[4] for r in rows if r[4]}
        for key, pk in _rows(
            f"SELECT match_key, MIN(id) FROM {db_table(Person)} WHERE municipality_id = %s AND {{where}} "
            "GROUP BY match_key",
            [m],
            "match_key",
            owners,
        ):
            self.people[key] = pk
        for chip, pk, born in _rows(
            f"SELECT microchip, id, birth_date FROM {db_table(Animal)} WHERE municipality_id = %s AND {{where}}",
            [m],
            "microchip",
            chips,
        ):
            self.chips[chip] = pk
            self.births[pk] = born
        self.certificates = dict(
            _rows(
                f"SELECT certificate_serial, animal_id FROM {db_table(RabiesVaccination)} "
                "WHERE municipality_id = %s AND {where}",
                [m],
                "certificate_serial",
                serials,
            )
        )
        if scratch is not None:
            planned = scratch.get([f"o:{k}" for k in owners] + [f"c:{c}" for c in chips] + [f"v:{s}" for s in serials])
            for k, (pk, aux) in planned.items():
                kind, key = k[0], k[2:]
                if kind == "o":
                    self.people.setdefault(key, pk)
                elif kind == "c":
                    self.chips.setdefault(key, pk)
                    self.births.setdefault(pk, _born(aux))
                else:
                    self.certificates.setdefault(key, pk)
        # The animals of the owners found, by owner, name and species.
        found_owners = {self.people[r[0]] for r in rows if r[0] in self.people}
        for person, pk, name, species, born in _rows(
            f"SELECT o.person_id, a.id, a.name, a.species, a.birth_date FROM {db_table(Ownership)} o "
            f"JOIN {db_table(Animal)} a ON a.id = o.animal_id WHERE o.municipality_id = %s AND {{where}} "
            "ORDER BY o.id",
            [m],
            "o.person_id",
            {p for p in found_owners if p > 0},
        ):
            self.animals.setdefault((person, normalise(name), species), pk)
            self.births[pk] = born
        if scratch is not None:
            keys = {(self.people[r[0]], r[1], r[2]) for r in rows if r[0] in self.people}
            for k, (pk, aux) in scratch.get(f"a:{p}|{n}|{s}" for p, n, s in keys).items():
                p, n, s = k[2:].split("|", 2)
                self.animals.setdefault((int(p), n, s), pk)
                self.births.setdefault(pk, _born(aux))
        # The licenses of the animals found.
        animals = set(self.chips.values()) | set(self.animals.values()) | set(self.certificates.values())
        self.licenses = set(
            _rows(
                f"SELECT animal_id, license_year FROM {db_table(License)} "
                "WHERE municipality_id = %s AND voided_at IS NULL AND {where}",
                [m],
                "animal_id",
                {a for a in animals if a > 0},
            )
        )
        if scratch is not None and animals:
            for k in scratch.get(f"l:{a}|{y}" for a in animals for y in _years(rows)):
                a, y = k[2:].split("|")
                self.licenses.add((int(a), int(y)))


def _years(rows):
    return {r[5] for r in rows if r[5]}
