"""Printable documents. Most are HTML templates rendered to PDF by WeasyPrint: they extend
documents/base.html, which sets the page size, margins and the municipality's header. A
document printed by the thousand (the batch renewal notices, licensing/renewal_notice_pdf.py)
is drawn with ReportLab instead, in the same font: `drawing_fonts` embeds DejaVu Sans, the
documents' font, so any name prints (fonts-dejavu-core, as in the Dockerfile)."""

from functools import cache
from pathlib import Path

from django.http import HttpResponse
from django.template.loader import render_to_string
from weasyprint import HTML

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONTS = {"DejaVuSans": "DejaVuSans.ttf", "DejaVuSans-Bold": "DejaVuSans-Bold.ttf"}


def render_pdf(template: str, context: dict) -> bytes:
    return HTML(string=render_to_string(template, context)).write_pdf()


def pdf_response(template: str, context: dict, filename: str, *, inline=True) -> HttpResponse:
    response = HttpResponse(render_pdf(template, context), content_type="application/pdf")
    response["Content-Disposition"] = f'{"inline" if inline else "attachment"}; filename="{filename}"'
    return response


@cache
def drawing_fonts() -> tuple[str, str]:
    """The regular and bold font names for ReportLab, registered once a process (each document
    embeds the subset of glyphs it uses)."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in FONTS.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    regular, bold = FONTS
    addMapping(regular, 0, 0, regular)  # <b> in a paragraph is the bold face
    addMapping(regular, 1, 0, bold)
    return regular, bold
