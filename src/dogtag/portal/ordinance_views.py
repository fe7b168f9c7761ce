"""The ordinance, annotated: public pages, no login.

The adopted text is public law, so an anonymous reader's page may be kept by a browser or a shared
cache for five minutes (`Cache-Control: public, max-age=300`, varying on the cookie): a ruling
recorded meanwhile shows within those minutes. A signed-in reader's page keeps the house rule
(`no-store`, lib/no_store.py): it may carry the staff's counts from their records.
"""

from django.http import Http404
from django.shortcuts import render
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _

from dogtag.accounts.scope import municipality_ids
from dogtag.lib.dates import today
from dogtag.portal import ordinance
from dogtag.registry.models import Municipality
from dogtag.rules.annotated import annotated

PUBLIC_MAX_AGE = 300  # seconds a public copy of the text may be kept (the module's docstring says why)


def _public(request, response):
    if not request.user.is_authenticated:
        patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE)
    patch_vary_headers(response, ["Cookie"])
    return response


def ordinance_index(request):
    municipalities = Municipality.objects.order_by("name")
    return _public(request, render(request, "portal/ordinance_index.html", {"municipalities": municipalities}))


def ordinance_text(request, slug):
    municipality = Municipality.objects.filter(slug=slug).first()
    if municipality is None:
        raise Http404(_("No municipality by that name."))
    text = annotated(municipality.rule_pack)
    query = " ".join(request.GET.get("q", "").split())
    error = ""
    if len(query) > ordinance.SEARCH_LIMIT:
        error = _("Search for at most %(limit)s characters: a word or a phrase of the ordinance.") % {
            "limit": ordinance.SEARCH_LIMIT
        }
        query = ""
    staff = request.user.is_authenticated and municipality.pk in municipality_ids(request.user)
    sections = ordinance.assemble(municipality, text, query=query, staff=staff, on=today())
    context = {
        "municipality": municipality,
        "text": text,
        "sections": sections,
        "query": query,
        "error": error,
        "matches": sum(p.matched for v in sections for p in v.paragraphs),
        "staff": staff,
    }
    return _public(request, render(request, "portal/ordinance.html", context))
