"""A realistic village for a newcomer: owners, dogs and cats, rabies certificates, licenses, the
fee schedule and this year's (and, in December, next year's) tags, the office's contact, and a
few open cases in each procedure. Everything is written through the apps' actions, so the audit
trail reads like a real week at the counter; a step the municipality's ordinance refuses is left
out rather than forced."""

from datetime import date, timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from dogtag.enforcement import actions as enforcement
from dogtag.lib.dates import today
from dogtag.licensing import actions as licensing
from dogtag.licensing import law
from dogtag.portal import actions as portal
from dogtag.registry import actions as registry
from dogtag.registry.models import Person
from dogtag.rules.delegations import delegated_amounts, state_minimum
from dogtag.rules.licensing import license_year_of

# Sample amounts for the fee schedule (raised to the state minimum where one binds): a demo
# village board's resolution, not the law of any real municipality.
SAMPLE_FEES = {"license_tax.altered": "6.00", "license_tax.unaltered": "12.00", "late_fee": "5.00"}
SAMPLE_OTHER_FEE = "25.00"
OWNERS = [
    ("Maria Gonzalez", "114 Elm St", "608-555-0131"),
    ("James O'Connor", "27 Oak Ave", "608-555-0177"),
    ("Linda Nguyen", "9 Birch Ct", "608-555-0112"),
    ("Robert Johnson", "301 Main St", "608-555-0190"),
    ("Aisha Khan", "45 Maple Dr", "608-555-0146"),
    ("Tom & Sue Bauer", "1820 County Rd K", "608-555-0108"),
]
ANIMALS = [
    # owner index, name, species, breed, color, sex, altered, born
    (0, "Biscuit", "dog", "Golden Retriever", "golden", "female", True, date(2019, 4, 2)),
    (0, "Mochi", "cat", "Domestic Shorthair", "gray tabby", "male", True, date(2021, 8, 15)),
    (1, "Duke", "dog", "German Shepherd", "black and tan", "male", False, date(2020, 1, 20)),
    (2, "Pepper", "dog", "Border Collie", "black and white", "female", True, date(2022, 6, 9)),
    (3, "Rocky", "dog", "Pit Bull Terrier", "brindle", "male", False, date(2018, 11, 30)),
    (4, "Luna", "dog", "Labrador Retriever", "chocolate", "female", False, date(2023, 3, 14)),
    (4, "Simba", "cat", "Maine Coon", "orange", "male", True, date(2020, 5, 5)),
    (5, "Scout", "dog", "Beagle", "tricolor", "male", True, date(2017, 9, 1)),
    (5, "Daisy", "dog", "Mixed", "white", "female", True, date(2024, 2, 10)),
]


def _fees(clerk, municipality, on):
    pack = law.pack_of(municipality)
    for key in delegated_amounts(pack):
        amount = Decimal(SAMPLE_FEES.get(key, SAMPLE_OTHER_FEE))
        floor = state_minimum(pack, key, date(on.year - 3, 1, 1))
        licensing.set_fee(acting_user=clerk, municipality=municipality, key=key,
                          amount=max(amount, floor[0]) if floor else amount,
                          effective_on=date(on.year - 3, 1, 1), authority="Sample resolution")  # fmt: skip


def fill(municipality, *, clerk, officer, vet, on=None) -> bool:
    """Fill one municipality; False (and nothing written) if it already has people on record."""
    if Person.objects.filter(municipality=municipality).exists():
        return False
    on = on or today()
    with transaction.atomic():
        _fill(municipality, clerk, officer, vet, on)
    return True


