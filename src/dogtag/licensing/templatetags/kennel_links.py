"""Links to the multiple-dog and kennel license pages, shown only where the law has them."""

from django import template

from dogtag.licensing.kennels import rules as kennels
from dogtag.licensing.multiple_dogs import rules as multiple_dogs

register = template.Library()


@register.inclusion_tag("licensing/_kennel_links.html")
def kennel_links(municipality):
    return {
        "municipality": municipality,
        "multiple_dog": multiple_dogs.provision(municipality) is not None,
        "kennel": kennels.provision(municipality) is not None,
    }
