"""Which of a complaint's steps its municipality's ordinance has: the written notice
and the repeat only where the pack has that procedure for the complaint's kind."""

from django import template

from dogtag.licensing import law
from dogtag.rules import offered

register = template.Library()


@register.filter
def has_notice_step(complaint) -> bool:
    return offered.complaint_notice_step(law.pack_of(complaint.municipality), complaint.kind)
