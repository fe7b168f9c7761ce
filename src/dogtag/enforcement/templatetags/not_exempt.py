"""The rows of a page of the district's not-exempt list written in Python, with the markup of
dogtag/_table.html's rows and of the animal's cell (enforcement/cells/not_exempt_animal.html), so
the HTML is the same byte for byte (tests/enforcement/test_district_exemption.py compares the two):
a page is a hundred rows of seven cells, which the template language draws at several times the
cost. The cells are the table's own (`Shown.rows`, from the columns the CSV exports)."""

from django import template
from django.template.base import render_value_in_context
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()

ANIMAL_CELL = "enforcement/cells/not_exempt_animal.html"


def _animal(row) -> str:
    status = "" if row.status == "active" else f" ({conditional_escape(row.get_status_display().lower())})"
    url = conditional_escape(reverse("animal", args=[row.pk]))
    return f'<a href="{url}">{conditional_escape(row.name)}</a>{status}'


@register.simple_tag(takes_context=True)
def not_exempt_rows(context, shown):
    """`shown`'s rows as `<tr>` elements, or the table's "empty" row."""
    out = []
    for row, css, cells in shown.rows:
        out.append(f'<tr class="{conditional_escape(css)}">' if css else "<tr>")
        for c in cells:
            out.append('<td class="amount">' if c.numeric else "<td>")
            if c.template is not None:
                if c.template != ANIMAL_CELL:
                    raise ValueError(f"a cell template this list does not write: {c.template}")
                out.append(_animal(row))
            elif c.link:
                link, text = render_value_in_context(c.link, context), render_value_in_context(c.text, context)
                out.append(f'<a href="{link}">{text}</a>')
            else:
                out.append(render_value_in_context(c.text, context))
            out.append("</td>")
        out.append("</tr>\n  ")
    if not out:
        empty = render_value_in_context(shown.table.empty, context)
        out.append(f'<tr><td colspan="{len(shown.table.columns)}" class="muted">{empty}</td></tr>')
    return mark_safe("".join(out))  # noqa: S308 (every value is escaped above)
