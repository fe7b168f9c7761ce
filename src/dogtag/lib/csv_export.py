"""Every list page exports CSV: `?format=csv` on a page decorated with `@csv_export` returns the
tables the page shows, as the user sees them (same scoping, same columns), one CSV section per
table headed by the table's caption or the heading before it. The "why?" citations stay on screen."""

import csv
import io
from functools import wraps
from html.parser import HTMLParser

from django.http import HttpResponse


class _Tables(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.heading, self.row, self.cell = [], "", None, None
        self.in_heading = self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("h1", "h2", "h3", "caption"):
            self.in_heading, self.heading = 1, ""
        elif tag == "details":
            self.skip += 1
        elif tag == "table":
            self.tables.append((self.heading.strip(), []))
        elif tag == "tr" and self.tables:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3", "caption"):
            self.in_heading = 0
        elif tag == "details":
            self.skip -= 1
        elif tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if any(self.row):
                self.tables[-1][1].append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.skip:
            return
        if self.in_heading:
            self.heading += data
        if self.cell is not None:
            self.cell.append(data)


def tables_to_csv(html: str) -> str:
    parser = _Tables()
    parser.feed(html)
    out = io.StringIO()
    writer = csv.writer(out)
    several = len(parser.tables) > 1
    for i, (heading, rows) in enumerate(parser.tables):
        if several:
            if i:
                writer.writerow([])
            writer.writerow([heading])
        writer.writerows(rows)
    return out.getvalue()


def csv_export(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        request.csv_export = True  # base.html offers the "Export CSV" link
        response = view(request, *args, **kwargs)
        if request.GET.get("format") != "csv" or response.status_code != 200 or not hasattr(response, "content"):
            return response
        name = request.resolver_match.url_name if request.resolver_match else "export"
        csv_response = HttpResponse(tables_to_csv(response.content.decode()), content_type="text/csv; charset=utf-8")
        csv_response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
        return csv_response

    return wrapper
