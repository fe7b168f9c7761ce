"""The imports of a municipality as a table: the upload page shows a page of them, the CSV all."""

from django.urls import reverse

from dogtag.imports.actions import IMPORTERS
from dogtag.imports.models import ImportRun
from dogtag.lib.tables import Column, Report, table
from dogtag.lib.web import municipality_for

RUNS = [
    Column("File", "file_name", link=lambda r: reverse("import-run", args=[r.municipality.slug, r.pk])),
    Column("By", "started_by.username"),
    Column("Started", lambda r: r.started_at.isoformat(timespec="seconds")),
    Column("State", lambda r: r.state.label),
    Column("Rows", "rows"),
    Column("Written", "written"),
    Column("Skipped", "skipped"),
    Column("Invalid", "invalid"),
]


def runs(request, slug) -> Report:
    m = municipality_for(request, slug, IMPORTERS)
    imports = (
        ImportRun.objects.filter(municipality=m)
        .select_related("started_by", "municipality")
        .order_by("-started_at", "-pk")
    )
    return Report("Imports", str(m), [table("Imports", RUNS, imports, empty="None yet.")], municipality=m)
