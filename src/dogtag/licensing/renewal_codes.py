"""The short renewal code each printed notice carries: one per animal and license
year, made when its notice is first printed and kept (registry.RenewalCode), so a part printed
again after a crash, or a notice printed twice, shows the same code."""

from dogtag.lib.short_codes import new_code
from dogtag.registry.models import RenewalCode


def codes_for(municipality, license_year: int, animal_ids) -> tuple[dict[int, str], list[RenewalCode]]:
    """Each animal's code, and the RenewalCode rows still to be written (the caller's action
    writes them in the transaction that records the printing)."""
    ids = list(animal_ids)
    known = dict(
        RenewalCode.objects.filter(license_year=license_year, animal_id__in=ids).values_list("animal_id", "code")
    )
    new = [
        RenewalCode(municipality_id=municipality.pk, animal_id=a, license_year=license_year, code=new_code())
        for a in dict.fromkeys(ids)
        if a not in known
    ]
    return {**known, **{c.animal_id: c.code for c in new}}, new
