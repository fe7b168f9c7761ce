"""Documents a screen reader can read (issue 31 §2): every PDF the Benton clerk and officer can
open, one record of each kind, is opened and its structure tree read. A tagged PDF (ISO 32000-1
§14.8; PDF/UA-1, ISO 14289-1 §7) has a structure tree and says it is marked, names its language
and its title and shows the title in the window, gives every figure alternative text and every
table its header cells, and reads in the order of its tree."""

import base64
import io
from datetime import date

from django.urls import reverse
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, NameObject

from dogtag.enforcement.actions import give_impound_notice, impound
from dogtag.registry.actions import set_seal
from tests.accounts import test_isolation as iso
from tests.enforcement.fixtures import benton_cases
from tests.enforcement.helpers import EnforcementTestCase
from tests.licensing.base import benton_license, benton_reminder_letters, benton_renewal_run, benton_replacement_tag
from tests.licensing.kennel_fixtures import benton_multiple_dog_and_kennel
from tests.permits.fixtures import benton_permits
from tests.portal.helpers import MEDIA, PNG, upload

# The documents a resident receives, by URL name: each must be reached and pass.
RESIDENTS_DOCUMENTS = {
    "license-certificate",
    "license-receipt",
    "tag-receipt",
    "renewal-part",  # the renewal notices of a run, as printed and mailed
    "renewal-batch",  # the run's notices in one file
    "reminder-letters",
    "kennel-certificate",
    "multiple-dog-certificate",
    "hen-permit-pdf",
    "declaration-determination-pdf",
    "declaration-hearing-notice-pdf",
    "declaration-decision-pdf",
    "impoundment-notice-pdf",
    "quarantine-order-pdf",
    "complaint-notice-pdf",
    "complaint-warning-pdf",
    "district-notice-pdf",
    "citation-pdf",
}
# Files a person uploaded, served as they came: not documents Dogtag makes.
UPLOADED = {"hen-permit-site-plan"}


def kids(node) -> list:
    """A structure element's children in reading order: elements, marked-content numbers and
    object references (ISO 32000-1 §14.7.2, table 323: /K is one kid or an array of them)."""
    k = node.get("/K")
    if k is None:
        return []
    k = k.get_object()
    return [kid.get_object() for kid in (k if isinstance(k, ArrayObject) else [k])]


def elements(node):
    """Every structure element under `node`, depth first: the order a screen reader reads."""
    for kid in kids(node):
        if isinstance(kid, DictionaryObject) and "/S" in kid:
            yield kid
            yield from elements(kid)


def marked_text(page) -> dict[int, str]:
    """The text drawn inside each marked-content sequence of a page, by its number (MCID)."""
    stack, texts = [], {}

    def operator(op, args, cm, tm):
        if op in (b"BDC", b"BMC"):
            props = args[1] if op == b"BDC" and len(args) > 1 else None
            stack.append(props.get("/MCID") if isinstance(props, DictionaryObject) else None)
        elif op == b"EMC" and stack:
            stack.pop()

    def text(t, cm, tm, font, size):
        mcid = next((m for m in reversed(stack) if m is not None), None)
        if mcid is not None:
            texts[mcid] = texts.get(mcid, "") + t

    page.extract_text(visitor_operand_before=operator, visitor_text=text)
    return texts


def reading_order(pdf: bytes) -> list[tuple[int, str, str]]:
    """What a screen reader reads, in order: (depth, role, text) of each structure element, the
    text its own marks hold (a figure's: its alternative text)."""
    reader = PdfReader(io.BytesIO(pdf))
    pages = {page.indirect_reference.idnum: page for page in reader.pages}
    texts: dict[int, dict[int, str]] = {}

    def walk(node, depth, page):
        for kid in kids(node):
            if not (isinstance(kid, DictionaryObject) and "/S" in kid):
                continue
            on = kid.raw_get("/Pg").idnum if "/Pg" in kid else page
            if on not in texts:
                texts[on] = marked_text(pages[on]) if on in pages else {}
            own = [texts[on].get(k, "") for k in kids(kid) if isinstance(k, int)]
            words = " ".join(" ".join(own).split()) or str(kid.get("/Alt", ""))
            yield depth, str(kid["/S"])[1:], words
            yield from walk(kid, depth + 1, on)

    return list(walk(reader.trailer["/Root"]["/StructTreeRoot"], 0, None))


def problems(pdf: bytes) -> list[str]:
    """What keeps a screen reader from the document, each in a few words ([] when nothing)."""
    reader = PdfReader(io.BytesIO(pdf))
    catalog, found = reader.trailer["/Root"], []
    root = catalog.get("/StructTreeRoot")
    if root is None:
        return ["no structure tree"]
    if not catalog.get("/MarkInfo", {}).get("/Marked"):
        found.append("not marked (MarkInfo)")
    if not str(catalog.get("/Lang", "")).strip():
        found.append("no document language (/Lang)")
    title = (reader.metadata or {}).get("/Title")
    if not (title and str(title).strip()):
        found.append("no title in the document information")
    if not catalog.get("/ViewerPreferences", {}).get("/DisplayDocTitle"):
        found.append("the window shows the file name, not the title (DisplayDocTitle)")
    tree = list(elements(root.get_object()))
    roles = [str(e["/S"]) for e in tree]
    if not roles:
        found.append("an empty structure tree")
    for e in tree:
        if e["/S"] == NameObject("/Figure") and not str(e.get("/Alt", "")).strip():
            found.append("a figure without alternative text")
        if e["/S"] == NameObject("/Table") and "/TH" not in {str(d["/S"]) for d in elements(e)}:
            found.append("a table without header cells")
        if e["/S"] == NameObject("/TD") and not e.get("/A", {}).get("/Headers"):
            found.append("a table cell without its header")
    if not all(page.get("/StructParents") is not None for page in reader.pages):
        found.append("a page whose content is not in the tree (StructParents)")
    return found


