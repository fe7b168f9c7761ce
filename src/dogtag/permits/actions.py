"""Permits' writes: one transaction, the clerk's role, the engine's answer, one audit event.

Every section a refusal names comes from the engine's decision (`law.sections`), never from a
literal here: the pack holds the citation."""

from django.core.exceptions import ValidationError
from django.db import transaction

from dogtag.accounts.models import Role
from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import snapshot
from dogtag.enforcement import law
from dogtag.enforcement.actions.cases import as_date, meet, not_in_future, set_deadline
from dogtag.enforcement.models import Declaration
from dogtag.lib import uploads
from dogtag.lib.dates import today
from dogtag.licensing.actions import record_payment
from dogtag.permits.models import HenPermit, ViciousDogPermit
from dogtag.registry.actions import save_record
from dogtag.registry.models import Premises

ISSUERS = (Role.CLERK, Role.ADMINISTRATOR)

# The parcel's uses as the engine names them (§ 7-1-26(d)(3) excludes these).
PARCEL_USES = {"condominium": "condominium", "duplex": "duplex", "multi-family": "multi_family"}

RENEWAL_KEY = "vicious_dog_permit.renewal"


# --- Cedarburg hen permits (§ 7-1-26) ------------------------------------------------------------


def _site_plan_file(site_plan):
    """The portal's check (by the first bytes and the size, not the browser's name), stored under
    a name of our own with the extension of what it really is."""
    error, extension = uploads.check(site_plan)
    if error:
        raise ValidationError({"site_plan": error})
    site_plan.name = f"site-plan{extension}"
    return site_plan


def _renewable(renewal_of: HenPermit, premises) -> None:
    if renewal_of.premises_id != premises.pk:
        raise ValidationError({"renewal_of": "A hen permit is not transferable: renew it for the same premises."})
    if renewal_of.status != HenPermit.Status.ISSUED:
        raise ValidationError(
            {
                "renewal_of": f"Hen permit #{renewal_of.pk} was {renewal_of.get_status_display().lower()}; "
                "it cannot be renewed (a new application may be made)."
            }
        )
    renewed = renewal_of.renewals.filter(status=HenPermit.Status.ISSUED).first()
    if renewed is not None:
        raise ValidationError(
            {"renewal_of": f"Hen permit #{renewal_of.pk} was already renewed by permit #{renewed.pk}."}
        )


