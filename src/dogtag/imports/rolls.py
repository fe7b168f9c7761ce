"""Reading an old system's roll (CSV or Excel) and planning its import, batch by batch.

A roll has one row per dog (or per dog and license year): its owner, the dog, optionally its
rabies certificate and a past license. Columns are Dogtag's field names (imports/columns.py)
unless a mapping file names the columns of another layout:

    columns: {owner_name: "Owner", animal_name: "Dog", birth_date: "DOB"}
    date_format: "%m/%d/%Y"
    values: {sex: {M: male, F: female}, altered: {Y: "yes", N: "no"}}
    defaults: {species: dog, owner_state: WI}
    encoding: cp1252          # optional; found from the file otherwise

The plan matches owners (same name and address, normalised), animals (same microchip, or the
same owner, name and species), certificates and licenses already recorded, so a rerun adds
nothing; checks each batch column by column against the models' fields, then each row against
the models' own `clean()`. The file is read as it streams: a plan holds counts, the first
problems found, and the keys it matches on, never the rows.
"""

import hashlib
from dataclasses import dataclass, field
from datetime import date
from itertools import islice
from pathlib import Path

import yaml
from django.core.exceptions import ValidationError
from django.db.models import Max

from dogtag.imports import plans
from dogtag.imports.bulk import Maker, reserve_ids
from dogtag.imports.columns import COLUMNS, Column
from dogtag.imports.files import RollError, open_table
from dogtag.imports.matching import Found, Scratch, recorded
from dogtag.lib import collector
from dogtag.lib.dates import today
from dogtag.licensing import law
from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Person, RabiesVaccination
from dogtag.registry.names import normalise, person_key
from dogtag.rules.decision import ZERO

__all__ = ["COLUMNS", "Mapping", "Plan", "Planner", "RollError", "plan"]

REQUIRED = ("owner_name", "animal_name")
DEFAULTS = {"species": "dog", "owner_state": "WI", "sex": "unknown"}
BATCH_SIZE = 5000
SHOWN = 1000  # problems and repeated lines kept to show; the rest are counted
FIELD_OF = {(record, name): column for column, (record, name) in COLUMNS.items()}
OF_RECORD = {
    r: [(c, name) for c, (rr, name) in COLUMNS.items() if rr == r]
    for r in ("person", "animal", "vaccination", "license")
}
BLANK = "This field cannot be blank."


@dataclass
class Mapping:
    columns: dict = field(default_factory=dict)  # Dogtag column -> the file's header
    date_format: str = "%Y-%m-%d"
    values: dict = field(default_factory=dict)
    defaults: dict = field(default_factory=dict)
    encoding: str = ""

    @classmethod
    def load(cls, path) -> "Mapping":
        return cls.parse(Path(path).read_bytes() if path else None)

    @classmethod
    def parse(cls, text) -> "Mapping":
        if not text:
            return cls()
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError as e:
            raise RollError(f"The mapping is not valid YAML: {e}") from e
        if not isinstance(data, dict) or not all(
            isinstance(data.get(k, {}), dict) for k in ("columns", "values", "defaults")
        ):
            raise RollError("The mapping is a YAML mapping with columns:, date_format:, values: and defaults:.")
        for section in ("columns", "values", "defaults"):
            unknown = set(data.get(section, {})) - set(COLUMNS)
            if unknown:
                raise RollError(
                    f"The mapping's {section}: names unknown columns: {', '.join(sorted(map(str, unknown)))}; "
                    f"known: {', '.join(COLUMNS)}"
                )
        return cls(
            {k: str(v) for k, v in data.get("columns", {}).items()},
            str(data.get("date_format", "%Y-%m-%d")),
            {k: {str(a): str(b) for a, b in (v or {}).items()} for k, v in data.get("values", {}).items()},
            {k: str(v) for k, v in data.get("defaults", {}).items()},
            str(data.get("encoding", "") or ""),
        )

    def shown(self, column: str) -> str:
        return self.columns.get(column, column)


@dataclass
class Problem:
    line: int
    column: str
    value: str
    rule: str


@dataclass
class RowPlan:
    """One valid row: references are pks (negative in a dry run for records not yet written)
    and the new records to write (None where the row matched one already here)."""

    line: int
    key: str
    person: int
    animal: int
    vaccination: int | None
    license: int | None
    new_person: Person | None = None
    new_animal: Animal | None = None
    new_vaccination: RabiesVaccination | None = None
    new_license: License | None = None


