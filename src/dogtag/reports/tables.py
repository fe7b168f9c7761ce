"""A report is a title, the period or date it covers, and tables: each a list of columns and
rows of plain values (str, int, Decimal, date), so one result renders on screen, as CSV and as
PDF. Money is Decimal throughout; the templates show it as $10.00."""

import csv
import io
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list] = field(default_factory=list)
    totals: list | None = None
    links: list[str | None] | None = None  # a URL per row, for its first cell

    @property
    def linked_rows(self):
        links = self.links or [None] * len(self.rows)
        return list(zip(self.rows, links, strict=True))


@dataclass
class Report:
    title: str
    subtitle: str
    tables: list[Table]
    notes: list[str] = field(default_factory=list)
    citations: list = field(default_factory=list)
    chart: dict | None = None


def cell(value) -> str:
    """A value as CSV text: ISO dates, money to the cent, booleans as yes/no."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def to_csv(report: Report) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    single = len(report.tables) == 1
    for i, table in enumerate(report.tables):
        if not single:
            if i:
                writer.writerow([])
            writer.writerow([table.title])
        writer.writerow(table.columns)
        for row in table.rows:
            writer.writerow([cell(v) for v in row])
        if table.totals:
            writer.writerow([cell(v) for v in table.totals])
    return out.getvalue()
