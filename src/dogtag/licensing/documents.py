"""The licensing documents the outbox renders when it sends a message (outbox/documents.py)."""

from django.utils import translation

from dogtag.lib.pdf import render_pdf
from dogtag.licensing import law
from dogtag.licensing.models import License
from dogtag.outbox.documents import renderer

LICENSE_CERTIFICATE = "license-certificate"


def certificate_context(license: License) -> dict:
    """What the license's certificate and receipt print: the license, its tag, the municipality
    and the office its ordinance names to issue it."""
    municipality = license.municipality
    office = law.issuing_office(municipality, license.issued_on)
    return {"license": license, "tag": license.current_tag, "municipality": municipality, "office": office}


@renderer(LICENSE_CERTIFICATE)
def license_certificate(*, license: int, language: str) -> bytes:
    """The license's certificate, in the language of the message it is attached to."""
    record = License.objects.select_related("municipality", "payment", "holder", "issued_by").get(pk=license)
    with translation.override(language):
        return render_pdf("licensing/certificate.html", certificate_context(record))


def license_certificate_document(license: License, language: str) -> tuple[str, str, dict]:
    """What `outbox.mail.queue(document=...)` takes to attach the license's certificate."""
    filename = f"license-{license.license_year}-{license.serial}.pdf"
    return filename, LICENSE_CERTIFICATE, {"license": license.pk, "language": language}