@dataclass
class Plan:
    file_name: str
    sha256: str
    read_as: str = ""
    rows: int = 0
    valid: int = 0
    already: int = 0
    resumed_past: int = 0  # rows this same run wrote before it was interrupted
    repeated: int = 0
    duplicates: list = field(default_factory=list)  # the first lines repeating an earlier line
    invalid: int = 0
    problems: list = field(default_factory=list)  # the first problems found
    problems_found: int = 0
    invalid_lines: set = field(default_factory=set)
    owners_new: int = 0
    owners_matched: int = 0
    animals_new: int = 0
    animals_matched: int = 0
    vaccinations_new: int = 0
    licenses_new: int = 0
    kept: str = ""  # the plan kept for the write (imports/plans.py), and the audit event it was made as of
    as_of: int | None = None

    def refuse(self, line, problems):
        self.invalid += 1
        if len(self.invalid_lines) < SHOWN:
            self.invalid_lines.add(line)
        self.problems_found += len(problems)
        self.problems += problems[: max(0, SHOWN - len(self.problems))]

    def repeat(self, line):
        self.repeated += 1
        if len(self.duplicates) < SHOWN:
            self.duplicates.append(line)


class _Ids:
    """Ids for new records: reserved from the database when the plan is to be written, one block
    per kind and batch, as many as the batch has rows (a row makes at most one record of each
    kind; the rest are gaps, as a rolled-back insert leaves); stand-ins counting down from -1 in a
    dry run."""

    def __init__(self, write: bool):
        self.write, self.pools, self.next_standin, self.size = write, {}, -1, BATCH_SIZE

    def batch(self, rows: int) -> None:
        self.pools, self.size = {}, max(rows, 1)

    def new(self, model) -> int:
        if not self.write:
            self.next_standin -= 1
            return self.next_standin + 1
        pool = self.pools.setdefault(model, [])
        if not pool:
            pool.extend(reversed(reserve_ids(model, self.size)))
        return pool.pop()


def columns_found(header, mapping, name, read_as) -> dict:
    """Where each Dogtag column is in the file; a roll without an owner's or an animal's name, or
    with a column Dogtag reads twice (which one holds the value?), is refused whole."""
    where = {}
    for column in COLUMNS:
        source = mapping.shown(column)
        if header.count(source) > 1:
            raise RollError(
                f"{name} (read as {read_as}) has the column {source!r} {header.count(source)} times; "
                "keep one and import it again"
            )
        if source in header:
            where[column] = header.index(source)
    missing = [mapping.shown(c) for c in REQUIRED if c not in where]
    if missing:
        raise RollError(
            f"{name} (read as {read_as}) has no column {' or '.join(repr(m) for m in missing)}; "
            f"its columns are {header[:40]}"
        )
    return where


def row_key(raw: dict) -> str:
    """The natural key of a row as mapped: the same row imported twice is the same key."""
    return hashlib.sha256("\x1f".join(map("=".join, sorted(raw.items()))).encode()).hexdigest()


