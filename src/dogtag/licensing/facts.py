"""Every read the licensing law needs, and nowhere else in the decision: the pack on the day, the
fee schedule, the animal's licenses in force (its own or a multiple-dog license covering it), its
rabies certificates and the animals kept with it, as plain values `owed.what_is_owed` decides
from; and the issue's own reads, the animal and its owner on the day. Each read is one statement
for the set it answers."""

from dataclasses import dataclass, replace
from datetime import date

from django.db import connections, router

from dogtag.lean import CompiledRows
from dogtag.lib.meta import field_names
from dogtag.licensing.models import FeeScheduleEntry, License
from dogtag.registry import rulings
from dogtag.registry.models import Animal, Municipality, Ownership, Person, RabiesVaccination
from dogtag.rules.amounts import NO_LOCAL_AMOUNTS, LocalAmounts
from dogtag.rules.licensing import license_year_bounds, license_year_of
from dogtag.rules.packs import Pack


@dataclass(frozen=True)
class LicensingFacts:
    """What the law decides a license from, for one animal, day and license year. `priced_on`:
    the day the charges are priced on, the license year's first day for a license sold ahead of
    its year (`priced_pack`, the pack as it stands that day). `in_force`: the year's licenses not
    void that are the animal's own or a multiple-dog license covering it. `certificates`: its
    rabies certificates not void (an unsaved one of the portal's among them, as given)."""

    animal: Animal
    on: date
    license_year: int
    pack: Pack
    priced_on: date
    priced_pack: Pack
    local: LocalAmounts = NO_LOCAL_AMOUNTS
    in_force: tuple[License, ...] = ()
    certificates: tuple[RabiesVaccination, ...] = ()


def read_facts(animal: Animal, on: date, license_year: int | None = None) -> LicensingFacts:
    """The facts for licensing `animal` on `on` (for `license_year`, else the year `on` falls in).
    Nothing past the pack is read for an animal the law cannot price: a species it does not
    license, or a birth date unknown (the decision refuses those from the animal alone)."""
    pack = rulings.pack_on(animal.municipality, on)
    lic = pack.licensing
    year = license_year or license_year_of(pack, on)
    # A license sold ahead of its year (next year's, in December) is priced as that year's law
    # stands when the year begins, not as today's.
    priced_on = max(on, license_year_bounds(pack, year)[0])
    priced_pack = pack if priced_on == on else rulings.pack_on(animal.municipality, priced_on)
    facts = LicensingFacts(animal, on, year, pack, priced_on, priced_pack)
    if animal.species not in lic.species.species or animal.birth_date is None:
        return facts
    return replace(
        facts,
        local=local_amounts(animal.municipality),
        in_force=licenses_in_force(animal, year, bool(pack.multiple_dog and pack.multiple_dog.license)),
        certificates=_certificates(animal) if lic.requires_current_rabies is not None else (),
    )


def local_amounts(municipality) -> LocalAmounts:
    """The amounts the municipality's clerk has set in its fee schedule, by key and effective day."""
    by_key: dict[str, dict[date, object]] = {}
    for key, effective_on, amount in _FEES.rows(router.db_for_read(FeeScheduleEntry), municipality=municipality.pk):
        by_key.setdefault(key, {})[effective_on] = amount
    return LocalAmounts.of(by_key)


def own_licenses(animal_id: int):
    """The animal's own licenses of every year, void or not (`licenses_in_force` keeps the year's
    in force), read by the animal's index alone: a condition on the year or on `voided_at` (which
    the one-license-per-year index is partial on), or a join, lets a planner whose statistics
    predate the year's licenses (a new license year, before autoanalyze) read every license of
    the year, believing there are none; so does an order by id, by the primary key's index
    (tests/licensing/test_plans.py)."""
    return License.objects.filter(animal_id=animal_id).order_by()


def covering_ids(animal_id: int):
    """The multiple-dog licenses covering the animal, as ids from the covered animals' index; read
    apart from the licenses for the same reason."""
    return License.covered_animals.through.objects.filter(animal_id=animal_id).values_list("license_id")


# Licensing's own reads of every decision, compiled once per database (dogtag/lean.py
# `CompiledRows`) and made into models from their rows: the rabies certificates' read costs 0.16 ms
# of CPU so, 0.93 ms compiled on each call (PostgreSQL, in-process; bench/RESULTS.md).
_LICENSE_FIELDS = field_names(License)
_STAND_IN = 2_147_481_001  # an id no row holds
_OWN = CompiledRows(lambda animal: own_licenses(animal).values_list(*_LICENSE_FIELDS), animal=_STAND_IN)
_COVERING = CompiledRows(covering_ids, animal_id=_STAND_IN)
_CERTIFICATE_FIELDS = field_names(RabiesVaccination)
_CERTIFICATES = CompiledRows(
    lambda animal: RabiesVaccination.objects.filter(animal_id=animal, voided_at=None).values_list(*_CERTIFICATE_FIELDS),
    animal=_STAND_IN,
)
_FEES = CompiledRows(
    lambda municipality: FeeScheduleEntry.objects.filter(municipality_id=municipality, voided_at=None).values_list(
        "key", "effective_on", "amount"
    ),
    municipality=_STAND_IN,
)

