"""The district rabies quarantine's pages beyond the case: one animal's answer (by tag number, name
or microchip) and the list of live dogs and cats the records cannot show exempt, whom to visit."""

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import render

from dogtag.accounts.scope import get_for_user
from dogtag.enforcement import district, law, tables
from dogtag.enforcement.actions.cases import STAFF
from dogtag.enforcement.models import DistrictQuarantine
from dogtag.lib.dates import today
from dogtag.lib.tables import Shown, Uncounted, exports

PAGE = 100


def _district(request, pk):
    return get_for_user(request.user, DistrictQuarantine.objects.select_related("municipality", "case"), pk, STAFF)


def _context(d, on):
    return {"district": d, "municipality": d.municipality, "on": on, "in_force": d.declared_on <= on <= d.ends_on}


@login_required
def district_lookup(request, pk):
    d, on = _district(request, pk), today()
    query = request.GET.get("q", "").strip()  # `q` would fill the header's search box
    engine = district.Engine(d.municipality, on)
    answers = district.lookup(engine, query) if query and engine.applies else []
    context = {**_context(d, on), "query": query, "answers": answers, "applies": engine.applies}
    context["limit"] = district.LOOKUP_LIMIT
    return render(request, "enforcement/district_lookup.html", context)


def _after(value: str) -> tuple[str, int]:
    """The `after` parameter, "<pk>:<name>" of the last animal of the page before; ValueError if
    it is not that (a key no database could hold included)."""
    pk, sep, name = value.partition(":")
    if not (sep and pk.isdigit() and len(pk) <= 18 and name):
        raise ValueError(value)
    return name, int(pk)


@login_required
@exports(tables.not_exempt)
def district_not_exempt(request, pk, report):
    """A page of the list, by name: the animals after `?after=<pk>:<name>` (the last one shown),
    read only until the page is full; not counted (the CSV has every one)."""
    d, on, engine = report.district, report.on, report.engine
    after = request.GET.get("after", "")
    try:
        key = _after(after) if after else None
    except ValueError:
        return HttpResponseBadRequest('The "after" parameter must be <animal id>:<name> (the last animal shown).')
    (table,) = report.tables
    rows, more = table.objects.after(key, PAGE) if engine.applies else ([], False)
    why = engine("dog", False, False) if engine.applies else None
    shown = Shown(table, Uncounted(rows), "after", request.GET)
    context = {**_context(d, on), "rows": shown, "applies": engine.applies, "first": key is None}
    if more:
        last = rows[-1]
        context["next_url"] = "?" + urlencode({"after": f"{last.pk}:{last.name}"})
    if why is not None:
        context.update(cites=law.cites(why), notes=why.notes)
    return render(request, "enforcement/district_not_exempt.html", context)