class Planner:
    """The plan of one roll, made batch by batch as the file streams (see `batches`)."""

    def __init__(
        self, municipality, path, name, mapping=None, on=None, *, write=False, keep=False, encoding="", run=None
    ):
        """`write`: the rows are being written (each batch matches what earlier ones wrote);
        `keep`: a check whose plan is kept for the write, its new records' ids reserved."""
        self.municipality, self.m = municipality, municipality.pk
        self.run_id, self.write, self.keep = (run.pk if run else None), write, keep
        self.mapping = mapping or Mapping()
        self.on = on or today()
        self.table = open_table(path, name, encoding or self.mapping.encoding)
        self.plan = Plan(name, _sha256(path), read_as=self.table.read_as)
        self.where = columns_found(self.table.header, self.mapping, name, self.table.read_as)
        self.defaults = {**DEFAULTS, **self.mapping.defaults}
        self.columns = {c: Column(c, self.mapping.date_format) for c in {**self.where, **self.defaults}}
        self.ids = _Ids(write or keep)
        # Records on record before this plan began; a higher id was written by this run itself
        # (an earlier batch), a negative one is a dry run's stand-in.
        self.last_person = _last_id(Person, self.m)
        self.last_animal = _last_id(Animal, self.m)
        self.used_people, self.used_animals = set(), set()
        self.expiry_of = {}
        self.make = {model: Maker(model) for model in (Person, Animal, RabiesVaccination, License)}
        self.cleaned = {}

    def batches(self, batch_size=BATCH_SIZE):
        """The valid rows of each batch of `batch_size` source rows, as RowPlans."""
        rows = ((line, cells) for line, cells in self.table.rows if any(c.strip() for c in cells))
        self.scratch = Scratch()
        kept = None
        if self.keep:
            self.plan.as_of, kept = plans.latest_event(), plans.Writer()
        try:
            while batch := list(islice(rows, batch_size)):
                self.plan.rows += len(batch)
                mapped = self.not_imported_yet(self.mapped(batch))
                self.ids.batch(len(mapped))
                typed = list(self.typed(mapped))
                self.found = Found(self.m, None if self.write else self.scratch, [_keys(t[2]) for t in typed])
                todo = []
                for line, raw, values, problems in typed:
                    planned = self.checked(line, raw, values, problems)
                    if planned:
                        todo.append(planned)
                self.plan.valid += len(todo)
                self.scratch.flush()
                if kept and todo:
                    kept.add(todo)
                yield todo
            if kept:
                self.plan.kept, kept = kept.close(), None
        finally:
            self.found = None
            self.scratch.close()
            if kept:
                kept.discard()

    def mapped(self, batch):
        """(line, {column: text}) with the mapping's values and defaults applied."""
        where, values, defaults = self.where, self.mapping.values, self.defaults
        out = []
        for line, cells in batch:
            n = len(cells)
            raw = {c: (cells[i].strip() if i < n else "") for c, i in where.items()}
            for column, table in values.items():
                if column in raw and raw[column] in table:
                    raw[column] = table[raw[column]]
            for column, value in defaults.items():
                if not raw.get(column):
                    raw[column] = value
            out.append((line, raw))
        return out

    def not_imported_yet(self, rows):
        """Rows neither imported by an earlier run (their key is recorded) nor repeating an earlier
        line of this file (its key is in the scratch table, or earlier in the batch)."""
        keyed = [(line, raw, row_key(raw)) for line, raw in rows]
        keys = [k for _, _, k in keyed]
        done = recorded(self.m, keys)
        seen = {k[2:] for k in self.scratch.get("r:" + k for k in keys)}
        out = []
        for line, raw, key in keyed:
            if key in seen:
                self.plan.repeat(line)
                continue
            if key in done and done[key] != self.run_id:  # a line repeating it is "already" too
                self.plan.already += 1
                continue
            if key in done:  # written before this run was interrupted
                self.plan.resumed_past += 1
            else:
                out.append((line, raw, key))
            seen.add(key)
            self.scratch.add("r:" + key)
        return out

    def typed(self, rows):
        """Each row's values by record, checked column by column over the whole batch."""
        converted, problems = {}, {}
        for column, checker in self.columns.items():
            converted[column], refused = checker.convert([raw.get(column, "") for _, raw, _ in rows])
            shown = self.mapping.shown(column)
            for i, rule in refused:
                problems.setdefault(i, []).append(Problem(rows[i][0], shown, rows[i][1].get(column, ""), rule))
        present = [(r, [(name, converted[c]) for c, name in pairs if c in converted]) for r, pairs in OF_RECORD.items()]
        for i, (line, raw, key) in enumerate(rows):
            records = {r: {name: values[i] for name, values in pairs} for r, pairs in present}
            yield line, (raw, key), records, problems.get(i)

    def checked(self, line, raw_key, values, problems):
        raw, key = raw_key
        if problems:
            self.plan.refuse(line, problems)
            return None
        row = _Row(self, line, raw, values)
        person, new_person = self.owner(row)
        animal, new_animal = self.animal(row, person)
        vaccination, new_vaccination = self.certificate(row, animal, new_animal)
        license, new_license = self.past_license(row, animal)
        if row.problems:
            # The certificate repeats the animal's sex, breed and color: one line per reason.
            self.plan.refuse(line, list({(p.column, p.value, p.rule): p for p in row.problems}.values()))
            return None
        person, animal, vaccination, license = self.register(
            row, person, new_person, animal, new_animal, vaccination, new_vaccination, license, new_license
        )
        return RowPlan(
            line, key, person, animal, vaccination, license, new_person, new_animal, new_vaccination, new_license
        )

    def owner(self, row):
        """The owner: one already here or earlier in the file with the same name and address
        (normalised: registry/names.py), else a new person."""
        p = row.fields("person")
        row.owner_key = person_key(p["name"], p.get("street", ""))
        found = self.found.people.get(row.owner_key)
        if found:
            return found, None
        row.required("person", p)
        return None, self.make[Person](municipality_id=self.m, match_key=row.owner_key, **p)

    def animal(self, row, person):
        """The animal: the same microchip, or the same owner, name and species, else a new one,
        checked by the model's own rules (its microchip's uniqueness is matched here instead)."""
        a = row.fields("animal")
        chip = a.get("microchip", "")
        row.animal_key = (person, normalise(a["name"]), a.get("species"))
        found = self.found.chips.get(chip) if chip else None
        if found is None and person:
            found = self.found.animals.get(row.animal_key)
        if found:
            return found, None
        row.required("animal", a)
        animal = self.make[Animal](municipality_id=self.m, **a)
        animal.microchip = ""
        row.model_rules(animal, "animal")
        animal.microchip = chip
        return None, animal

    def certificate(self, row, animal, new_animal):
        """The rabies certificate, unless already recorded; one recorded for another animal is
        refused."""
        v = dict(row.fields("vaccination"))
        serial = v.pop("certificate_serial", "")
        if not serial:
            return None, None
        holder = self.found.certificates.get(serial)
        if holder is not None:
            if animal is None or holder != animal:
                row.problem(
                    "rabies_certificate", serial, f"Certificate {serial} is already recorded for another animal."
                )
            return None, None
        p, a = row.fields("person"), row.fields("animal")
        vaccination = self.make[RabiesVaccination](
            municipality_id=self.m,
            certificate_serial="",
            owner_name=p["name"],
            owner_address=row.address,
            animal_name=a["name"],
            sex=a.get("sex", ""),
            altered=bool(a.get("altered")),
            breed=a.get("breed", ""),
            color=a.get("color", ""),
            **v,
        )
        d = vaccination.__dict__
        row.required("vaccination", d)
        born = new_animal.birth_date if new_animal else self.found.births.get(animal)
        row.model_rules(vaccination, "vaccination", born)
        d["certificate_serial"] = serial
        return None, vaccination

    def past_license(self, row, animal):
        """A past license, unless the animal already has one for that year; its expiry as the
        rule pack says for the day it was issued."""
        lic = row.fields("license")
        year = lic.get("license_year")
        if not year or (animal and (animal, year) in self.found.licenses):
            return None, None
        issued_on = lic.get("issued_on")
        if issued_on is None:
            row.problem("license_issued_on", "", "A past license needs the date it was issued.")
            return None, None
        if (issued_on, year) not in self.expiry_of:
            self.expiry_of[(issued_on, year)] = law.ask(
                self.municipality, "license_expiry", {"issued_on": issued_on, "license_year": year}, self.on, {}
            ).value.expires
        p, a = row.fields("person"), row.fields("animal")
        license = self.make[License](
            municipality_id=self.m,
            license_year=year,
            serial=lic.get("serial") or 0,
            issued_on=issued_on,
            expires_on=self.expiry_of[(issued_on, year)],
            tax=ZERO if lic.get("tax") is None else lic["tax"],
            late_fee=ZERO if lic.get("late_fee") is None else lic["late_fee"],
            owner_name=p["name"],
            owner_address=row.address,
            animal_name=a["name"],
            species=a.get("species", ""),
            sex=a.get("sex", ""),
            altered=bool(a.get("altered")),
            breed=a.get("breed", ""),
            color=a.get("color", ""),
            county=self.municipality.county,
        )
        return None, license

    def register(self, row, person, new_person, animal, new_animal, vaccination, new_vaccination, license, new_license):
        """A valid row's new records get their ids, and their keys, so later rows match them
        (this batch's through `found`, later batches' in a dry run through the scratch table)."""
        plan, found, scratch = self.plan, self.found, None if self.write else self.scratch
        if new_person is not None:
            person = new_person.__dict__["id"] = self.ids.new(Person)
            found.people[row.owner_key] = person
            if scratch:
                scratch.add("o:" + row.owner_key, person)
        if new_animal is not None:
            animal = new_animal.__dict__["id"] = self.ids.new(Animal)
            key = (person, *row.animal_key[1:])
            found.animals[key] = animal
            born = new_animal.birth_date
            if born:
                found.births[animal] = born
            if new_animal.microchip:
                found.chips[new_animal.microchip] = animal
            if scratch:
                aux = born.toordinal() if born else None
                scratch.add(f"a:{key[0]}|{key[1]}|{key[2]}", animal, aux)
                if new_animal.microchip:
                    scratch.add("c:" + new_animal.microchip, animal, aux)
        if new_vaccination is not None:
            d = new_vaccination.__dict__
            vaccination = d["id"] = self.ids.new(RabiesVaccination)
            d["animal_id"] = animal
            found.certificates[new_vaccination.certificate_serial] = animal
            if scratch:
                scratch.add("v:" + new_vaccination.certificate_serial, animal)
            plan.vaccinations_new += 1
        if new_license is not None:
            d = new_license.__dict__
            license = d["id"] = self.ids.new(License)
            d["animal_id"], d["holder_id"] = animal, person
            found.licenses.add((animal, new_license.license_year))
            if scratch:
                scratch.add(f"l:{animal}|{new_license.license_year}")
            plan.licenses_new += 1
        if new_person is not None:
            plan.owners_new += 1
        elif 0 < person <= self.last_person and person not in self.used_people:
            self.used_people.add(person)
            plan.owners_matched += 1
        if new_animal is not None:
            plan.animals_new += 1
        elif 0 < animal <= self.last_animal and animal not in self.used_animals:
            self.used_animals.add(animal)
            plan.animals_matched += 1
        return person, animal, vaccination, license


