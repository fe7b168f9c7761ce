from dogtag.accounts.scope import municipalities


def memberships(request):
    if not request.user.is_authenticated:
        return {}
    return {"served_municipalities": municipalities(request.user)}
