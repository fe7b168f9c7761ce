"""A drawn document tagged as it is drawn, so a screen reader reads it as the HTML documents are
read (PDF/UA-1, ISO 14289-1 §7): each piece drawn on the canvas is marked content with a number on
its page (ISO 32000-1 §14.6), or an artifact when it only decorates (a rule, §14.8.2.2); once
drawn, the structure tree is written over the marks, a section a page in the order drawn, with
the document's language, title and the PDF/UA identification (§14.7, §14.8, §14.9.2)."""

from contextlib import contextmanager
from io import BytesIO
from xml.sax.saxutils import escape

from pypdf import PdfWriter
from pypdf.generic import ArrayObject, BooleanObject, DictionaryObject, NameObject, NumberObject
from pypdf.generic import TextStringObject as Text
from reportlab.platypus.flowables import Flowable

XMP = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>
<dc:language><rdf:Bag><rdf:li>{lang}</rdf:li></rdf:Bag></dc:language>
<pdfuaid:part>1</pdfuaid:part>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>"""


class Tags:
    """The marks of one canvas: for each page, the structure role (and alternative text) of each
    marked piece, in the order drawn; a piece's number on its page is its place in that list."""

    def __init__(self, canvas, *, title: str, lang: str):
        self.canvas, self.title, self.lang = canvas, title, lang
        self.pages: list[list[tuple[str, str | None]]] = [[]]
        canvas.setTitle(title)

    @contextmanager
    def marked(self, role: str, alt: str | None = None):
        """What is drawn inside, one structure element `role` (Figure, P, H1…)."""
        page = self.pages[-1]
        self.canvas.addLiteral(f"/{role} <</MCID {len(page)}>> BDC")
        page.append((role, alt))
        yield
        self.canvas.addLiteral("EMC")

    @contextmanager
    def artifact(self):
        """What is drawn inside is decoration, not content: a screen reader passes over it."""
        self.canvas.addLiteral("/Artifact BMC")
        yield
        self.canvas.addLiteral("EMC")

    def show_page(self) -> None:
        self.canvas.showPage()
        self.pages.append([])

    def pdf(self) -> bytes:
        return structured(self.canvas.getpdfdata(), [page for page in self.pages if page], self.title, self.lang)


class Marked(Flowable):
    """A flowable drawn as one structure element (or as an artifact when `role` is None). It may
    be drawn on many pages: its lines are broken once for a width."""

    def __init__(self, tags: Tags, flowable, role: str | None):
        super().__init__()
        self.tags, self.flowable, self.role = tags, flowable, role
        self.wrapped_for, self.size = None, (0, 0)
        self.getSpaceBefore, self.getSpaceAfter = flowable.getSpaceBefore, flowable.getSpaceAfter

    def wrap(self, width, height):
        if width != self.wrapped_for:
            self.size, self.wrapped_for = self.flowable.wrap(width, height), width
        return self.size

    def drawOn(self, canvas, x, y, _sW=0):
        with self.tags.marked(self.role) if self.role else self.tags.artifact():
            self.flowable.drawOn(canvas, x, y, _sW)


def structured(pdf: bytes, pages: list[list[tuple[str, str | None]]], title: str, lang: str) -> bytes:
    """`pdf` with the structure tree of its marks: a Document of one Sect a page, each holding
    the page's elements in the order drawn; the parent tree maps each page's marks back to them."""
    writer = PdfWriter(clone_from=BytesIO(pdf))
    add = writer._add_object  # pypdf's way to make an object indirect

    def element(role: str, parent, **entries):
        entries = {"Type": NameObject("/StructElem"), "S": NameObject(f"/{role}"), "P": parent, **entries}
        return DictionaryObject({NameObject(f"/{k}"): v for k, v in entries.items()})

    root = DictionaryObject({NameObject("/Type"): NameObject("/StructTreeRoot")})
    root_ref = add(root)
    document = element("Document", root_ref)
    document_ref = add(document)
    sections, parent_tree = ArrayObject(), ArrayObject()
    if len(pages) != len(writer.pages):
        raise ValueError(f"{len(pages)} pages marked, {len(writer.pages)} drawn")
    for number, (page, marks) in enumerate(zip(writer.pages, pages, strict=True)):
        page[NameObject("/StructParents")] = NumberObject(number)
        page[NameObject("/Tabs")] = NameObject("/S")  # tab order: the structure's
        section = element("Sect", document_ref, Pg=page.indirect_reference)
        section_ref = add(section)
        kids = ArrayObject()
        for mcid, (role, alt) in enumerate(marks):
            piece = element(role, section_ref, Pg=page.indirect_reference, K=NumberObject(mcid))
            if alt:
                piece[NameObject("/Alt")] = Text(alt)
            kids.append(add(piece))
        section[NameObject("/K")] = kids
        sections.append(section_ref)
        parent_tree += [NumberObject(number), add(ArrayObject(kids))]
    document[NameObject("/K")] = sections
    root[NameObject("/K")] = document_ref
    root[NameObject("/ParentTree")] = add(DictionaryObject({NameObject("/Nums"): parent_tree}))
    root[NameObject("/ParentTreeNextKey")] = NumberObject(len(pages))
    catalog = writer.root_object
    catalog[NameObject("/StructTreeRoot")] = root_ref
    catalog.update(document_entries(lang))
    writer.xmp_metadata = xmp(title, lang)
    writer.add_metadata({"/Title": title})
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def xmp(title: str, lang: str) -> bytes:
    """The XMP metadata packet: the title, the language and the PDF/UA part (ISO 14289-1 §5)."""
    return XMP.format(title=escape(title), lang=escape(lang)).encode()


def document_entries(lang: str) -> dict:
    """The catalog's entries a tagged document has besides its tree: it is marked, its language,
    and the window shows its title rather than the file's name (ISO 14289-1 §7.1)."""
    return {
        NameObject("/MarkInfo"): DictionaryObject({NameObject("/Marked"): BooleanObject(True)}),
        NameObject("/Lang"): Text(lang),
        NameObject("/ViewerPreferences"): DictionaryObject({NameObject("/DisplayDocTitle"): BooleanObject(True)}),
    }
