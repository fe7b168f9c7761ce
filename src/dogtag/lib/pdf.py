"""Printable documents: HTML templates (extending documents/base.html) rendered to PDF by
WeasyPrint, and the renewal notices printed by the thousand drawn with ReportLab
(licensing/renewal_notice_pdf.py) in the same font, DejaVu Sans (`drawing_fonts`). Every document
is a tagged PDF a screen reader can read (PDF/UA-1, ISO 14289-1): WeasyPrint tags the HTML's
structure, the drawn notices are tagged as they are drawn (lib/tagged_drawing.py)."""

import gc
from array import array
from functools import cache
from itertools import islice
from pathlib import Path

from django.http import HttpResponse
from django.template.loader import render_to_string
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject, NumberObject, TextStringObject
from weasyprint import HTML

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONTS = {"DejaVuSans": "DejaVuSans.ttf", "DejaVuSans-Bold": "DejaVuSans-Bold.ttf"}
PDF_VARIANT = "pdf/ua-1"  # tagged, with language and title: what a screen reader needs


def render_pdf(template: str, context: dict) -> bytes:
    return HTML(string=render_to_string(template, context)).write_pdf(pdf_variant=PDF_VARIANT)


def pdf_response(template: str, context: dict, filename: str) -> HttpResponse:
    response = HttpResponse(render_pdf(template, context), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
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


STRUCT_TREE_ROOT, DOCUMENT, PARENT_TREE = 3, 4, 5  # the result's fixed object numbers


def concatenate(parts, out) -> int:
    """PDF files one after another as one PDF written to `out`, in memory bounded by the largest
    part: each part's pages and every object they use are written out under new numbers as the
    part is read, and only the objects' offsets and the pages' numbers are kept (8 bytes each;
    pypdf's PdfWriter holds every page of the result until it writes). Returns the number of
    pages. The parts' structure trees become one (a tagged part stays readable in the result: its
    sections under one Document, its pages' marks renumbered in one parent tree), with the first
    tagged part's title and language. Outlines and forms of the parts are not carried over: a
    batch of letters has none."""
    joined = _Concatenation(out)
    for part in parts:
        joined.add(part)
    joined.finish()
    return len(joined.pages)


class _Concatenation:
    def __init__(self, out):
        self.out, self.start = out, out.tell()
        # by object number: 0 unused, then the catalog, the page tree, the structure tree's root, its
        # Document element and its parent tree
        self.offsets = array("Q", [0] * (PARENT_TREE + 1))
        self.pages = array("Q")
        self.sections = array("Q")  # the parts' sections, children of the one Document
        self.marks = array("Q")  # by the result's StructParents key: the page's array of elements
        self.title = self.lang = None
        self.tree = IndirectObject(2, 0, None)
        out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")

    def write(self, number: int, obj) -> None:
        self.begin(number)
        obj.write_to_stream(self.out)
        self.out.write(b"\nendobj\n")

    def add(self, part) -> None:
        reader = PdfReader(part)
        self.numbers, self.waiting = {}, []  # this part's object numbers -> the result's
        marks = self.structure_of(reader)
        for page in reader.pages:  # pypdf has copied the inherited attributes onto each page
            page[NameObject("/Parent")] = self.tree
            if (key := page.get("/StructParents")) in marks:
                page[NameObject("/StructParents")] = NumberObject(len(self.marks))
                self.marks.append(self.number_of(marks[key]).idnum)
            self.pages.append(self.number_of(page.indirect_reference).idnum)
        while self.waiting:
            number, ref = self.waiting.pop()
            self.write(number, self.renumbered(ref.get_object()))
        del reader, self.numbers, self.waiting
        gc.collect()  # a reader's objects refer back to it: free this part before the next is read

    def structure_of(self, reader) -> dict:
        """The part's structure tree joined to the result's: its root and Document element stand
        for the result's, its sections are kept; returns its parent tree (StructParents key ->
        the reference to the page's elements)."""
        catalog = reader.trailer["/Root"]
        if "/StructTreeRoot" not in catalog:
            return {}
        root_ref = catalog.raw_get("/StructTreeRoot")
        root = root_ref.get_object()
        document_ref = root.raw_get("/K")
        self.numbers[(root_ref.idnum, root_ref.generation)] = STRUCT_TREE_ROOT
        self.numbers[(document_ref.idnum, document_ref.generation)] = DOCUMENT
        for section in list.__iter__(document_ref.get_object().raw_get("/K").get_object()):
            self.sections.append(self.number_of(section).idnum)
        if self.title is None:
            self.title, self.lang = (reader.metadata or {}).get("/Title", ""), catalog.get("/Lang", "")
        pairs = list.__iter__(root["/ParentTree"]["/Nums"])  # the references themselves, not what they point to
        return dict(zip(pairs, pairs, strict=False))

    def number_of(self, ref):
        key = (ref.idnum, ref.generation)
        if key not in self.numbers:
            self.numbers[key] = len(self.offsets)
            self.offsets.append(0)
            self.waiting.append((self.numbers[key], ref))
        return IndirectObject(self.numbers[key], 0, None)

    def renumbered(self, obj):
        """obj with the references inside it renumbered, in place (the part is read once)."""
        if isinstance(obj, IndirectObject):
            return self.number_of(obj)
        if isinstance(obj, DictionaryObject):
            for key, value in list(dict.items(obj)):
                dict.__setitem__(obj, key, self.renumbered(value))
        elif isinstance(obj, ArrayObject):
            for i in range(len(obj)):
                list.__setitem__(obj, i, self.renumbered(list.__getitem__(obj, i)))
        return obj

    def begin(self, number: int, opening: bytes = b"") -> None:
        self.offsets[number] = self.out.tell() - self.start
        self.out.write(b"%d 0 obj\n%s" % (number, opening))

    def references(self, numbers, each=b"%d 0 R ") -> None:
        numbers = iter(numbers)
        while chunk := b"".join(each % n for n in islice(numbers, 4096)):
            self.out.write(chunk)

    def array(self, number: int, head: bytes, numbers, each=b"%d 0 R ") -> None:
        """Object `number`: `head` and the array of `numbers`, each written as `each`."""
        self.begin(number, head + b" [")
        self.references(numbers, each)
        self.out.write(b"] >>\nendobj\n")

    def finish(self) -> None:
        """The page tree, the structure tree, the catalog and the cross-reference table, written a
        slice at a time."""
        out, offsets = self.out, self.offsets
        self.array(2, b"<< /Type /Pages /Count %d /Kids" % len(self.pages), self.pages)
        catalog = DictionaryObject({NameObject("/Type"): NameObject("/Catalog"), NameObject("/Pages"): self.tree})
        trailer = self.finish_structure(catalog) if self.sections else b""
        self.write(1, catalog)
        xref = out.tell() - self.start
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % len(offsets))
        self.references(islice(offsets, 1, None), b"%010d 00000 n \n")
        out.write(b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets), trailer, xref))

    def finish_structure(self, catalog) -> bytes:
        """The one structure tree over the parts' sections, the title and the language (as
        lib/tagged_drawing.py writes them), entered in `catalog`; returns the trailer's entries."""
        from dogtag.lib.tagged_drawing import document_entries, xmp  # ReportLab, loaded when drawing

        self.begin(STRUCT_TREE_ROOT, b"<< /Type /StructTreeRoot /K %d 0 R /ParentTree %d 0 R /ParentTreeNextKey %d >>\n"
                   b"endobj\n" % (DOCUMENT, PARENT_TREE, len(self.marks)))  # fmt: skip
        self.array(DOCUMENT, b"<< /Type /StructElem /S /Document /P %d 0 R /K" % STRUCT_TREE_ROOT, self.sections)
        self.array(PARENT_TREE, b"<< /Nums", enumerate(self.marks), b"%d %d 0 R ")
        info, metadata = len(self.offsets), len(self.offsets) + 1
        self.offsets.extend([0, 0])
        self.write(info, DictionaryObject({NameObject("/Title"): TextStringObject(self.title)}))
        packet = xmp(str(self.title), str(self.lang))
        self.begin(metadata, b"<< /Type /Metadata /Subtype /XML /Length %d >>\nstream\n%s\nendstream\nendobj\n"
                   % (len(packet), packet))  # fmt: skip
        catalog[NameObject("/StructTreeRoot")] = IndirectObject(STRUCT_TREE_ROOT, 0, None)
        catalog[NameObject("/Metadata")] = IndirectObject(metadata, 0, None)
        catalog.update(document_entries(str(self.lang)))
        return b"/Info %d 0 R " % info
