"""The clerk's page for an owner's report made at the counter."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from dogtag.accounts.scope import get_for_user
from dogtag.lib.web import posted, run_action
from dogtag.licensing import actions
from dogtag.licensing.report_form import AnimalReportForm, open_kinds
from dogtag.registry.models import Animal, today


@login_required
def animal_report(request, pk):
    animal = get_for_user(request.user, Animal.objects.select_related("municipality"), pk, actions.CLERKS)
    form = AnimalReportForm(posted(request), kinds=open_kinds(animal), initial={"happened_on": today()})
    if request.method == "POST" and form.is_valid():
        report = run_action(form, actions.report_animal, animal, acting_user=request.user)
        if report:
            messages.success(request, f"Recorded: {report}.")
            return redirect("animal", pk=pk)
    return render(request, "registry/form.html", {"form": form, "title": f"Report for {animal.name}"})
