"""A chunk of renewal notices drawn as one PDF, a page a notice, with ReportLab: the layout (page,
styles, letterhead with the seal, as documents/base.html has them) is made once per document and
each notice's text placed on it in paragraphs. Each piece is tagged as it is drawn
(lib/tagged_drawing.py), in reading order; the rules are artifacts."""

from io import BytesIO
from xml.sax.saxutils import escape

from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, Paragraph
from reportlab.platypus.flowables import HRFlowable

from dogtag.lib.links import absolute
from dogtag.lib.pdf import drawing_fonts
from dogtag.lib.short_codes import shown as code_shown
from dogtag.lib.tagged_drawing import Marked, Tags
from dogtag.licensing.owed import section_label

MARGIN = 0.75 * inch + 6  # as documents/base.html: the page margin and the body's 8px
WIDTH = LETTER[0] - 2 * MARGIN
TOP = LETTER[1] - MARGIN
SEAL = 24  # points square, beside the issuer as on the other documents' letterhead
GREY, RULE = HexColor("#333333"), HexColor("#999999")


class Letter:
    """What every page of the document shares: the styles and the letterhead."""

    def __init__(self, municipality, tags: Tags):
        regular, bold = drawing_fonts()
        self.tags = tags
        self.body = ParagraphStyle("body", fontName=regular, fontSize=10.5, leading=12.6, spaceAfter=10.5)
        self.heading = ParagraphStyle("heading", parent=self.body, fontName=bold, fontSize=16, leading=19)
        self.facts = ParagraphStyle("facts", parent=self.body, leading=15.75, spaceAfter=0)
        self.cite = ParagraphStyle("cite", parent=self.body, fontSize=8, leading=10, textColor=GREY, spaceAfter=0)
        issuer_style = ParagraphStyle("issuer", parent=self.body, fontSize=9, leading=11, textColor=GREY)
        self.seal = seal_image(municipality)
        self.seal_alt = f"Seal of the {municipality}"
        self.issuer_indent = SEAL + 6 if self.seal else 0
        issuer = f"<b>{escape(str(municipality))}</b> · {escape(municipality.county)} County, Wisconsin"
        self.issuer = Paragraph(issuer, issuer_style)  # as documents/_issuer.html
        _, issuer_height = self.issuer.wrap(WIDTH - self.issuer_indent, TOP)
        self.letterhead_height = max(issuer_height, SEAL if self.seal else 0)
        self.shared = {}
        self.office = office_lines(municipality)
        self.front_door = absolute(reverse("home"))

    def same_on_every_notice(self, text: str, style) -> Marked:
        """A paragraph many notices print alike (the instructions, the citations), its lines
        broken once for the document."""
        key = (text, style.name)
        if key not in self.shared:
            self.shared[key] = Marked(self.tags, Paragraph(escape(text), style), "P")
        return self.shared[key]

    def draw_letterhead(self, canvas) -> float:
        """The issuer over a rule, the seal at its left; returns where the letter's text starts."""
        top, height, tags = TOP, self.letterhead_height, self.tags
        if self.seal:
            with tags.marked("Figure", self.seal_alt):
                canvas.drawImage(self.seal, MARGIN, top - SEAL, SEAL, SEAL, mask="auto", preserveAspectRatio=True)
        with tags.marked("P"):
            self.issuer.drawOn(canvas, MARGIN + self.issuer_indent, top - (height + self.issuer.height) / 2)
        rule_at = top - height - 4
        with tags.artifact():
            canvas.setLineWidth(0.75)
            canvas.line(MARGIN, rule_at, MARGIN + WIDTH, rule_at)
        return rule_at - 10.5


def seal_image(municipality):
    """The uploaded seal, read once for the document (its image is embedded once, every page
    shows it); None when there is none or it cannot be read, as on the HTML documents."""
    if not municipality.seal:
        return None
    try:
        with municipality.seal.open("rb") as f:
            return ImageReader(BytesIO(f.read()))
    except OSError:
        return None