# The engine's reason when the application gives no registration number (rules/permits.py).
MISSING_REGISTRATION = "no Livestock Premises Registration number"


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
    payment: dict | None = None,
) -> HenPermit:
    """Issue the permit on payment of its fee, or record the refusal with every reason the
    ordinance gives (nothing is taken for a refusal). A renewal
    (`renewal_of`) covers the permit year after the renewed permit's; with `changes` it is a new
    full application (§ 7-1-26(d)(7), from the pack)."""
    require_role(acting_user, municipality.pk, ISSUERS)
    for field, obj in (("applicant", applicant), ("premises", premises), ("renewal_of", renewal_of)):
        if obj is not None and obj.municipality_id != municipality.pk:
            raise ValidationError({field: f"{obj} belongs to another municipality."})
    if renewal_of is not None:
        _renewable(renewal_of, premises)
    if site_plan:
        site_plan = _site_plan_file(site_plan)
    applied_on = as_date(applied_on) or today()
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
    if renewal_of is not None and renewal_of.expires_on:
        facts["renews_expiring_on"] = renewal_of.expires_on  # the engine picks the year it covers
    decision = law.ask(municipality, "hen_permit", facts, applied_on)
    v = decision.value
    if not v.applies or v.permit_year_ended:
        raise ValidationError({"__all__": "; ".join(decision.notes)})
    if list(v.reasons) == [MISSING_REGISTRATION]:
        # A number the applicant has and the clerk left blank is a field to fill, not a ground
        # for a refusal that stays on the record.
        raise ValidationError(
            {
                "premises_registration": "Enter the applicant's Livestock Premises Registration number: "
                f"the application must give it ({law.sections(decision)}). Nothing was recorded."
            }
        )
    if not v.may_issue:
        # The same refusal sent again (a second press of "Decide") is the one already recorded.
        for refused in HenPermit.objects.filter(
            applicant=applicant, premises=premises, applied_on=applied_on, status=HenPermit.Status.REFUSED
        ):
            if refused.reasons == list(v.reasons) and refused.hens == hens and refused.roosters == roosters:
                return refused
    plan_facts = {"renewal": renewal_of is not None, "changes": changes}
    plan = law.ask(municipality, "hen_permit_site_plan", plan_facts, applied_on)
    if v.may_issue and not site_plan and plan.value.required:
        raise ValidationError(
            {
                "site_plan": "Attach the site plan: all structures on the parcel and abutting property, "
                f"the coop design and its site ({law.sections(plan)})."
            }
        )
    if v.may_issue and v.expires:
        # One issued permit a parcel and permit year: a second would be paid for twice. The
        # parcel's row is locked so two clerks at once queue here; the database's constraint
        # (one_issued_hen_permit_per_parcel_and_year) is the backstop.
        Premises.objects.select_for_update().filter(pk=premises.pk).first()
        held = HenPermit.objects.filter(
            premises=premises, status=HenPermit.Status.ISSUED, expires_on__year=v.expires.year
        ).first()
        if held is not None:
            raise ValidationError(
                {
                    "premises": f"Hen permit #{held.pk} is already issued for {premises} for "
                    f"{held.expires_on.year}; renew or revoke it instead."
                }
            )
    paid = None
    if v.may_issue:
        paid = record_payment(
            acting_user=acting_user,
            municipality=municipality,
            payer=applicant,
            due=v.fee,
            payment=payment,
            what="hen permit",
        )
    permit = HenPermit(
        municipality=municipality,
        payment=paid,
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
        status=HenPermit.Status.ISSUED if v.may_issue else HenPermit.Status.REFUSED,
        reasons=list(v.reasons),
        fee=v.fee if v.may_issue else None,
        fee_kind=v.fee_kind,
        expires_on=v.expires if v.may_issue else None,
        decision=law.stored(decision),
        decided_by=acting_user,
    )
    action = Action.HEN_PERMIT_ISSUE if v.may_issue else Action.HEN_PERMIT_REFUSE
    return save_record(permit, acting_user=acting_user, action=action, roles=ISSUERS)


def renew_hen_permit(permit: HenPermit, *, acting_user, renewed_on=None, payment: dict | None = None) -> HenPermit:
    """§ 7-1-26(d)(7): with no changes to the application, the permittee renews by paying the
    renewal fee; the application on file (site plan included) is carried forward unchanged.
    Changes need a new full application (`decide_hen_permit` with `changes=True`)."""
    return decide_hen_permit(
        acting_user=acting_user,
        municipality=permit.municipality,
        applicant=permit.applicant,
        premises=permit.premises,
        hens=permit.hens,
        zoning=permit.zoning,
        owners_of_record=permit.owners_of_record,
        all_owners_signed=permit.all_owners_signed,
        premises_registration=permit.premises_registration,
        roosters=permit.roosters,
        applicant_is_tenant=permit.applicant_is_tenant,
        renewal_of=permit,
        changes=False,
        applied_on=renewed_on,
        payment=payment,
    )


@transaction.atomic
def revoke_hen_permit(permit: HenPermit, *, acting_user, reason: str, revoked_on=None) -> HenPermit:
    """Revoke an issued hen permit, keeping it with the reason and the date.

    The text of § 7-1-26 we have (it ends at (e)(5)) names no revocation procedure — no notice,
    hearing or appeal. The choice, written in the pack with its citation: the clerk who issues
    the permit revokes it where chickens are kept "contrary to the terms of this section or
    contrary to the terms of any permit issued under this section" (§ 7-1-26(c)(3)). A renewal
    already issued for the next permit year is revoked with it; a revoked permit is not renewed.
    """
    require_role(acting_user, permit.municipality_id, ISSUERS)
    revoked_on = as_date(revoked_on) or today()
    errors = {}
    if permit.status != HenPermit.Status.ISSUED:
        when = f" on {permit.revoked_on:%B %-d, %Y}" if permit.revoked_on else ""
        status = permit.get_status_display().lower()
        errors["__all__"] = f"Hen permit #{permit.pk} was {status}{when}; only an issued permit is revoked."
    elif revoked_on < permit.applied_on:
        errors["revoked_on"] = f"The permit was issued on {permit.applied_on:%B %-d, %Y}."
    elif permit.expires_on and revoked_on > permit.expires_on:
        errors["revoked_on"] = f"Permit #{permit.pk} expired on {permit.expires_on:%B %-d, %Y}: nothing to revoke."
    if not (reason or "").strip():
        errors["reason"] = "Say why the permit is revoked (what was found, when, by whom)."
    if errors:
        raise ValidationError(errors)
    decision = law.ask(permit.municipality, "hen_permit_revocation", {}, revoked_on)
    if not decision.value.applies:
        raise ValidationError({"__all__": "; ".join(decision.notes)})
    chain, current = [], permit
    while current is not None:
        chain.append(current)
        current = current.renewals.filter(status=HenPermit.Status.ISSUED).first()
    for each in chain:
        before = snapshot(each)
        each.status = HenPermit.Status.REVOKED
        each.revoked_on = max(revoked_on, each.applied_on)
        each.revocation_reason = reason.strip()[:300]
        each.revocation = law.stored(decision)
        save_record(each, acting_user=acting_user, action=Action.HEN_PERMIT_REVOKE, roles=ISSUERS, before=before)
    return permit


