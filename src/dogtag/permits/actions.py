"""Hen permits' writes: one transaction, the clerk's role, the engine's answer, one audit event."""

from django.core.exceptions import ValidationError
from django.db import transaction

from dogtag.accounts.models import Role
from dogtag.enforcement import law
from dogtag.permits.models import HenPermit, ViciousDogPermit
from dogtag.registry.actions import save_record
from dogtag.registry.models import today

ISSUERS = (Role.CLERK, Role.ADMINISTRATOR)

# The parcel's uses as the engine names them (§ 7-1-26(d)(3) excludes these).
PARCEL_USES = {"condominium": "condominium", "duplex": "duplex", "multi-family": "multi_family"}


@transaction.atomic
def decide_hen_permit(
    *,
    acting_user,
    municipality,
    applicant,
    premises,
    hens,
    zoning,
    owners_of_record,
    all_owners_signed=False,
    premises_registration="",
    roosters=0,
    applicant_is_tenant=False,
    site_plan=None,
    renewal_of=None,
    changes=False,
    applied_on=None,
) -> HenPermit:
    """Issue the permit, or record the refusal with every reason the ordinance gives."""
    for field, obj in (("applicant", applicant), ("premises", premises), ("renewal_of", renewal_of)):
        if obj is not None and obj.municipality_id != municipality.pk:
            raise ValidationError({field: f"{obj} belongs to another municipality."})
    if renewal_of is not None and renewal_of.premises_id != premises.pk:
        raise ValidationError({"renewal_of": "A hen permit is not transferable: renew it for the same premises."})
    applied_on = applied_on or today()
    facts = {
        "zoning": zoning,
        "parcel_uses": [PARCEL_USES[premises.use]] if premises.use in PARCEL_USES else [],
        "hens": hens,
        "roosters": roosters,
        "all_owners_signed": all_owners_signed,
        "premises_registration": bool(premises_registration.strip()),
        "renewal": renewal_of is not None,
        "changes": changes,
    }
    decision = law.ask(municipality, "hen_permit", facts, applied_on)
    if decision.value is None:
        raise ValidationError({"__all__": "; ".join(decision.notes)})
    v = decision.value
    if v["may_issue"] and not (site_plan or renewal_of is not None):
        raise ValidationError(
            {
                "site_plan": "Attach the site plan: all structures on the parcel and abutting property, "
                "the coop design and its site (§ 7-1-26(d)(1)(iv))."
            }
        )
    permit = HenPermit(
        municipality=municipality,
        applicant=applicant,
        premises=premises,
        applied_on=applied_on,
        zoning=zoning,
        applicant_is_tenant=applicant_is_tenant,
        owners_of_record=owners_of_record,
        all_owners_signed=all_owners_signed,
        premises_registration=premises_registration,
        site_plan=site_plan or (renewal_of.site_plan if renewal_of else ""),
        hens=hens,
        roosters=roosters,
        renewal_of=renewal_of,
        changes=changes,
        status=HenPermit.Status.ISSUED if v["may_issue"] else HenPermit.Status.REFUSED,
        reasons=v["reasons"],
        fee=v["fee"] if v["may_issue"] else None,
        fee_kind=v["fee_kind"],
        expires_on=v["expires"] if v["may_issue"] else None,
        decision=law.stored(decision),
        decided_by=acting_user,
    )
    action = "hen_permit.issue" if v["may_issue"] else "hen_permit.refuse"
    return save_record(permit, acting_user=acting_user, action=action, roles=ISSUERS)


@transaction.atomic
def issue_vicious_dog_permit(declaration, *, acting_user, insurance, fee_paid, issued_on=None) -> ViciousDogPermit:
    """River Hills § 2.14(6)[g]: the clerk's annual permit, its fee prorated in the first year;
    [e](1)(x): the insurance or bond "shall be obtained prior to the issuing of a permit"."""
    from dogtag.enforcement.actions.cases import meet

    issued_on = issued_on or today()
    if declaration.classification != "vicious" or declaration.status not in ("in-force", "affirmed", "modified"):
        raise ValidationError(
            {"__all__": "Only a dog declared vicious, with the declaration in force, needs this permit."}
        )
    if not insurance.strip():
        raise ValidationError({"insurance": "Show the liability insurance or surety bond first (§ 2.14(6)[e](1)(x))."})
    first = not declaration.vicious_dog_permits.exists()
    decision = law.ask(declaration.municipality, "vicious_dog_permit_fee", {"first_permit": first}, issued_on)
    if decision.value is None:
        raise ValidationError({"fee_paid": "; ".join(decision.notes) or law.not_set_message(decision)})
    if fee_paid is None or fee_paid < decision.value:
        raise ValidationError(
            {
                "fee_paid": f"The permit fee is ${decision.value:.2f} ({law.sections(decision)}); "
                f"paid ${fee_paid or 0:.2f}."
            }
        )
    permit = ViciousDogPermit(
        municipality_id=declaration.municipality_id,
        declaration=declaration,
        holder=declaration.case.owner,
        issued_on=issued_on,
        fee=decision.value,
        insurance=insurance,
        decision=law.stored(decision),
        issued_by=acting_user,
    )
    permit = save_record(permit, acting_user=acting_user, action="vicious_dog_permit.issue", roles=ISSUERS)
    # The permit is the proof of the [g] requirement; this action's audit event records both.
    declaration.requirements.filter(name="vicious_dog_permit", proof_on=None).update(
        proof=f"vicious-dog permit #{permit.pk}", proof_on=issued_on
    )
    meet(declaration.case, "requirement.vicious_dog_permit", issued_on, f"permit #{permit.pk}")
    return permit