def office_lines(municipality) -> str:
    """The clerk's office as the municipality keeps it (its contact record: address, hours,
    phone), for every paper notice; "" while none is kept."""
    contact = getattr(municipality, "contact", None)
    if contact is None:
        return ""
    parts = [
        contact.clerk_office,
        contact.office_address,
        contact.clerk_phone.strip() and f"phone {contact.clerk_phone}",
        contact.clerk_hours.strip() and f"open {contact.clerk_hours}",
    ]
    return " · ".join(p for p in parts if p and p.strip())


def notice(letter: Letter, row, year: int) -> list:
    """One owner's notice (a reminder letter is the same notice), in the caller's language."""
    owner, animal = row["owner"], row["animal"]
    address = "<br/>".join(
        escape(line) for line in (owner.name, owner.street, f"{owner.city}, {owner.state} {owner.postal_code}")
    )
    tax = f"${row['tax']}" if row["tax"] is not None else gettext("as set on the fee schedule")
    species = str(animal.get_species_display()).lower()
    invitation = row.get("invitation")  # to license an animal a clinic reported vaccinated
    named = {"name": animal.name, "year": year, "tax": tax, "species": species, "looks": animal.breed_and_color}
    facts = [
        gettext("Animal: %(name)s, %(species)s, %(looks)s") % named,
        (gettext("To license it today: %(tax)s") if invitation else gettext("%(year)s license tax: %(tax)s")) % named,
    ]
    if row["due_by"]:
        due = date_format(row["due_by"])
        facts.append(gettext("Due by: %(date)s, after which a late fee is added") % {"date": due})
    heading = (
        gettext("%(name)s has no %(year)s license") if invitation else gettext("%(year)s license renewal: %(name)s")
    ) % named

    def paragraph(markup: str, style=letter.body, role="P"):
        return Marked(letter.tags, Paragraph(markup, style), role)

    def rule(before: float, after: float):  # an artifact: a screen reader passes over it
        rule = HRFlowable(width="100%", thickness=0.5, color=RULE, spaceBefore=before, spaceAfter=after)
        return Marked(letter.tags, rule, None)

    story = [
        paragraph(address),
        paragraph(escape(heading), letter.heading, "H1"),
        rule(0, 3),
        paragraph("<br/>".join(escape(line) for line in facts), letter.facts),
        rule(3, 10.5),
    ]
    if invitation:
        reported = gettext(
            "Your veterinarian reported %(name)s's rabies vaccination to us, and we have no %(year)s license "
            "for %(name)s. Please license %(name)s now."
        )
        story.append(paragraph(escape(reported % named)))
    how = gettext("Bring or mail this notice, a current rabies vaccination certificate and the payment to the clerk.")
    story.append(letter.same_on_every_notice(how, letter.body))
    if row.get("renewal_code"):
        online = gettext(
            "Or renew online: go to %(address)s and type your renewal code <b>%(code)s</b>. No email is needed."
        )
        story.append(
            paragraph(online % {"address": escape(letter.front_door), "code": code_shown(row["renewal_code"])})
        )
    if letter.office:
        story.append(letter.same_on_every_notice(letter.office, letter.body))
    story.append(letter.same_on_every_notice("; ".join(section_label(c) for c in row["citations"]), letter.cite))
    return story


def draw(municipality, year: int, rows) -> bytes:
    """The notices of `rows` (renewals.chunk_rows), one page each, as one tagged PDF."""
    canvas = Canvas(None, pagesize=LETTER, pageCompression=1)  # kept in memory: getpdfdata
    lang = translation.get_language() or "en"  # as the HTML documents' <html lang>
    tags = Tags(canvas, title=f"{year} renewal notices, {municipality}", lang=lang)
    letter = Letter(municipality, tags)
    canvas.setAuthor(str(municipality))
    for row in rows:
        top = letter.draw_letterhead(canvas)
        with translation.override(row["owner"].language):  # the language kept on the owner
            story = notice(letter, row, year)
        Frame(MARGIN, MARGIN, WIDTH, top - MARGIN, 0, 0, 0, 0).addFromList(story, canvas)
        if story:  # the fields' lengths are bounded (models.py): a notice fits its page
            raise ValueError(f"the renewal notice for {row['animal'].name} does not fit one page")
        tags.show_page()
    return tags.pdf()
