"""Evidence a resident uploads: a photo or PDF, checked by its first bytes (not by the name the
browser sends) and by size."""

from django.conf import settings

KINDS = {b"%PDF-": ".pdf", b"\xff\xd8\xff": ".jpg", b"\x89PNG\r\n\x1a\n": ".png"}


def check(upload) -> tuple[str | None, str]:
    """(error, extension): an error names what is wrong, in plain words."""
    limit = settings.DOGTAG_UPLOAD_MAX_BYTES
    if upload.size > limit:
        return f"The file is {upload.size / 1_000_000:.1f} MB; the largest accepted is {limit / 1_000_000:.0f} MB.", ""
    head = upload.read(8)
    upload.seek(0)
    for magic, extension in KINDS.items():
        if head.startswith(magic):
            return None, extension
    return "Upload a photo (JPEG or PNG) or a PDF.", ""
