"""Whom a district rabies quarantine confines (Webster § 98-5, Cedarburg § 7-1-5(a)-(b)): the answer
for the animals a lookup finds, and the municipality's dogs and cats the records cannot show exempt.

The engine's `district_quarantine` question decides; the records supply its two facts, read as the
pack's `district_exemption.choice` says: `currently_immunized` is a certificate, not void, covering
the day (the test of `actions.cases.currently_immunized`), and `tag_attached` is the rabies tag
written on that certificate or its duplicate, which the officer checks on the collar. A license in
force is shown beside the answer; it does not decide it.

Read-only and set-based: for the list the facts are two annotations (an EXISTS per animal for a
page, which reads animals in name order only until the page is full; one set membership for the
whole list, its CSV); a lookup reads them from the certificates it shows. The engine is asked once
per combination of species and facts (never once per animal), and the list filters on the
combinations the engine says must be restrained.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from functools import reduce
from itertools import product
from operator import or_

from django.db.models import (
    BooleanField,
    Case,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Upper
from django.db.models.lookups import GreaterThan

from dogtag import rules
from dogtag.enforcement import law
from dogtag.licensing.facts import local_amounts
from dogtag.licensing.law import pack_of
from dogtag.licensing.models import License, Tag, own_or_covering
from dogtag.registry.models import Animal, DuplicateRabiesTag, Ownership, RabiesVaccination

# Animals the village still has: dead, transferred and moved-away animals are not confined anywhere here.
LIVE = (Animal.Status.ACTIVE, Animal.Status.MISSING)
LOOKUP_LIMIT = 20


def certificates_on(on: date):
    """Certificates covering `on`: not void, given on or before it, expiring after it."""
    return RabiesVaccination.objects.filter(voided_at=None, vaccinated_on__lte=on, expires_on__gt=on)


def licenses_on(on: date):
    """Licenses in force on `on` (individual or multiple-dog), as impoundment release reads them."""
    return License.objects.filter(voided_at=None, issued_on__lte=on, expires_on__gte=on)


def _facts(on: date, *, few: bool):
    """The two facts: for a few animals, an EXISTS per animal; for a whole municipality, membership
    in one set of animals, computed once per query."""
    certs = certificates_on(on)
    tagged = certs.filter(~Q(rabies_tag_number="") | Q(pk__in=DuplicateRabiesTag.objects.values("vaccination_id")))
    if few:
        return {
            "immunized": Exists(certs.filter(animal=OuterRef("pk"))),
            "tagged": Exists(tagged.filter(animal=OuterRef("pk"))),
        }
    return {
        "immunized": ExpressionWrapper(Q(pk__in=certs.values("animal_id")), output_field=BooleanField()),
        "tagged": ExpressionWrapper(Q(pk__in=tagged.values("animal_id")), output_field=BooleanField()),
    }


class FeeSchedule:
    """The municipality's fee schedule as the engine reads local amounts, read from the database
    the first time an answer asks for one (the district question asks none), then kept."""

    def __init__(self, municipality):
        self.municipality, self._amounts = municipality, None

    def _read(self):
        if self._amounts is None:
            self._amounts = local_amounts(self.municipality)
        return self._amounts

    def at(self, key: str, on: date):
        return self._read().at(key, on)

    def items(self):
        return self._read().items()


class Engine:
    """The engine's answer per (species, immunized, tagged), asked once each, in one pack on one day
    (the pack read once and the fee schedule at most once, for every answer)."""

    def __init__(self, municipality, on: date):
        self.municipality, self.on, self.answers = municipality, on, {}
        self.pack, self.local = pack_of(municipality, on), FeeSchedule(municipality)

    def __call__(self, species, immunized, tagged) -> rules.Decision:
        key = (species, bool(immunized), bool(tagged))
        if key not in self.answers:
            facts = {"species": species, "currently_immunized": key[1], "tag_attached": key[2]}
            self.answers[key] = law.answer(self.pack, "district_quarantine", facts, self.on, self.local)
        return self.answers[key]

    @property
    def applies(self) -> bool:
        """The ordinance has a district rabies quarantine provision."""
        return self(Animal.Species.DOG, False, False).value.applies

    def restrained(self) -> Q:
        """The animals the engine says must be confined, tied, leashed or muzzled: per species, the
        combinations of facts so answered, as one test of the two facts. A tagged animal is an
        immunized one (its tag is read from a current certificate), so three combinations occur and
        every set of them is a single test: each fact's set of animals is read once by the query."""
        by_species = defaultdict(set)
        for species, immunized, tagged in product(Animal.Species.values, (False, True), (False, True)):
            if (immunized or not tagged) and self(species, immunized, tagged).value.must_be_restrained:
                by_species[species].add((immunized, tagged))
        by_test = defaultdict(list)
        for species, combinations in by_species.items():
            by_test[frozenset(combinations)].append(species)
        every, terms = len(Animal.Species.values), []
        for combinations, species in by_test.items():
            test = _TEST[combinations] & (Q() if len(species) == every else Q(species__in=sorted(species)))
            if not test:  # every species, whatever the facts
                return Q()
            terms.append(test)
        return reduce(or_, terms, Q(pk__in=[]))


