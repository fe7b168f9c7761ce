"""Evidence a resident uploads: a photo or PDF, checked by size and by its content (not by the
name the browser sends): a PDF must parse as a PDF with at least one page (pypdf), a photo must
decode as the PNG or JPEG its first bytes claim (Pillow). A file that merely starts with
`%PDF-` — an HTML page behind a PDF header, say — is refused."""

import io

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from PIL import Image, UnidentifiedImageError
from pypdf import PdfReader
from pypdf.errors import PyPdfError

KINDS = {b"%PDF-": ".pdf", b"\xff\xd8\xff": ".jpg", b"\x89PNG\r\n\x1a\n": ".png"}
WANTED = _("Upload a photo (JPEG or PNG) or a PDF.")
IMAGE_FORMATS = {".jpg": "JPEG", ".png": "PNG"}


class UploadInput(forms.ClearableFileInput):
    """A file input carrying the largest size accepted (`data-max-bytes`), read from the settings
    each time the page is drawn."""

    limit = "DOGTAG_UPLOAD_MAX_BYTES"  # the name of the setting that holds the limit

    def get_context(self, name, value, attrs):
        return super().get_context(name, value, {**(attrs or {}), "data-max-bytes": getattr(settings, self.limit)})


class UploadField(forms.FileField):
    """A file field whose input says the largest size accepted: forms.js refuses a larger file
    before it is sent, with the page's error summary and the field's error, rather than the bare
    "too large" page the server can only answer once the body is over its limit."""

    def __init__(self, *args, limit="DOGTAG_UPLOAD_MAX_BYTES", **kwargs):
        super().__init__(*args, widget=UploadInput, **kwargs)
        self.widget.limit = limit


def check(upload) -> tuple[str | None, str]:
    """(error, extension): an error names what is wrong, in plain words."""
    limit = settings.DOGTAG_UPLOAD_MAX_BYTES
    if upload.size > limit:
        sizes = {"size": f"{upload.size / 1_000_000:.1f}", "limit": f"{limit / 1_000_000:.0f}"}
        return gettext("The file is %(size)s MB; the largest accepted is %(limit)s MB.") % sizes, ""
    upload.seek(0)
    content = upload.read()
    upload.seek(0)
    extension = next((ext for magic, ext in KINDS.items() if content.startswith(magic)), None)
    if extension is None:
        return str(WANTED), ""
    problem = _pdf_problem(content) if extension == ".pdf" else _image_problem(content, IMAGE_FORMATS[extension])
    return (f"{problem} {WANTED}", "") if problem else (None, extension)


def _pdf_problem(content: bytes) -> str | None:
    if b"%%EOF" not in content[-1024:]:
        return "This file starts like a PDF but is not a complete one."
    try:
        reader = PdfReader(io.BytesIO(content), strict=True)
        if len(reader.pages) < 1:
            return "This PDF has no pages."
        reader.pages[0].mediabox  # noqa: B018 — the page's own dictionary must be readable
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, RecursionError, OSError):
        return "This file starts like a PDF but is not a readable PDF."
    return None


def _image_problem(content: bytes, expected: str) -> str | None:
    """Opening reads only the header; a photo declaring more than DOGTAG_UPLOAD_MAX_PIXELS is
    refused from it, before any pixel is decoded (a small file can declare gigabytes of pixels)."""
    name = "a PNG" if expected == "PNG" else "a JPEG"
    limit = settings.DOGTAG_UPLOAD_MAX_PIXELS
    try:
        with Image.open(io.BytesIO(content)) as image:
            if image.format != expected:
                return f"This file starts like {name} photo but is not one."
            width, height = image.size
            if width * height > limit:
                return (
                    f"This photo is {width} × {height} pixels ({width * height / 1_000_000:.0f} megapixels); "
                    f"the largest accepted is {limit / 1_000_000:.0f} megapixels."
                )
            image.verify()
        with Image.open(io.BytesIO(content)) as image:
            image.load()  # verify() checks the structure; decoding finds truncated pixel data
    except Image.DecompressionBombError:  # Pillow's own refusal, past twice its MAX_IMAGE_PIXELS
        return f"This photo declares more pixels than the {limit / 1_000_000:.0f} megapixels accepted."
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        return f"This file starts like {name} photo but is not a readable one."
    return None