# --- River Hills vicious-dog permit (§ 2.14(6)[g]) --------------------------------------------


def _in_force(declaration) -> None:
    if declaration.classification != Declaration.Classification.VICIOUS:
        raise ValidationError({"__all__": "Only a dog declared vicious needs this permit."})
    if declaration.status not in Declaration.IN_FORCE_STATUSES:
        raise ValidationError(
            {
                "__all__": f"The declaration is {declaration.get_status_display().lower()}"
                f"{' (' + declaration.status_reason + ')' if declaration.status_reason else ''}: "
                "it is no longer in force, so no permit issues or renews."
            }
        )


def _permit_decision(declaration, *, insurance, insurance_statement_signed, fee_paid, on, renews=None):
    """The engine's answer for the permit, or the refusal naming its sections."""
    municipality = declaration.municipality
    facts = {
        "first_permit": renews is None,
        "insurance_shown": bool((insurance or "").strip()),
        "insurance_statement_signed": bool(insurance_statement_signed),
    }
    if renews is not None:
        facts["renews_expiring_on"] = expiry(renews)
    decision = law.ask(municipality, "vicious_dog_permit", facts, on)
    if decision.value.may_issue is None:  # no permit here, or no fee set or in force to charge
        raise ValidationError({"fee_paid": "; ".join(decision.notes) or law.not_set_message(decision)})
    if not decision.value.may_issue:
        raise ValidationError(
            {name: f"Not yet: {why} ({law.sections(decision)})." for name, why in decision.value.reasons.items()}
        )
    fee = decision.value.fee
    if fee_paid is None or fee_paid < fee:
        fee_rule = law.ask(municipality, "vicious_dog_permit_fee", {"first_permit": renews is None}, on)
        raise ValidationError(
            {"fee_paid": f"The permit fee is ${fee:.2f} ({law.sections(fee_rule)}); paid ${fee_paid or 0:.2f}."}
        )
    return decision


def expiry(permit: ViciousDogPermit):
    """The permit's last day; a permit recorded before expiry was stored asks the engine."""
    if permit.expires_on:
        return permit.expires_on
    facts = {"insurance_shown": True, "insurance_statement_signed": True}
    decision = law.ask(permit.municipality, "vicious_dog_permit", facts, permit.issued_on)
    return decision.value.expires


def _save_permit(
    declaration, decision, *, acting_user, insurance, insurance_statement_signed, on, renewal_of=None
) -> ViciousDogPermit:
    permit = ViciousDogPermit(
        municipality_id=declaration.municipality_id,
        declaration=declaration,
        holder=declaration.case.owner,
        issued_on=on,
        expires_on=decision.value.expires,
        renewal_of=renewal_of,
        fee=decision.value.fee,
        insurance=insurance.strip(),
        insurance_statement_signed=insurance_statement_signed,
        decision=law.stored(decision),
        issued_by=acting_user,
    )
    action = Action.VICIOUS_DOG_PERMIT_RENEW if renewal_of else Action.VICIOUS_DOG_PERMIT_ISSUE
    permit = save_record(permit, acting_user=acting_user, action=action, roles=ISSUERS)
    # "due on or before January 1st of each year thereafter": the next renewal, with the law.
    meet(declaration.case, RENEWAL_KEY, on, f"renewed by permit #{permit.pk}")
    set_deadline(declaration.case, RENEWAL_KEY, "Renew the vicious-dog permit", decision.value.renewal_due, decision)
    return permit


