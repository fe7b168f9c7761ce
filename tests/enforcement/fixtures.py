"""One Benton record of each animal-control kind, for the cross-municipality isolation walk."""

from datetime import date, timedelta

from dogtag.enforcement import actions
from dogtag.enforcement.models import Case, DistrictQuarantine
from dogtag.permits.models import HenPermit


def benton_cases(t):
    """Sets on `t`: case, impoundment, complaint, bite, quarantine, district, declaration,
    requirement, citation, hen_permit (all in Benton, all naming Rex or Pat Owner)."""
    benton, officer, dog = t.benton, t.officer, t.dog
    day = date.today() - timedelta(days=3)
    t.impoundment = actions.impound(
        acting_user=officer,
        municipality=benton,
        animal=dog,
        description="Rex",
        found_at="12 Main St",
        reason="at-large",
        held_at="shelter",
    )
    t.case = t.impoundment.case
    t.complaint = actions.record_complaint(
        acting_user=officer,
        municipality=benton,
        kind="barking",
        formal_written=True,
        complainant_name="Ned",
        animal=dog,
        observed_on=day,
        place="12 Main St",
        filed_on=day,
    )
    t.bite = actions.report_bite(
        acting_user=officer, municipality=benton, animal=dog, victim_name="Vic", bitten_on=day, place="12 Main St"
    )
    t.quarantine = actions.order_bite_quarantine(
        t.bite, acting_user=officer, place="isolation_facility", facility="shelter"
    )
    district_case = Case.objects.create(municipality=benton, kind=Case.Kind.DISTRICT, title="Rex's district")
    t.district = DistrictQuarantine.objects.create(
        municipality=benton,
        case=district_case,
        declared_on=day,
        ends_on=day + timedelta(days=30),
        area="12 Main St",
        ordered_by="health department",
    )
    t.declaration = actions.declare_dog(
        acting_user=officer,
        municipality=benton,
        animal=dog,
        evidence="bite report",
        incidents=[{"occurred_on": day, "kind": "attack", "victim": "person"}],
        determined_on=day,
    )
    t.requirement = t.declaration.requirements.first()
    t.citation = actions.issue_citation(
        acting_user=officer,
        municipality=benton,
        person=t.owner,
        animal=dog,
        violation="s. 174.042",
        description="unlicensed",
        violated_on=day,
    )
    t.hen_permit = HenPermit.objects.create(
        municipality=benton,
        applicant=t.owner,
        premises=t.premises,
        zoning="single_family_residential",
        owners_of_record="Pat Owner",
        hens=2,
        status=HenPermit.Status.REFUSED,
        decided_by=t.clerk,
    )
