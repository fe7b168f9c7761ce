"""The accessibility statement: public, linked from every page's footer, with how to
report a problem to each municipality's office (its contact as the registry keeps it)."""

from django.shortcuts import render

from dogtag.portal.front import offices


def accessibility(request):
    return render(request, "portal/accessibility.html", {"offices": offices()})
