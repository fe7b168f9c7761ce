"""A veterinary clinic's file of rabies certificates (s. 95.21(2)(b): the veterinarian's
certificate and its copies): the documented layout, the clinic's own columns mapped onto it, and
the check the worker runs before anything is written.

The layout is Dogtag's import columns (imports/columns.py) for a certificate, with the dog
license tag number beside them. A clinic's export names them its own way; its columns are mapped
once and remembered (imports.models.Clinic). Each row is checked column by column with the
import's own conversion and the certificate's own rules (RabiesVaccination.clean), then matched
to an animal of the municipality and its owner: by microchip, by the dog license tag, or by the
owner's name and street (the import's match key) with the animal's name and species. A row that
matches nothing, or two animals, is listed with why; a row with a bad cell is listed with its line
and column and nothing of it is written."""

from collections import defaultdict
from datetime import date
from itertools import islice

from django.db.models import Q

from dogtag.imports.columns import COLUMNS, Column
from dogtag.imports.files import open_table
from dogtag.licensing import law
from dogtag.licensing.models import License, Tag
from dogtag.registry.models import Animal, Ownership, Person, RabiesVaccination
from dogtag.registry.names import normalise, person_key
from dogtag.rules.licensing import license_year_of

LICENSE_TAG = "license_tag"
# Dogtag's column, what it holds, whether every row must give it. The certificate's columns are
# the fields s. 95.21(2)(b) has the certificate state; the rest find the animal.
LAYOUT = (
    ("rabies_certificate", "Certificate serial number", True),
    ("vaccinated_on", "Vaccination date", True),
    ("rabies_expires_on", "Expiration date", True),
    ("vaccine_type", "Vaccine type (e.g. killed virus, 3-year)", True),
    ("vaccine_serial", "Vaccine manufacturer's serial number", True),
    ("rabies_tag", "Rabies tag number", True),
    ("veterinarian_name", "Veterinarian's name", True),
    ("veterinarian_address", "Veterinarian's address", True),
    ("veterinarian_phone", "Veterinarian's telephone", True),
    ("microchip", "Microchip number", False),
    (LICENSE_TAG, "Dog license tag number", False),
    ("owner_name", "Owner's name", False),
    ("owner_street", "Owner's street address", False),
    ("animal_name", "Animal's name", False),
    ("species", "Species (dog, cat)", False),
    ("breed", "Breed", False),
    ("color", "Color", False),
    ("sex", "Sex (male, female)", False),
    ("altered", "Spayed or neutered (yes, no)", False),
)
LABELS = {column: label for column, label, _ in LAYOUT}
REQUIRED = [column for column, _, required in LAYOUT if required]
# A row is matched by one of these: a microchip, a license tag, or owner, street and animal name.
MATCHED_BY = ("microchip", LICENSE_TAG, ("owner_name", "owner_street", "animal_name"))
# The certificate's field each column fills: the import's own for the certificate's columns; the
# animal and owner as the certificate states them, the registry's where the file leaves them blank.
FIELD = {column: name for column, (record, name) in COLUMNS.items() if record == "vaccination"}
FIELD |= {column: column for column in ("owner_name", "animal_name", "breed", "color", "sex", "altered")}
COLUMN_OF = {name: column for column, name in FIELD.items()}
BATCH = 1000
SHOWN = 1000  # rows listed on the page for each kind; the rest are counted
BLANK = "This field cannot be blank."


def guess(header: list, remembered: dict) -> dict:
    """Each layout column's header in this file: the one remembered for the clinic where the file
    has it, else a header that reads as the column's name or its label."""
    by_text = {normalise(h.replace("_", " ")): h for h in header if h}
    found = {}
    for column, label, _ in LAYOUT:
        if remembered.get(column) in header:
            found[column] = remembered[column]
        else:
            h = by_text.get(normalise(column.replace("_", " "))) or by_text.get(normalise(label.split(" (")[0]))
            if h:
                found[column] = h
    return found


def mapping_problems(columns: dict, header: list) -> dict:
    """{layout column: why} for a mapping that cannot be checked: a required column or a way to
    match the animal missing, or a header the file lacks."""
    problems = {
        c: f"Choose the file's column for {LABELS[c].split(' (')[0].lower()}." for c in REQUIRED if c not in columns
    }
    for column, h in columns.items():
        if h not in header:
            problems[column] = f"The file has no column {h!r}."
    if not any(all(c in columns for c in ((m,) if isinstance(m, str) else m)) for m in MATCHED_BY):
        problems["microchip"] = (
            "Choose a column to find each animal by: its microchip, its dog license tag, "
            "or its owner's name and street with the animal's name."
        )
    return problems


