"""The helpers every app's views share: the municipality a page is for (scoped to the user, with
the role it needs), a form page that calls an action, and the action's refusals put beside each
field. Views stay thin: parse, call an action, render (DESIGN.md, layer rule 2)."""

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse

from dogtag.accounts.scope import ANY_ROLE
from dogtag.accounts.scope import municipality_for as municipality_for_user


def posted(request):
    """The form data of a POST, even an empty one; None on GET (an unbound form)."""
    return request.POST if request.method == "POST" else None


def run_action(form, action, *args, fields=None, **kwargs):
    """Call the action with the form's data (or `fields`); its ValidationError goes beside each field."""
    try:
        return action(*args, **kwargs, **(form.cleaned_data if fields is None else fields))
    except ValidationError as e:
        for field, messages in e.message_dict.items() if hasattr(e, "error_dict") else [(None, e.messages)]:
            form.add_error(field if field in form.fields else None, messages)
        return None


def municipality_for(request, slug, roles=ANY_ROLE):
    """The municipality of the URL if the signed-in user serves it (404 if not), in one of `roles` (403)."""
    return municipality_for_user(request.user, slug, roles)


def action_page(request, form, action, *args, title, done, submit="Save", destructive=False, **kwargs):
    """A form page whose POST calls `action`; on success, redirect to `done(result)`. `submit` labels
    its button; `destructive` (void, revoke, refund, deactivate) styles it apart."""
    if request.method == "POST" and form.is_valid():
        result = run_action(form, action, *args, acting_user=request.user, **kwargs)
        if result:
            return redirect(done(result))
    context = {"form": form, "title": title, "submit": submit, "destructive": destructive}
    return render(request, "registry/form.html", context)


def to(name, pk=None):
    return lambda obj: reverse(name, args=[pk or obj.pk])
