"""The district rabies quarantine's pages beyond the case: one animal's answer (by tag number, name
or microchip) and the list of live dogs and cats the records cannot show exempt, whom to visit."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from dogtag.accounts.scope import get_for_user
from dogtag.enforcement import district, law, tables
from dogtag.enforcement.actions.cases import STAFF
from dogtag.enforcement.models import DistrictQuarantine
from dogtag.lib.dates import today
from dogtag.lib.tables import exports

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


@login_required
@exports(tables.not_exempt)
def district_not_exempt(request, pk, report):
    d, on, engine = report.district, report.on, report.engine
    (rows,) = report.pages(request, PAGE)
    why = engine("dog", False, False) if engine.applies else None
    context = {**_context(d, on), "rows": rows, "applies": engine.applies}
    if why is not None:
        context.update(cites=law.cites(why), notes=why.notes)
    return render(request, "enforcement/district_not_exempt.html", context)
