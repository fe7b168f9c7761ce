"""A Benton multiple-dog license (s. 174.053, inherited from the state pack) and a Benton kennel
application with one inspection, for tests that need one of each (the isolation walk)."""

from datetime import date
from decimal import Decimal

from dogtag.licensing.kennels import actions as kennel_licenses
from dogtag.licensing.multiple_dogs import actions as multiple_dog_licenses
from dogtag.registry import actions as registry
from dogtag.registry.models import today


def benton_multiple_dog_and_kennel(t, on=date(2026, 2, 10)):
    """Needs Benton's 2026 tag lot (tests.licensing.base.benton_license)."""
    t.second_dog = registry.register_animal(
        acting_user=t.clerk,
        municipality=t.benton,
        owner=t.owner,
        name="Bess",
        sex="female",
        birth_date=date(2023, 1, 1),
        premises=t.premises,
    )
    t.multiple_dog_license = multiple_dog_licenses.issue_multiple_dog_license(
        acting_user=t.clerk,
        municipality=t.benton,
        keeper=t.owner,
        dogs=2,
        animals=[t.second_dog],
        inspection_consent=True,
        payment={"amount": "35.00", "method": "cash"},
        on=on,
    )
    t.kennel = kennel_licenses.apply_for_kennel_license(
        acting_user=t.clerk,
        municipality=t.benton,
        owner=t.owner,
        premises=t.premises,
        capacity=6,
        description="Heated barn with runs",
        use="business",
        signed_on=today(),
        from_other_structures_ft=Decimal("250"),
        from_lot_lines_ft=Decimal("20"),
        kennel_sq_ft=Decimal("400"),
        privacy_fence=True,
    )
    t.kennel_inspection = kennel_licenses.record_inspection(
        t.kennel,
        acting_user=t.clerk,
        inspector="veterinarian",
        inspector_name="Dr. Vera Vet",
        inspected_on=today(),
        findings="Water bowls empty",
    )
