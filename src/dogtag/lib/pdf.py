"""Printable documents. Most are HTML templates rendered to PDF by WeasyPrint: they extend
documents/base.html, which sets the page size, margins and the municipality's header. A
document printed by the thousand (the batch renewal notices, licensing/renewal_notice_pdf.py)
is drawn with ReportLab instead, in the same font: `drawing_fonts` embeds DejaVu Sans, the
documents' font, so any name prints (fonts-dejavu-core, as in the Dockerfile).

Every document is a tagged PDF a screen reader can read (PDF/UA-1, ISO 14289-1): WeasyPrint tags
the HTML's structure (headings, tables and their headers, an image's alt text), takes the title
from <title> and the language from <html lang>; the drawn notices are tagged as they are drawn
(lib/tagged_drawing.py)."""

import gc
from functools import cache
from pathlib import Path

from django.http import HttpResponse
from django.template.loader import render_to_string
from weasyprint import HTML

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONTS = {"DejaVuSans": "DejaVuSans.ttf", "DejaVuSans-Bold": "DejaVuSans-Bold.ttf"}


PDF_VARIANT = "pdf/ua-1"


def render_pdf(template: str, context: dict) -> bytes:
    return HTML(string=render_to_string(template, context)).write_pdf(pdf_variant=PDF_VARIANT)


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


def concatenate(parts, out) -> int:
    """PDF files one after another as one PDF written to `out`, in memory bounded by the largest
    part: each part's pages and every object they use are written out under new numbers as the
    part is read, and only the objects' offsets and the pages' numbers are kept (8 bytes each;
    pypdf's PdfWriter holds every page of the result until it writes). Returns the number of
    pages. Outlines and forms of the parts are not carried over: a batch of letters has none."""
    joined = _Concatenation(out)
    for part in parts:
        joined.add(part)
    joined.finish()
    return len(joined.pages)


class _Concatenation:
    def __init__(self, out):
        from array import array

        from pypdf.generic import IndirectObject

        self.out, self.start = out, out.tell()
        self.offsets = array("Q", [0, 0, 0])  # by object number: 0 unused, 1 the catalog, 2 the page tree
        self.pages = array("Q")
        self.tree = IndirectObject(2, 0, None)
        out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")

    def write(self, number: int, obj) -> None:
        self.offsets[number] = self.out.tell() - self.start
        self.out.write(b"%d 0 obj\n" % number)
        obj.write_to_stream(self.out)
        self.out.write(b"\nendobj\n")

    def add(self, part) -> None:
        from pypdf import PdfReader
        from pypdf.generic import NameObject

        reader = PdfReader(part)
        self.numbers, self.waiting = {}, []  # this part's object numbers -> the result's
        for page in reader.pages:  # pypdf has copied the inherited attributes onto each page
            page[NameObject("/Parent")] = self.tree
            self.pages.append(self.number_of(page.indirect_reference).idnum)
        while self.waiting:
            number, ref = self.waiting.pop()
            self.write(number, self.renumbered(ref.get_object()))
        del reader, self.numbers, self.waiting
        gc.collect()  # a reader's objects refer back to it: free this part before the next is read

    def number_of(self, ref):
        from pypdf.generic import IndirectObject

        key = (ref.idnum, ref.generation)
        if key not in self.numbers:
            self.numbers[key] = len(self.offsets)
            self.offsets.append(0)
            self.waiting.append((self.numbers[key], ref))
        return IndirectObject(self.numbers[key], 0, None)

    def renumbered(self, obj):
        """obj with the references inside it renumbered, in place (the part is read once)."""
        from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

        if isinstance(obj, IndirectObject):
            return self.number_of(obj)
        if isinstance(obj, DictionaryObject):
            for key, value in list(dict.items(obj)):
                dict.__setitem__(obj, key, self.renumbered(value))
        elif isinstance(obj, ArrayObject):
            for i in range(len(obj)):
                list.__setitem__(obj, i, self.renumbered(list.__getitem__(obj, i)))
        return obj

    def finish(self) -> None:
        """The page tree, the catalog and the cross-reference table, written a slice at a time."""
        out, pages, offsets = self.out, self.pages, self.offsets
        offsets[2] = out.tell() - self.start
        out.write(b"2 0 obj\n<< /Type /Pages /Count %d /Kids [" % len(pages))
        for i in range(0, len(pages), 4096):
            out.write(b"".join(b"%d 0 R " % n for n in pages[i : i + 4096]))
        out.write(b"] >>\nendobj\n")
        offsets[1] = out.tell() - self.start
        out.write(b"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
        xref = out.tell() - self.start
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % len(offsets))
        for i in range(1, len(offsets), 4096):
            out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets[i : i + 4096]))
        out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets), xref))
