"""Every printable document is an HTML template rendered to PDF by WeasyPrint. Templates
extend documents/base.html, which sets the page size, margins and the municipality's header."""

from django.http import HttpResponse
from django.template.loader import render_to_string
from weasyprint import HTML


def render_pdf(template: str, context: dict) -> bytes:
    return HTML(string=render_to_string(template, context)).write_pdf()


def pdf_response(template: str, context: dict, filename: str, *, inline=True) -> HttpResponse:
    response = HttpResponse(render_pdf(template, context), content_type="application/pdf")
    response["Content-Disposition"] = f'{"inline" if inline else "attachment"}; filename="{filename}"'
    return response
