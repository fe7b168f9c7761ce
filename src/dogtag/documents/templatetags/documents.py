"""What a printed document needs that a screen does not: the seal embedded in the page (the PDF
renderer has no session and no URL to fetch it from)."""

import base64

from django import template

register = template.Library()
TYPES = {"png": "image/png", "jpg": "image/jpeg"}


@register.filter
def embedded(field_file) -> str:
    """A stored image as a data: URI, or "" when there is none or it cannot be read."""
    if not field_file:
        return ""
    try:
        with field_file.open("rb") as f:
            content = f.read()
    except OSError:
        return ""
    kind = TYPES.get(field_file.name.rsplit(".", 1)[-1], "image/png")
    return f"data:{kind};base64,{base64.b64encode(content).decode()}"


@register.filter
def sections(citations) -> list[str]:
    """The sections a document rests on, each once, in the order first cited ("Wis. Stats." before
    the state's)."""
    named = (
        f"{'Wis. Stats. ' if c.get('jurisdiction') == 'wi' else ''}{c.get('section', '')}" for c in citations or []
    )
    return list(dict.fromkeys(named))