_ANIMAL_FIELDS, _MUNICIPALITY_FIELDS = field_names(Animal), field_names(Municipality)
_ANIMAL = CompiledRows(
    lambda pk: Animal.objects.filter(pk=pk).values_list(
        *_ANIMAL_FIELDS, *(f"municipality__{name}" for name in _MUNICIPALITY_FIELDS)
    ),
    pk=_STAND_IN,
)
_PERSON_FIELDS = field_names(Person)
_OWNERSHIPS = CompiledRows(
    lambda animal: Ownership.objects.filter(animal_id=animal).values_list(
        "started_on", "ended_on", *(f"person__{name}" for name in _PERSON_FIELDS)
    ),
    animal=_STAND_IN,
)


def animal_to_license(pk: int) -> Animal | None:
    """The animal `pk` with its municipality, in one read, or None (the caller holds it to the
    user's municipalities: accounts.scope `served`)."""
    using = router.db_for_read(Animal)
    low, high = connections[using].ops.integer_field_range("BigAutoField")
    rows = _ANIMAL.rows(using, pk=pk) if low <= pk <= high else ()
    if not rows:
        return None
    animal = Animal.from_db(using, _ANIMAL_FIELDS, rows[0][: len(_ANIMAL_FIELDS)])
    animal.municipality = Municipality.from_db(using, _MUNICIPALITY_FIELDS, rows[0][len(_ANIMAL_FIELDS) :])
    return animal


def current_owner(animal: Animal, on: date) -> Person | None:
    """Who owns, keeps or harbors the animal on `on`, the latest to begin (`Animal.current_owners`'
    first), from one read of its ownerships."""
    using = router.db_for_read(Ownership)
    for started_on, ended_on, *person in _OWNERSHIPS.rows(using, animal=animal.pk):
        if started_on <= on and (ended_on is None or ended_on >= on):
            return Person.from_db(using, _PERSON_FIELDS, person)
    return None


def licenses_in_force(animal, year: int, multiple_dog: bool) -> tuple[License, ...]:
    """The licenses of `year` not void that are the animal's own or, where the ordinance has
    multiple-dog licenses, one covering it (two reads compiled once, a third for a covered dog)."""
    using = router.db_for_read(License)
    rows = _OWN.rows(using, animal=animal.pk)
    covering = [pk for (pk,) in _COVERING.rows(using, animal_id=animal.pk)] if multiple_dog else ()
    if covering:
        rows += License.objects.using(using).filter(pk__in=covering).values_list(*_LICENSE_FIELDS)
    found = (License.from_db(using, _LICENSE_FIELDS, row) for row in rows)
    return tuple(lic for lic in found if lic.license_year == year and lic.voided_at is None)


def _certificates(animal) -> tuple[RabiesVaccination, ...]:
    """The animal's rabies certificates not void (none for an animal not yet saved)."""
    if animal.pk is None:
        return ()
    using = router.db_for_read(RabiesVaccination)
    rows = _CERTIFICATES.rows(using, animal=animal.pk)
    return tuple(RabiesVaccination.from_db(using, _CERTIFICATE_FIELDS, row) for row in rows)


def covering_license(animal, year):
    """The multiple-dog license in force for this dog and year, if any."""
    return License.objects.filter(
        kind=License.Kind.MULTIPLE_DOG, covered_animals=animal, license_year=year, voided_at=None
    ).first()


def kept_with(animal: Animal, on: date):
    """The active animals kept where this one is: the same premises, else the same owners."""
    kept = Animal.objects.filter(municipality_id=animal.municipality_id, status=Animal.Status.ACTIVE)
    if animal.premises_id:
        return kept.filter(premises_id=animal.premises_id)
    owners = Ownership.objects.current(on).filter(animal_id=animal.pk).values("person_id")
    return kept.filter(pk__in=Ownership.objects.current(on).filter(person_id__in=owners).values("animal_id"))


KEPT_COLUMNS = ("species", "birth_date", "acquired_on")


def kept_rows(animal: Animal, on: date) -> list[tuple]:
    """(species, birth date, acquired on) of each animal kept where this one is, in no order: sorted
    by name, SQLite walks every animal of the municipality in name order to find these few."""
    return list(kept_with(animal, on).order_by().values_list(*KEPT_COLUMNS))
