"""Links to the hen permit pages, shown only where the ordinance has a hen permit:
the list to every staff member, the application form to those who issue permits."""

from django import template

from dogtag.accounts.scope import has_role
from dogtag.licensing import law
from dogtag.permits.actions import ISSUERS
from dogtag.rules import offered

register = template.Library()


@register.inclusion_tag("permits/_hen_links.html", takes_context=True)
def hen_links(context, municipality, button=False):
    user = context["request"].user
    return {
        "municipality": municipality,
        "offered": offered.hen_permit(law.pack_of(municipality)),
        "can_issue": has_role(user, municipality.pk, ISSUERS),
        "button": button,
    }