_NONE, _IMMUNIZED, _TAGGED = (False, False), (True, False), (True, True)
# Each set of the three combinations of facts that occur, as one test of the annotations.
_TEST = {
    frozenset({_NONE}): Q(immunized=False),
    frozenset({_IMMUNIZED}): Q(immunized=True, tagged=False),
    frozenset({_TAGGED}): Q(tagged=True),
    frozenset({_NONE, _IMMUNIZED}): Q(tagged=False),
    frozenset({_NONE, _TAGGED}): Q(immunized=False) | Q(tagged=True),
    frozenset({_IMMUNIZED, _TAGGED}): Q(immunized=True),
    frozenset({_NONE, _IMMUNIZED, _TAGGED}): Q(),
}


@dataclass
class Answer:
    animal: Animal
    decision: rules.Decision
    certificate: RabiesVaccination | None = None
    license: License | None = None
    reasons: list[str] = field(default_factory=list)

    @property
    def value(self):
        return self.decision.value

    @property
    def tag(self) -> str:
        return rabies_tag(self.certificate) if self.certificate else ""

    @property
    def cites(self):
        return law.cites(self.decision)


def rabies_tag(certificate) -> str:
    """The tag number on a certificate read by `lookup`: its latest duplicate, else the original."""
    duplicate = certificate.latest_duplicate
    return duplicate if duplicate is not None else certificate.rabies_tag_number


def _with_owners(animals, on: date):
    owners = Ownership.objects.current(on).select_related("person")
    return animals.prefetch_related(Prefetch("ownerships", queryset=owners, to_attr="owners_now"))


def _reasons(immunized: bool, tagged: bool, certificate=None) -> list[str]:
    if not immunized:
        return ["no current rabies certificate"]
    if not tagged:
        serial = f" for certificate {certificate.certificate_serial}" if certificate else ""
        return [f"no rabies tag on record{serial}"]
    return []


def _named(municipality, query: str, on: date) -> set[int]:
    """The municipality's animals a query names, each way read by its own index: a part of the
    name, or exactly a microchip, a rabies tag (or its duplicate) or, for a number, a license in
    force or its tag. Each read answers (animal, its municipality), so that no read needs the
    municipality's index, which would walk every animal of the municipality. Two statements: the
    name's, and the exact matches' reads as one UNION ALL, each part planned by its own index."""
    same = Upper(Value(query))
    # The first of the live animals by name are enough: the lookup shows that many, in name order.
    by_name = (
        Animal.objects.filter(municipality=municipality, status__in=LIVE, name__icontains=query)
        .order_by("name", "pk")
        .values_list("pk", "municipality")[:LOOKUP_LIMIT]
    )
    exact = [
        Animal.objects.alias(chip=Upper("microchip")).filter(chip=same).order_by().values_list("pk", "municipality"),
        RabiesVaccination.objects.alias(tag=Upper("rabies_tag_number"))
        .filter(tag=same, voided_at=None)
        .order_by()
        .values_list("animal", "animal__municipality"),
        DuplicateRabiesTag.objects.alias(tag=Upper("tag_number"))
        .filter(tag=same, vaccination__voided_at=None)
        .order_by()
        .values_list("vaccination__animal", "vaccination__animal__municipality"),
    ]
    if query.isdigit():
        in_force = licenses_on(on).filter(municipality=municipality)
        tagged = Tag.objects.filter(municipality=municipality, serial=int(query), status=Tag.Status.ISSUED)
        for licenses in (in_force.filter(serial=int(query)), in_force.filter(pk__in=tagged.values("license_id"))):
            exact.append(licenses.order_by().values_list("animal", "municipality"))
            exact.append(licenses.order_by().values_list("covered_animals", "municipality"))
    pairs = [*by_name, *exact[0].union(*exact[1:], all=True)]
    return {pk for pk, place in pairs if pk is not None and place == municipality.pk}