@transaction.atomic
def issue_vicious_dog_permit(
    declaration, *, acting_user, insurance, fee_paid, insurance_statement_signed=False, issued_on=None
) -> ViciousDogPermit:
    """River Hills § 2.14(6)[g]: the clerk's annual permit, its fee prorated in the first year, to
    the end of the permit year; [e](1)(x): the insurance or bond "shall be obtained prior to the
    issuing of a permit". The case gets the renewal deadline."""
    require_role(acting_user, declaration.municipality_id, ISSUERS)
    issued_on = as_date(issued_on) or today()
    not_in_future(issued_on=issued_on)
    _in_force(declaration)
    if issued_on < declaration.determined_on:
        raise ValidationError(
            {
                "issued_on": f"{issued_on:%B %-d, %Y} is before the determination "
                f"of {declaration.determined_on:%B %-d, %Y}."
            }
        )
    earlier = declaration.vicious_dog_permits.filter(holder=declaration.case.owner).first()
    if earlier is not None:
        raise ValidationError(
            {"__all__": f"Vicious-dog permit #{earlier.pk} was issued on {earlier.issued_on:%B %-d, %Y}: renew it."}
        )
    signed = {"insurance": insurance, "insurance_statement_signed": insurance_statement_signed}
    decision = _permit_decision(declaration, **signed, fee_paid=fee_paid, on=issued_on)
    permit = _save_permit(declaration, decision, acting_user=acting_user, **signed, on=issued_on)
    # The permit is the proof of the [g] requirement; this action's audit event records both.
    declaration.requirements.filter(name="vicious_dog_permit", proof_on=None).update(
        proof=f"vicious-dog permit #{permit.pk}", proof_on=issued_on
    )
    meet(declaration.case, "requirement.vicious_dog_permit", issued_on, f"permit #{permit.pk}")
    return permit


@transaction.atomic
def renew_vicious_dog_permit(
    declaration, *, acting_user, insurance, fee_paid, insurance_statement_signed=False, renewed_on=None
) -> ViciousDogPermit:
    """§ 2.14(6)[g]: the annual fee, in full, "due on or before January 1st of each year
    thereafter"; the insurance or bond shown again ([e](1)(x): kept "during the twelve (12) month
    period for which a permit is sought"). Refused once the declaration no longer binds."""
    require_role(acting_user, declaration.municipality_id, ISSUERS)
    renewed_on = as_date(renewed_on) or today()
    # A renewal records a payment taken: not on a day still to come (a year 9999 was a 500).
    not_in_future(renewed_on=renewed_on)
    _in_force(declaration)
    latest = declaration.vicious_dog_permits.order_by("-issued_on", "-pk").first()
    if latest is None:
        raise ValidationError({"__all__": "No vicious-dog permit was issued on this declaration: issue the first."})
    if renewed_on < latest.issued_on:
        raise ValidationError(
            {
                "renewed_on": f"{renewed_on:%B %-d, %Y} is before permit #{latest.pk} was issued "
                f"({latest.issued_on:%B %-d, %Y})."
            }
        )
    revoked = latest.revoked_by
    if revoked is not None:
        raise ValidationError(
            {
                "__all__": f"Vicious-dog permit #{latest.pk} was revoked on {revoked.found_on:%B %-d, %Y}: "
                f"{revoked} ({law.sections(revoked.decision.get('citations', []))})."
            }
        )
    ends = expiry(latest)
    if ends and ends.year > renewed_on.year:
        raise ValidationError(
            {"__all__": f"Vicious-dog permit #{latest.pk} already runs to {ends:%B %-d, %Y}; renew it when due."}
        )
    if latest.issued_on == renewed_on:
        # The same renewal sent twice: a late renewal covers its own year, and a second one the
        # same day would be charged for the year after.
        runs = f", running to {ends:%B %-d, %Y}" if ends else ""
        raise ValidationError(
            {
                "__all__": f"Vicious-dog permit #{latest.pk} was issued on {renewed_on:%B %-d, %Y}{runs}; "
                "renew it when due."
            }
        )
    signed = {"insurance": insurance, "insurance_statement_signed": insurance_statement_signed}
    decision = _permit_decision(declaration, **signed, fee_paid=fee_paid, on=renewed_on, renews=latest)
    return _save_permit(declaration, decision, acting_user=acting_user, **signed, on=renewed_on, renewal_of=latest)
