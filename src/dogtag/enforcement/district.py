"""Whom a district rabies quarantine confines (Webster § 98-5, Cedarburg § 7-1-5(a)-(b)): the answer
for the animals a lookup finds, and the municipality's dogs and cats the records cannot show exempt.

The engine's `district_quarantine` question decides; the records supply its two facts, read as the
pack's `district_exemption.choice` says: `currently_immunized` is a certificate, not void, covering
the day (the test of `actions.cases.currently_immunized`), and `tag_attached` is the rabies tag
written on that certificate or its duplicate, which the officer checks on the collar. A license in
force is shown beside the answer; it does not decide it.

Read-only and set-based: the facts are two annotations (an EXISTS per animal for a lookup, one
set membership for the list), the engine is asked once per combination of species and facts (never
once per animal), and the list filters on the combinations the engine says must be restrained.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from functools import reduce
from itertools import product
from operator import or_

from django.db.models import BooleanField, Case, Exists, ExpressionWrapper, OuterRef, Prefetch, Q, Subquery, When
from django.db.models.functions import Coalesce
from django.db.models.lookups import GreaterThan

from dogtag import rules
from dogtag.enforcement import law
from dogtag.licensing.models import License, Tag, own_or_covering
from dogtag.registry.models import Animal, Ownership, RabiesVaccination

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
    tagged = certs.filter(~Q(rabies_tag_number="") | Q(duplicate_tags__isnull=False))
    if few:
        return {
            "immunized": Exists(certs.filter(animal=OuterRef("pk"))),
            "tagged": Exists(tagged.filter(animal=OuterRef("pk"))),
        }
    return {
        "immunized": ExpressionWrapper(Q(pk__in=certs.values("animal_id")), output_field=BooleanField()),
        "tagged": ExpressionWrapper(Q(pk__in=tagged.values("animal_id")), output_field=BooleanField()),
    }


class Engine:
    """The engine's answer per (species, immunized, tagged), asked once each, in one pack on one day."""

    def __init__(self, municipality, on: date):
        self.municipality, self.on, self.answers = municipality, on, {}

    def __call__(self, species, immunized, tagged) -> rules.Decision:
        key = (species, bool(immunized), bool(tagged))
        if key not in self.answers:
            facts = {"species": species, "currently_immunized": key[1], "tag_attached": key[2]}
            self.answers[key] = law.ask(self.municipality, "district_quarantine", facts, self.on)
        return self.answers[key]

    @property
    def applies(self) -> bool:
        """The ordinance has a district rabies quarantine provision."""
        return self(Animal.Species.DOG, False, False).value.applies

    def restrained(self) -> Q:
        """The combinations of facts the engine says must be confined, tied, leashed or muzzled, in
        the shorter of two forms (these combinations, or all but the exempt ones), a combination
        shared by every species written without the species: each term repeats the facts' SQL."""
        every = set(Animal.Species.values)
        by_answer = {True: defaultdict(set), False: defaultdict(set)}
        for species, immunized, tagged in product(every, (False, True), (False, True)):
            value = self(species, immunized, tagged).value
            by_answer[value.must_be_restrained][(immunized, tagged)].add(species)

        def terms(combinations):
            return [
                Q(immunized=i, tagged=t, **({} if species == every else {"species__in": sorted(species)}))
                for (i, t), species in combinations.items()
            ]

        restrained, exempt = terms(by_answer[True]), terms(by_answer[False])
        if len(exempt) < len(restrained):
            return ~reduce(or_, exempt)
        return reduce(or_, restrained, Q(pk__in=[]))


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
    """The tag number on a certificate: its latest duplicate, else the original (from the prefetch)."""
    duplicates = sorted(certificate.duplicate_tags.all(), key=lambda d: (d.issued_on, d.pk))
    return duplicates[-1].tag_number if duplicates else certificate.rabies_tag_number


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


def lookup(municipality, query: str, on: date) -> list[Answer]:
    """The municipality's live animals whose name, microchip, rabies tag or license tag matches,
    each with the engine's answer (a handful of queries, whatever the number found)."""
    query = query.strip()
    if not query:
        return []
    match = Q(name__icontains=query) | Q(microchip__iexact=query)
    rabies_tags = RabiesVaccination.objects.filter(
        Q(rabies_tag_number__iexact=query) | Q(duplicate_tags__tag_number__iexact=query), voided_at=None
    )
    match |= Q(pk__in=rabies_tags.values("animal"))
    if query.isdigit():
        by_tag = licenses_on(on).filter(
            Q(serial=int(query)) | Q(tags__serial=int(query), tags__status=Tag.Status.ISSUED),
            municipality=municipality,
        )
        match |= Q(pk__in=by_tag.values("animal")) | Q(pk__in=by_tag.values("covered_animals"))
    animals = list(
        _with_owners(
            Animal.objects.filter(match, municipality=municipality, status__in=LIVE).annotate(**_facts(on, few=True)),
            on,
        ).order_by("name", "pk")[:LOOKUP_LIMIT]
    )
    ids = [a.pk for a in animals]
    certificates = {}
    for c in (
        certificates_on(on)
        .filter(animal_id__in=ids)
        .prefetch_related("duplicate_tags")
        .order_by("animal_id", "expires_on", "pk")
    ):
        if rabies_tag(c).strip() or c.animal_id not in certificates:
            certificates[c.animal_id] = c  # the latest-expiring, a tagged one preferred
    licenses = {}
    for lic in (
        licenses_on(on)
        .filter(own_or_covering(ids))
        .prefetch_related("tags", "covered_animals")
        .order_by("license_year", "pk")
    ):
        for animal_id in [lic.animal_id] if lic.animal_id else [a.pk for a in lic.covered_animals.all()]:
            licenses[animal_id] = lic
    engine = Engine(municipality, on)
    answers = []
    for a in animals:
        certificate = certificates.get(a.pk)
        decision = engine(a.species, a.immunized, a.tagged)
        reasons = _reasons(a.immunized, a.tagged, certificate) if decision.value.must_be_restrained else []
        answers.append(Answer(a, decision, certificate, licenses.get(a.pk), reasons))
    return answers


def not_exempt(municipality, on: date):
    """The municipality's live animals the engine says must be confined, with the facts and the
    current owner: one query for the animals, one for their owners."""
    engine = Engine(municipality, on)
    if not engine.applies:
        return Animal.objects.none(), engine
    animals = (
        Animal.objects.filter(municipality=municipality, status__in=LIVE)
        .annotate(**_facts(on, few=False), license_serial=_license_serial(on))
        .filter(engine.restrained())
        .select_related("premises")
        .order_by("name", "pk")
    )
    return _with_owners(animals, on), engine


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
