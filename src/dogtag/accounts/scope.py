"""Which municipalities a user serves, and in which roles. Every query made for a user goes
through here (DESIGN.md, layer rule 3), so no view can forget isolation."""

from django.apps import apps
from django.core.exceptions import PermissionDenied
from django.http import Http404

from dogtag.accounts.models import Membership, Role

ANY_ROLE = tuple(Role.values)


def municipality_ids(user, roles=ANY_ROLE) -> set[int]:
    if not user.is_authenticated:
        return set()
    cache = getattr(user, "_dogtag_roles", None)
    if cache is None:
        cache = user._dogtag_roles = list(Membership.objects.filter(user=user).values_list("municipality_id", "role"))
    return {m for m, role in cache if role in roles}


def municipalities(user, roles=ANY_ROLE):
    # By name: accounts sit below the registry (.importlinter); a membership is in a municipality.
    return apps.get_model("registry", "Municipality").objects.filter(pk__in=municipality_ids(user, roles))


def municipality_for(user, slug, roles=ANY_ROLE):
    """The one municipality lookup of every page and API operation: the municipality `slug` if
    the user serves it (404 if not, so its existence is not revealed), in one of `roles` (403)."""
    municipality = municipalities(user).filter(slug=slug).first()
    if municipality is None:
        raise Http404("No such municipality among those you serve.")
    require_role(user, municipality.pk, roles)
    return municipality


def scoped(user, queryset, roles=ANY_ROLE):
    return queryset.filter(municipality_id__in=municipality_ids(user, roles))


def get_for_user(user, queryset, pk, roles=ANY_ROLE):
    """The object if the user serves its municipality; 404 if they do not (so its existence
    is not revealed); 403 if they serve it but not in a role allowed to do this."""
    return served(user, scoped(user, queryset).filter(pk=pk).first(), roles)


def served(user, obj, roles=ANY_ROLE):
    """`obj`, read by whatever means, held to `get_for_user`'s rule: 404 if it is None or in a
    municipality the user does not serve; 403 if the user serves it in no role of `roles`."""
    if obj is None or obj.municipality_id not in municipality_ids(user):
        raise Http404("No such record in the municipalities you serve.")
    require_role(user, obj.municipality_id, roles)
    return obj


def require_role(user, municipality_id, roles):
    if municipality_id not in municipality_ids(user, roles):
        raise PermissionDenied(f"This needs the role of {' or '.join(roles)} in this municipality.")


def has_role(user, municipality_id, roles) -> bool:
    return municipality_id in municipality_ids(user, roles)
