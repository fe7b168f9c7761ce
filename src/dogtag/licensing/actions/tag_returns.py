"""The year's list of tags to return to the state (s. 174.07(3)(b)), stored once."""

from django.core.files.base import ContentFile
from django.db import transaction

from dogtag.audit.action_names import Action
from dogtag.audit.record import save_and_record
from dogtag.lib.pdf import render_pdf
from dogtag.lib.stored_files import save_over
from dogtag.licensing import law
from dogtag.licensing.models import Tag, TagReturnList


def tags_to_return(municipality, year: int):
    """Unused and voided tags to return to the county clerk by December 31 (s. 174.07(3)(b))."""
    return (
        Tag.objects.filter(municipality=municipality, license_year=year)
        .exclude(status=Tag.Status.ISSUED)
        .order_by("status", "serial")
    )


@transaction.atomic
def store_tag_return_list(*, municipality, license_year: int, on):
    """The list stored, or None if stored already or the law sets no return date (the worker calls it)."""
    if TagReturnList.objects.filter(municipality=municipality, license_year=license_year).exists():
        return None
    expiry = law.ask(municipality, "license_expiry", {"issued_on": on, "license_year": license_year}, on, {})
    return_by = expiry.value.unused_tags_return_by
    if return_by is None:
        return None
    tags = list(tags_to_return(municipality, license_year))
    pdf = render_pdf(
        "licensing/tag_return_list.html",
        {
            "municipality": municipality,
            "year": license_year,
            "tags": tags,
            "return_by": return_by,
            "made_on": on,
            "citations": expiry.citations,
        },
    )
    stored = TagReturnList(
        municipality=municipality,
        license_year=license_year,
        return_by=return_by,
        tags=len(tags),
        pdf=save_over(f"tag-returns/{municipality.slug}-{license_year}.pdf", ContentFile(pdf)),
    )
    return save_and_record(stored, acting_user=None, action=Action.TAGS_RETURN_LIST_STORED)