def _last_id(model, m) -> int:
    return model.objects.filter(municipality_id=m).aggregate(last=Max("pk"))["last"] or 0


def _keys(records) -> tuple:
    """What a row is matched on (imports/matching.py, Found)."""
    p, a, v, lic = records["person"], records["animal"], records["vaccination"], records["license"]
    return (
        person_key(p.get("name") or "", p.get("street") or ""),
        normalise(a.get("name") or ""),
        a.get("species"),
        a.get("microchip") or "",
        v.get("certificate_serial") or "",
        lic.get("license_year"),
    )


class _Row:
    """One row while its records are checked: its values by record and the problems found."""

    def __init__(self, planner, line, raw, records):
        self.planner, self.line, self.raw, self.records = planner, line, raw, records
        self.problems = []
        p = records["person"]
        self.address = ", ".join(x for x in (p.get("street"), p.get("city"), p.get("state"), p.get("postal_code")) if x)

    def fields(self, record) -> dict:
        return self.records[record]

    def problem(self, column, value, rule):
        self.problems.append(Problem(self.line, self.planner.mapping.shown(column), value, rule))

    def required(self, record, values):
        for attname, column in _required(record):
            if values.get(attname) in ("", None):
                self.problem(column, "", BLANK)

    def model_rules(self, instance, record, born=None):
        """The model's own `clean()`, its outcome remembered by the values it reads (READ_BY_CLEAN;
        a certificate's also by its animal's birth date, `born`)."""
        d = instance.__dict__
        key = (type(instance), born, *(d[name] for name in READ_BY_CLEAN[type(instance)]))
        errors = self.planner.cleaned.get(key)
        if errors is None:
            if instance.__class__ is RabiesVaccination:
                # A stand-in animal: the model compares the dates with its birth date.
                d["animal_id"] = -1
                RabiesVaccination.animal.field.set_cached_value(instance, self.planner.make[Animal](birth_date=born))
            try:
                instance.clean()
                errors = {}
            except ValidationError as e:
                errors = e.message_dict
            finally:
                d["animal_id"] = None
                instance._state.fields_cache.pop("animal", None)
            if len(self.planner.cleaned) > 10_000:
                self.planner.cleaned.clear()
            self.planner.cleaned[key] = errors
        for name, messages in errors.items():
            column = FIELD_OF.get((record, name), name)
            for message in messages:
                self.problem(column, self.raw.get(column, ""), message)