def _fill(municipality, clerk, officer, vet, on):
    year = license_year_of(law.pack_of(municipality), on)
    _fees(clerk, municipality, on)
    licensing.receive_tag_lot(acting_user=clerk, municipality=municipality, license_year=year, first_serial=1,
                              last_serial=300, received_on=min(on, date(year, 1, 2)))  # fmt: skip
    if on.month == 12:  # next year's tags arrive in December, for the licenses sold ahead
        licensing.receive_tag_lot(acting_user=clerk, municipality=municipality, license_year=year + 1,
                                  first_serial=1, last_serial=300, received_on=on)  # fmt: skip
    portal.set_contact(acting_user=clerk, municipality=municipality, clerk_office="Clerk-Treasurer's office",
                       office_address=f"1 Municipal Plaza, {municipality.name}, WI", clerk_phone="608-555-0100",
                       clerk_hours="Monday–Friday 8 a.m.–4:30 p.m.", police_name="Police (non-emergency)",
                       police_phone="608-555-0911", police_hours="24 hours")  # fmt: skip
    species = set(law.pack_of(municipality).licensing.species.species)
    people = [
        registry.create_person(
            acting_user=clerk,
            municipality=municipality,
            name=name,
            street=street,
            city=municipality.name,
            postal_code="53000",
            phone=phone,
            email=f"{name.split()[0].lower()}@example.org",
        )  # fmt: skip
        for name, street, phone in OWNERS
    ]
    animals = []
    for i, (owner, name, kind, breed, color, sex, altered, born) in enumerate(ANIMALS):
        animal = registry.register_animal(acting_user=clerk, municipality=municipality, owner=people[owner],
                                          name=name, species=kind, breed=breed, color=color, sex=sex,
                                          altered=altered, birth_date=born, owned_from=born + timedelta(days=60),
                                          altered_evidence="veterinarian's certificate" if altered else "")  # fmt: skip
        # One certificate runs out within weeks, one has run out: the flags and reminders show them.
        expires = on + timedelta(days=[700, 25, 400, 900, -10, 500, 600, 300, 800][i])
        serial = f"{municipality.slug[:2].upper()}-{1000 + i}"
        registry.record_vaccination(animal, acting_user=vet, certificate_serial=serial,
                                    vaccinated_on=min(on, expires - timedelta(days=365)), expires_on=expires,
                                    vaccine_type="killed virus, 3-year", vaccine_serial="LOT-24A",
                                    veterinarian_name="Dr. Vera Vet", veterinarian_address="200 Clinic Rd",
                                    veterinarian_phone="608-555-0150",
                                    rabies_tag_number=f"RT-{municipality.pk}{i:03d}")  # fmt: skip
        animals.append(animal)
        if kind in species and i % 4 != 3:  # most are licensed; a few are not yet
            _try(licensing.issue_license, animal, acting_user=clerk, payment=_owed_payment(animal, on), on=on)
    dog = next(a for a in animals if a.species == "dog" and not a.altered)
    day = on - timedelta(days=2)
    _try(enforcement.record_complaint, acting_user=officer, municipality=municipality, kind="barking",
         formal_written=True, complainant_name="A neighbor", animal=animals[2], observed_on=day,
         place=OWNERS[1][1], filed_on=day)  # fmt: skip
    _try(enforcement.impound, acting_user=officer, municipality=municipality, animal=None,
         description="Stray, brown mixed-breed dog, no tags", found_at="Main St and 2nd", reason="at-large",
         held_at="Village shelter", officer_saw_or_heard=True)  # fmt: skip
    bite = _try(enforcement.report_bite, acting_user=officer, municipality=municipality, animal=dog,
                victim_name="A delivery driver", bitten_on=day, place=OWNERS[3][1])  # fmt: skip
    if bite is not None:
        _try(enforcement.order_bite_quarantine, bite, acting_user=officer, place="owner_premises",
             facility=OWNERS[3][1])  # fmt: skip
    _try(enforcement.declare_dog, acting_user=officer, municipality=municipality, animal=animals[4],
         evidence="bite report; the victim's statement",
         incidents=[{"occurred_on": day - timedelta(days=30), "kind": "bite_injury", "victim": "person"},
                    {"occurred_on": day, "kind": "serious_injury", "victim": "person"}],
         determined_on=day)  # fmt: skip


def _owed_payment(animal, on):
    from dogtag.licensing.facts import read_facts
    from dogtag.licensing.owed import what_is_owed

    return {"method": "cash", "amount": str(what_is_owed(read_facts(animal, on)).total)}


def _try(action, *args, **kwargs):
    """A step this municipality's law refuses (a kind of case it does not have) is skipped."""
    try:
        with transaction.atomic():
            return action(*args, **kwargs)
    except ValidationError:
        return None


def fill_all(municipalities, stdout=None):
    User = get_user_model()
    officer, vet = User.objects.get(username="officer"), User.objects.get(username="vet")
    for m in municipalities:
        clerk = User.objects.get(username=f"{m.slug}-clerk")
        filled = fill(m, clerk=clerk, officer=officer, vet=vet)
        if stdout:
            stdout.write(f"  sample data: {m.name} {'filled' if filled else 'already has records'}")
