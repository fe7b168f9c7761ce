"""Permits: Cedarburg's backyard hens (§ 7-1-26) and River Hills' vicious-dog permit (§ 2.14(6)[g]).
Refused applications are kept with the reason, revoked permits with the reason and the date;
nothing is deleted. A hen permit is not transferable and ends on December 31 (the engine says so)."""

from django.conf import settings
from django.db import models

from dogtag.registry.models import Person, Premises, Scoped, today


class HenPermit(Scoped):
    class Status(models.TextChoices):
        ISSUED = "issued", "Issued"
        REFUSED = "refused", "Refused"
        REVOKED = "revoked", "Revoked"

    class Zoning(models.TextChoices):
        SINGLE_FAMILY = "single_family_residential", "Single-family residential"
        MULTI_FAMILY = "multi_family_residential", "Multi-family residential"
        OTHER = "other", "Other"

    applicant = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="hen_permits")
    premises = models.ForeignKey(Premises, on_delete=models.PROTECT, related_name="hen_permits")
    applied_on = models.DateField(default=today)
    zoning = models.CharField(max_length=30, choices=Zoning.choices)
    applicant_is_tenant = models.BooleanField("the applicant is a tenant or occupant, not the owner", default=False)
    owners_of_record = models.CharField("all owners of record", max_length=300)
    all_owners_signed = models.BooleanField("signed (or countersigned) by all owners of record", default=False)
    premises_registration = models.CharField("Livestock Premises Registration number", max_length=50, blank=True)
    site_plan = models.FileField(upload_to="permits/site-plans/%Y/", blank=True)
    hens = models.PositiveSmallIntegerField()
    roosters = models.PositiveSmallIntegerField(default=0)
    renewal_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="renewals")
    changes = models.BooleanField("changes since the last permit", default=False)
    status = models.CharField(max_length=10, choices=Status.choices)
    reasons = models.JSONField(default=list, blank=True)
    fee = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    fee_kind = models.CharField(max_length=12, blank=True)
    payment = models.ForeignKey("licensing.Payment", null=True, blank=True, on_delete=models.PROTECT)
    expires_on = models.DateField(null=True, blank=True)
    decision = models.JSONField(default=dict, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    revoked_on = models.DateField(null=True, blank=True)
    revocation_reason = models.CharField(max_length=300, blank=True)
    revocation = models.JSONField(default=dict, blank=True, help_text="the engine's answer the revocation cites")

    class Meta:
        ordering = ["-applied_on", "-pk"]
        constraints = [
            # One issued permit a parcel and permit year (the year named by its last day, the
            # engine's December 31): the action refuses a second with the permit's number; this
            # holds against two clerks issuing at the same moment.
            models.UniqueConstraint(
                fields=["premises", "expires_on"],
                condition=models.Q(status="issued"),
                name="one_issued_hen_permit_per_parcel_and_year",
                violation_error_message="A hen permit is already issued for this parcel and permit year.",
            ),
        ]

    def __str__(self):
        return f"Hen permit #{self.pk}, {self.premises} ({self.get_status_display().lower()})"


class ViciousDogPermit(Scoped):
    """The annual permit to harbor a dog declared vicious (River Hills § 2.14(6)[g]): the fee from
    the engine (the first year prorated), the insurance or bond shown before it issues."""

    declaration = models.ForeignKey(
        "enforcement.Declaration", on_delete=models.PROTECT, related_name="vicious_dog_permits"
    )
    holder = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="vicious_dog_permits")
    issued_on = models.DateField()
    expires_on = models.DateField(null=True, blank=True, help_text="the end of the permit year (the engine's)")
    renewal_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="renewals")
    fee = models.DecimalField(max_digits=9, decimal_places=2)
    insurance = models.CharField("liability insurance or surety bond", max_length=300)
    insurance_statement_signed = models.BooleanField(
        "the owner signed the statement attesting to keep the insurance for the permit year", default=False
    )
    decision = models.JSONField(default=dict, blank=True)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["-issued_on", "-pk"]

    @property
    def revoked_by(self):
        """The finding of a failure to comply that revoked this permit (River Hills
        § 2.14(6)[e](1)(ix)), if one was made while it ran."""
        found = self.declaration.compliance_failures.filter(found_on__gte=self.issued_on)
        return (found.filter(found_on__lte=self.expires_on) if self.expires_on else found).first()

    def __str__(self):
        return f"Vicious-dog permit #{self.pk} ({(self.expires_on or self.issued_on).year})"
