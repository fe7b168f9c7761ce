"""The municipality administrator's staff pages: who serves the
municipality in which role, an invitation by email, a role changed, an account deactivated.
Thin: parse, call an action, render."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect, render

from dogtag.accounts.models import Membership, Role
from dogtag.accounts.scope import get_for_user
from dogtag.lib.forms import Form
from dogtag.lib.web import municipality_for, posted, run_action
from dogtag.portal import actions


class InviteForm(Form):
    name = forms.CharField(label="Full name", max_length=150)
    email = forms.EmailField(label="Email address", help_text="The invitation and its one-time link go here.")
    username = forms.CharField(label="Username", max_length=150)
    role = forms.ChoiceField(label="Role", choices=Role.choices)


class RoleForm(Form):
    role = forms.ChoiceField(label="Role", choices=Role.choices)


def _membership(request, pk):
    # 404 outside the municipalities served; 403 to their staff who are not administrators
    memberships = Membership.objects.select_related("user", "municipality")
    return get_for_user(request.user, memberships, pk, actions.ADMINISTRATORS)


@login_required
def staff(request, slug):
    municipality = municipality_for(request, slug, actions.ADMINISTRATORS)
    members = Membership.objects.filter(municipality=municipality).select_related("user").order_by("user__username")
    return render(request, "portal/staff.html", {"municipality": municipality, "members": members})


@login_required
def invite(request, slug):
    municipality = municipality_for(request, slug, actions.ADMINISTRATORS)
    form = InviteForm(posted(request))
    if request.method == "POST" and form.is_valid():
        membership = run_action(form, actions.invite_staff, acting_user=request.user, municipality=municipality)
        if membership:
            messages.success(request, f"Invitation emailed to {membership.user.email}.")
            return redirect("staff", slug=slug)
    title = f"Invite a staff member — {municipality}"
    return render(request, "registry/form.html", {"form": form, "title": title})


@login_required
def change_role(request, pk):
    membership = _membership(request, pk)
    form = RoleForm(posted(request), initial={"role": membership.role})
    if request.method == "POST" and form.is_valid():
        if run_action(form, actions.change_staff_role, membership, acting_user=request.user):
            return redirect("staff", slug=membership.municipality.slug)
    title = f"Change the role of {membership.user.get_full_name() or membership.user.username}"
    return render(request, "registry/form.html", {"form": form, "title": title})


@login_required
def deactivate(request, pk):
    membership = _membership(request, pk)
    if request.method != "POST":  # past the scope check: only the list's button posts here
        return HttpResponseNotAllowed(["POST"])
    form = Form({})
    form.is_valid()
    slug = membership.municipality.slug
    if run_action(form, actions.deactivate_staff, membership, acting_user=request.user, fields={}) is None:
        messages.error(request, " ".join(form.non_field_errors()))
    else:
        messages.success(request, f"{membership.user.username} no longer serves here.")
    return redirect("staff", slug=slug)
