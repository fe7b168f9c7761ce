"""Moved to lib/pdf.py; this name stays only until every caller imports lib.pdf."""

from dogtag.lib.pdf import pdf_response, render_pdf  # noqa: F401
