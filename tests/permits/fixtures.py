"""Benton permit records for the isolation walk: the hen permit (tests/enforcement/fixtures.py)
becomes an issued one with a site plan on file (so its PDF and plan pages exist), and Benton's
declaration gets a vicious-dog permit. Records for the walk only: Benton's law has neither."""

from datetime import date

from django.core.files.base import ContentFile

from dogtag.permits.models import HenPermit, ViciousDogPermit


def benton_permits(t):
    """Needs benton_cases(t) first. Sets t.vicious_dog_permit."""
    t.hen_permit.status = HenPermit.Status.ISSUED
    t.hen_permit.fee = "50.00"
    t.hen_permit.expires_on = date(t.hen_permit.applied_on.year, 12, 31)
    t.hen_permit.site_plan.save("site-plan.pdf", ContentFile(b"%PDF-1.4 Benton site plan"), save=True)
    t.vicious_dog_permit = ViciousDogPermit.objects.create(
        municipality=t.benton,
        declaration=t.declaration,
        holder=t.owner,
        issued_on=t.declaration.determined_on,
        expires_on=date(t.declaration.determined_on.year, 12, 31),
        fee="1000.00",
        insurance="Acme bond, $100,000",
        issued_by=t.clerk,
    )
    return t.vicious_dog_permit