# What each model's clean() reads (its uniqueness checks apart, made in bulk by the plan): the
# outcome for one set of these values is the outcome for every row that has them.
# tests/imports/test_columns.py checks this list against what clean() really reads.
READ_BY_CLEAN = {
    Animal: ("birth_date", "acquired_on", "brought_in_on", "species", "sex", "altered", "altered_evidence"),
    RabiesVaccination: ("vaccinated_on", "expires_on"),  # and the animal's birth date
}


_REQUIRED_FIELDS = {}


def _required(record):
    """(attname, column) of each field a new record from a roll must have (not blank, no default)."""
    if record not in _REQUIRED_FIELDS:
        model = {"person": Person, "animal": Animal, "vaccination": RabiesVaccination}[record]
        skip = {"municipality", "animal", "premises", "certificate_serial", "altered"}
        _REQUIRED_FIELDS[record] = [
            (f.attname, FIELD_OF.get((record, f.name), f.name))
            for f in model._meta.concrete_fields
            if not f.blank and not f.primary_key and not f.has_default() and f.name not in skip
        ]
    return _REQUIRED_FIELDS[record]


def _sha256(path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def plan(
    municipality,
    path,
    name=None,
    mapping: Mapping | None = None,
    on: date | None = None,
    encoding="",
    *,
    keep=False,
    batch_size=BATCH_SIZE,
) -> Plan:
    """What importing the roll at `path` would do; writes no record (with `keep`, the plan is
    kept for the write: imports/plans.py)."""
    planner = Planner(municipality, path, name or Path(path).name, mapping, on, encoding=encoding, keep=keep)
    with collector.paused():
        for _ in planner.batches(batch_size):
            pass
    return planner.plan