@MEDIA
class TaggedPdfTests(EnforcementTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        for place, clerk in ((cls.benton, cls.clerk), (cls.webster, cls.webster_clerk)):  # every letterhead's figure
            set_seal(place, acting_user=clerk, upload=upload("seal.png", PNG))
        cls.ownership = cls.dog.ownerships.get()
        cls.fee, cls.license = benton_license(cls)
        cls.tag = benton_replacement_tag(cls)
        cls.renewal_run = benton_renewal_run(cls)
        benton_reminder_letters(cls)
        benton_cases(cls)
        # Benton's § 115-6 is not in the transcription, so its notice gives no last day to claim and is
        # not served (tests/enforcement/test_documents_dated.py): a Webster notice is, by § 98-7.
        _, _, dog = cls.owner_and_dog("webster", vaccinated_on=date(2025, 5, 1))
        found = impound(
            acting_user=cls.officer,
            municipality=cls.webster,
            animal=dog,
            description="Bruno",
            found_at="Main St",
            reason="at-large",
            held_at="shelter",
            officer_saw_or_heard=True,
        )
        cls.webster_impoundment = give_impound_notice(
            found, acting_user=cls.officer, notice_method="mail", notice_on=found.impounded_on
        )
        benton_multiple_dog_and_kennel(cls)
        benton_permits(cls)

    def documents(self):
        """(URL name, PDF) of every PDF page of the URL map with a Benton record to fill it, and the
        Webster impoundment's notice."""
        webster_notice = reverse("impoundment-notice-pdf", args=[self.webster_impoundment.pk])
        for name, path in [*self.paths(), ("impoundment-notice-pdf", webster_notice)]:
            r = self.client.get(path)
            if r.status_code == 200 and r.get("Content-Type", "").startswith("application/pdf"):
                yield name, b"".join(r.streaming_content) if r.streaming else r.content

    def paths(self):
        """Every document's address (its URL ends in .pdf) filled with Benton's record."""
        for name, route in iso.patterns():
            if not route.endswith(".pdf") or name in UPLOADED:
                continue
            key = name if name in iso.OBJECTS else next((k for k in iso.OBJECTS if name.startswith(k + "-")), None)
            if "<int:pk>" in route and not hasattr(self, iso.OBJECTS.get(key, "-")):
                continue
            path = "/" + route.replace("<slug:slug>", "benton").replace("<int:year>", "2026")
            if "<int:pk>" in path:
                path = path.replace("<int:pk>", str(getattr(self, iso.OBJECTS[key]).pk))
            if "<" not in path:
                yield name, path

    def test_every_document_has_a_structure_tree_a_language_a_title_alt_text_and_table_headers(self):
        seen, bad = set(), []
        for user in (self.clerk, self.officer):
            self.login(user)
            for name, pdf in self.documents():
                seen.add(name)
                bad += [f"{name}: {p}" for p in problems(pdf)]
        self.assertEqual(bad, [], "\n".join(bad))
        self.assertEqual(RESIDENTS_DOCUMENTS - seen, set())

    def test_the_check_finds_an_untagged_pdf_a_table_without_headers_and_a_figure_without_words(self):
        from weasyprint import HTML

        seal = f'<img src="data:image/png;base64,{base64.b64encode(PNG).decode()}" alt="">'
        html = f'<html lang="en"><title>T</title><body><h1>T</h1>{seal}<table><tr><td>1</td></tr></table></body>'
        self.assertEqual(problems(HTML(string=html).write_pdf()), ["no structure tree"])
        self.assertEqual(
            problems(HTML(string=html).write_pdf(pdf_variant="pdf/ua-1")),
            ["a figure without alternative text", "a table without header cells", "a table cell without its header"],
        )
        fixed = html.replace('alt=""', 'alt="Seal"').replace("<td>1</td>", "<th scope='row'>One</th><td>1</td>")
        self.assertEqual(problems(HTML(string=fixed).write_pdf(pdf_variant="pdf/ua-1")), [])

    def test_a_drawn_renewal_notice_reads_seal_issuer_address_heading_and_paragraphs_in_order(self):
        self.login(self.clerk)
        part = self.client.get(reverse("renewal-part", args=[self.renewal_chunk.pk]))
        order = reading_order(b"".join(part.streaming_content) if part.streaming else part.content)
        self.assertEqual([(depth, role) for depth, role, _ in order[:6]],
                         [(0, "Document"), (1, "Sect"), (2, "Figure"), (2, "P"), (2, "P"), (2, "H1")])  # fmt: skip
        words = [text for _, _, text in order]
        self.assertEqual(words[2], f"Seal of the {self.benton}")
        self.assertTrue(words[3].startswith(f"{self.benton} · "), words[3])
        self.assertTrue(words[4].startswith("Pat Owner 12 Main St"), words[4])
        self.assertEqual(words[5], "2027 license renewal: Rex")
        self.assertTrue(words[6].startswith("Animal: Rex, dog"), words[6])
        self.assertTrue(any(w.startswith("Bring or mail this notice") for w in words[7:]), words)
        merged = self.client.get(reverse("renewal-batch", args=[self.renewal_run.pk]))
        self.assertEqual(
            reading_order(b"".join(merged.streaming_content) if merged.streaming else merged.content), order
        )