class Check:
    """The worker's check of a clinic's file, batch by batch; `summary()` is what the page shows
    and what the write records (`certificates`: the checked fields of each matched row)."""

    def __init__(self, municipality, columns: dict, date_format: str, on: date):
        self.m, self.columns, self.on = municipality, columns, on
        self.convert = {c: Column(c, date_format) for c in columns if c in COLUMNS}
        self.year = license_year_of(law.pack_of(municipality, on), on)
        self.rows = 0
        self.serials = {}  # serial -> its first line in the file
        self.problems, self.unmatched, self.matched, self.certificates = [], [], [], []
        self.invalid_lines = set()
        self.unlicensed = []

    def run(self, path, name) -> dict:
        table = open_table(path, name)
        place = {c: table.header.index(h) for c, h in self.columns.items()}
        rows = iter(table.rows)
        while batch := list(islice(rows, BATCH)):
            self.batch(
                [line for line, _ in batch], {c: [_cell(cells, i) for _, cells in batch] for c, i in place.items()}
            )
        return self.summary()

    def problem(self, line, column, value, rule):
        self.invalid_lines.add(line)
        self.problems.append([line, self.columns.get(column, LABELS.get(column, column)), value[:200], rule])

    def batch(self, lines: list, raws: dict) -> None:
        self.rows += len(lines)
        values, bad = {}, defaultdict(bool)
        for column, convert in self.convert.items():
            values[column], refused = convert.convert(raws[column])
            for i, rule in refused:
                self.problem(lines[i], column, raws[column][i], rule)
                bad[i] = True
        tags = raws.get(LICENSE_TAG, [""] * len(lines))
        for i, raw in enumerate(tags):
            if raw and not (raw.isascii() and raw.isdigit()):
                self.problem(lines[i], LICENSE_TAG, raw, "a tag number: digits only")
                bad[i] = True
        for column in REQUIRED:
            for i, raw in enumerate(raws[column]):
                if not raw:
                    self.problem(lines[i], column, raw, BLANK)
                    bad[i] = True
        for i, serial in enumerate(raws["rabies_certificate"]):
            if serial and not bad[i]:
                first = self.serials.setdefault(serial, lines[i])
                if first != lines[i]:
                    self.problem(lines[i], "rabies_certificate", serial, f"the same certificate as line {first}")
                    bad[i] = True
        good = [i for i in range(len(lines)) if not bad[i]]
        row = [{c: values[c][i] if c in values else raws[c][i] for c in raws} for i in range(len(lines))]
        for i in good:
            row[i][LICENSE_TAG] = int(tags[i]) if tags[i] else None
        self.match(lines, row, good, raws)

    def match(self, lines, row, good, raws) -> None:
        m = self.m
        chips = {row[i].get("microchip") for i in good} - {None, ""}
        by_chip = dict(Animal.objects.filter(municipality=m, microchip__in=chips).values_list("microchip", "pk"))
        serials = {row[i][LICENSE_TAG] for i in good} - {None}
        by_tag = {}
        for serial, animal in (
            Tag.objects.filter(municipality=m, serial__in=serials, status=Tag.Status.ISSUED, license__isnull=False)
            .order_by("license_year")
            .values_list("serial", "license__animal_id")
        ):
            by_tag[serial] = animal  # the latest year's tag of that number
        keys = {person_key(row[i]["owner_name"], row[i]["owner_street"]) for i in good if row[i].get("owner_name")}
        people = dict(
            Person.objects.filter(municipality=m, match_key__in=keys).order_by("-pk").values_list("match_key", "pk")
        )
        by_owner = {}
        for person, animal, name, species in (
            self.owned()
            .filter(municipality=m, person_id__in=people.values())
            .values_list("person_id", "animal_id", "animal__name", "animal__species")
        ):
            by_owner.setdefault((person, normalise(name), species), animal)
        self.recorded = set(
            RabiesVaccination.objects.filter(
                municipality=m, certificate_serial__in=[row[i]["rabies_certificate"] for i in good]
            ).values_list("certificate_serial", flat=True)
        )
        found = {}
        for i in good:
            found[i] = self.find(row[i], by_chip, by_tag, people, by_owner)
        ids = {a for a, _ in found.values() if a}
        animals = Animal.objects.in_bulk(ids)
        owners = {
            o.animal_id: o.person
            for o in self.owned().filter(animal_id__in=ids).select_related("person").order_by("pk")
        }
        licensed = set(
            License.objects.filter(animal_id__in=ids, license_year=self.year, voided_at=None).values_list(
                "animal_id", flat=True
            )
        )
        for i in good:
            animal_id, how = found[i]
            r = row[i]
            if animal_id is None:
                self.unmatched.append([lines[i], r.get("owner_name", ""), r.get("animal_name", ""), how])
                continue
            raw = {c: cells[i] for c, cells in raws.items()}
            self.certificate(lines[i], r, raw, animals[animal_id], owners.get(animal_id), how, animal_id in licensed)

    def owned(self):
        """Ownerships not ended before the day of the check: the owner on record now."""
        return Ownership.objects.filter(Q(ended_on__isnull=True) | Q(ended_on__gte=self.on))

    def find(self, r, by_chip, by_tag, people, by_owner) -> tuple:
        """(animal id, how it was found), or (None, why not)."""
        chip, tag = r.get("microchip"), r.get(LICENSE_TAG)
        owner_key = person_key(r["owner_name"], r["owner_street"]) if r.get("owner_name") else None
        candidates = []
        if chip and chip in by_chip:
            candidates.append((by_chip[chip], f"microchip {chip}"))
        if tag and tag in by_tag:
            candidates.append((by_tag[tag], f"license tag {tag}"))
        if owner_key in people and r.get("animal_name"):
            key = (people[owner_key], normalise(r["animal_name"]), r.get("species") or "dog")
            if key in by_owner:
                candidates.append((by_owner[key], "owner's name, street and animal's name"))
        if len({a for a, _ in candidates}) > 1:
            return None, _sentence(
                " and ".join(how for _, how in candidates) + " name different animals; check the row"
            )
        if candidates:
            return candidates[0]
        why = []
        if chip:
            why.append(f"no animal has microchip {chip}")
        if tag:
            why.append(f"no license tag {tag} is issued")
        if owner_key:
            if owner_key not in people:
                why.append(f"no owner {r['owner_name']!r} at {r.get('owner_street', '')!r}")
            elif r.get("animal_name"):
                why.append(f"{r['owner_name']} has no {r.get('species') or 'dog'} named {r['animal_name']!r}")
        if not why:
            return None, "The row gives no microchip, license tag or owner to find the animal by."
        return None, _sentence("; ".join(why))

    def certificate(self, line, r, raw, animal, owner, how, licensed) -> None:
        fields = {FIELD[c]: v for c, v in r.items() if c in FIELD and v not in (None, "")}
        registry = {
            "owner_name": owner.name if owner else "",
            "owner_address": owner.address if owner else "",
            "animal_name": animal.name,
            "sex": animal.sex,
            "altered": animal.altered,
            "breed": animal.breed,
            "color": animal.color,
        }
        fields = {**registry, **fields}
        vaccination = RabiesVaccination(municipality_id=self.m.pk, animal=animal, **fields)
        errors = vaccination.date_problems()  # the certificate's own rules; its serial, a batch at once
        if vaccination.certificate_serial in self.recorded:
            errors["certificate_serial"] = f"Certificate {vaccination.certificate_serial} is already recorded."
        if errors:
            for field, message in errors.items():
                column = COLUMN_OF.get(field, field)
                self.problem(line, column, raw.get(column, ""), message)
            return
        self.certificates.append([line, {"animal_id": animal.pk, **{k: _json(v) for k, v in fields.items()}}])
        self.matched.append(
            [line, fields["certificate_serial"], animal.name, owner.name if owner else "", how, licensed]
        )
        if not licensed:
            self.unlicensed.append(animal.pk)

    def summary(self) -> dict:
        self.problems.sort()
        return {
            "rows": self.rows,
            "matched": len(self.matched),
            "unmatched": len(self.unmatched),
            "invalid": len(self.invalid_lines),
            "unlicensed": len(self.unlicensed),
            "license_year": self.year,
            "matched_rows": self.matched[:SHOWN],
            "unmatched_rows": self.unmatched[:SHOWN],
            "problems": self.problems[:SHOWN],
            "problems_found": len(self.problems),
            "unlicensed_animals": self.unlicensed,
            "certificates": self.certificates,
        }


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _cell(cells, i) -> str:
    return cells[i].strip() if i < len(cells) else ""


def _json(value):
    return value.isoformat() if isinstance(value, date) else value
