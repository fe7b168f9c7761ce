from dogtag.accounts.models import Role
from dogtag.accounts.scope import has_role, municipalities


def memberships(request):
    """The municipalities the user serves, the one the page is about (or the only one), and the
    user's roles there: the navigation bar offers each role's own work."""
    if not request.user.is_authenticated:
        return {}
    served = list(municipalities(request.user))
    match = getattr(request, "resolver_match", None)
    slug = match.kwargs.get("slug") if match else None
    current = next((m for m in served if m.slug == slug), None) or (served[0] if len(served) == 1 else None)
    roles = set()
    if current is not None:
        roles = {r for r in Role.values if has_role(request.user, current.pk, (r,))}
        if Role.ADMINISTRATOR in roles:
            roles |= {Role.CLERK, Role.OFFICER}
    return {"served_municipalities": served, "current_municipality": current, "nav_roles": roles}