def lookup(engine: Engine, query: str) -> list[Answer]:
    """The live animals of the engine's municipality whose name, microchip, rabies tag or license
    tag matches, each with the engine's answer on its day (a handful of queries, whatever the
    number found). The two facts are read from the certificates shown: `immunized`, a certificate
    covering the day; `tagged`, one of them with a tag number or a duplicate tag (as `_facts`)."""
    municipality, on = engine.municipality, engine.on
    query = query.strip()
    if not query:
        return []
    animals = list(
        _with_owners(Animal.objects.filter(pk__in=_named(municipality, query, on), status__in=LIVE), on).order_by(
            "name", "pk"
        )[:LOOKUP_LIMIT]
    )
    ids = [a.pk for a in animals]
    certificates, immunized, tagged = {}, set(), set()
    duplicates = DuplicateRabiesTag.objects.filter(vaccination=OuterRef("pk")).order_by("-issued_on", "-pk")
    for c in (
        certificates_on(on)
        .filter(animal_id__in=ids)
        .annotate(latest_duplicate=Subquery(duplicates.values("tag_number")[:1]))
        .order_by("animal_id", "expires_on", "pk")
    ):
        immunized.add(c.animal_id)
        if c.rabies_tag_number != "" or c.latest_duplicate is not None:
            tagged.add(c.animal_id)
        if rabies_tag(c).strip() or c.animal_id not in certificates:
            certificates[c.animal_id] = c  # the latest-expiring, a tagged one preferred
    licenses = {}
    # A multiple-dog license is a row per animal it covers (`covers`), its own license one row;
    # `issued_tag` is the serial of its tag issued (License.current_tag), if any.
    issued = Tag.objects.filter(license=OuterRef("pk"), status=Tag.Status.ISSUED).order_by("license_year", "serial")
    for lic in (
        licenses_on(on)
        .filter(own_or_covering(ids))
        .annotate(covers=F("covered_animals"), issued_tag=Subquery(issued.values("serial")[:1]))
        .order_by("license_year", "pk")
    ):
        licenses[lic.animal_id or lic.covers] = lic  # the latest year's
    answers = []
    for a in animals:
        a.immunized, a.tagged = a.pk in immunized, a.pk in tagged
        certificate = certificates.get(a.pk)
        decision = engine(a.species, a.immunized, a.tagged)
        reasons = _reasons(a.immunized, a.tagged, certificate) if decision.value.must_be_restrained else []
        answers.append(Answer(a, decision, certificate, licenses.get(a.pk), reasons))
    return answers


def not_exempt(municipality, on: date):
    """The municipality's live animals the engine says must be confined, in name order, with the
    facts, the license in force and the current owner (`Listed`)."""
    engine = Engine(municipality, on)
    if not engine.applies:
        return Animal.objects.none(), engine
    live = Animal.objects.filter(municipality=municipality, status__in=LIVE).order_by("name", "pk")
    return Listed(live, engine.restrained(), on), engine


class Listed:
    """A list of animals read in two steps: which animals, in order (one statement, from the
    animals' name index and the certificates' index), then, for those shown, the facts, the
    license in force and the owners (an EXISTS and a subquery per animal shown, not per animal in
    the municipality). A page (`after`) is three statements; the CSV reads every row the same way
    in chunks."""

    def __init__(self, live, restrained: Q, on: date):
        self.live, self.restrained, self.on, self._ids = live, restrained, on, None

    def which(self, *, few: bool):
        """The animals listed, in name order, their facts read as `_facts(few=)` reads them: the
        whole list as two sets, a page as an EXISTS per animal the page walks past."""
        return self.live.alias(**_facts(self.on, few=few)).filter(self.restrained)

    @property
    def ids(self) -> list[int]:
        if self._ids is None:
            self._ids = list(self.which(few=False).values_list("pk", flat=True))
        return self._ids

    def after(self, key: tuple[str, int] | None, n: int) -> tuple[list[Animal], bool]:
        """Up to `n` animals following `key` (the (name, pk) of the last one shown; None: from the
        first), and whether more follow. Read in name order with a LIMIT: the query walks the
        animals' name index only until it has found them, nothing is counted."""
        which = self.which(few=True)
        if key is not None:
            name, pk = key
            # `name >= ?` first: the range the index walks from; the rest steps past the ties shown.
            which = which.filter(Q(name__gte=name), Q(name__gt=name) | Q(pk__gt=pk))
        ids = list(which.values_list("pk", flat=True)[: n + 1])
        return self._read(ids[:n]), len(ids) > n

    def __iter__(self):
        return self.iterator(chunk_size=2000)

    def iterator(self, chunk_size: int):
        ids = self.ids
        for start in range(0, len(ids), chunk_size):
            yield from self._read(ids[start : start + chunk_size])

    def _read(self, ids: list[int]) -> list[Animal]:
        animals = (
            Animal.objects.filter(pk__in=ids)
            .annotate(**_facts(self.on, few=True), license_serial=_license_serial(self.on))
            .select_related("premises")
        )
        found = _with_owners(animals, self.on).in_bulk()
        return [found[pk] for pk in ids]


def _license_serial(on: date):
    """The serial of the animal's latest-year license in force on `on`, its own or a multiple-dog
    license covering it. Each side is its own subquery by its own index: one OR of the two across
    the covered animals' join read every license in force for each row."""
    own = licenses_on(on).filter(animal=OuterRef("pk")).order_by("-license_year")
    covering = licenses_on(on).filter(covered_animals=OuterRef("pk")).order_by("-license_year")
    own_year, covering_year = (Subquery(q.values("license_year")[:1]) for q in (own, covering))
    return Case(
        When(GreaterThan(covering_year, Coalesce(own_year, 0)), then=Subquery(covering.values("serial")[:1])),
        default=Subquery(own.values("serial")[:1]),
    )


def reasons(animal) -> list[str]:
    """Why a row of `not_exempt` is not exempt, from its annotated facts."""
    return _reasons(animal.immunized, animal.tagged)
