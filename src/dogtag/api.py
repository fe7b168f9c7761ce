"""The JSON API under /api/v1/: each app contributes a router; errors name the field."""

from django.core.exceptions import PermissionDenied, ValidationError
from ninja import NinjaAPI
from ninja.errors import ValidationError as SchemaError
from ninja.security import HttpBearer, django_auth

from dogtag.accounts.tokens import user_for_token
from dogtag.enforcement.api import router as enforcement_router
from dogtag.licensing.api import router as licensing_router
from dogtag.licensing.kennel_api import router as kennel_router
from dogtag.permits.api import router as permits_router
from dogtag.registry.api import router as registry_router
from dogtag.registry.rules_api import router as rules_router


class TokenAuth(HttpBearer):
    """`Authorization: Bearer dt_...` for integration clients; returns the token's user."""

    def authenticate(self, request, token):
        return user_for_token(token)


api = NinjaAPI(title="Dogtag", version="1", urls_namespace="api", auth=[TokenAuth(), django_auth])
api.add_router("/", registry_router)
api.add_router("/", rules_router)
api.add_router("/", licensing_router)
api.add_router("/", kennel_router)
api.add_router("/", enforcement_router)
api.add_router("/", permits_router)


@api.exception_handler(ValidationError)
def validation_error(request, exc):
    errors = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
    return api.create_response(request, {"errors": errors}, status=422)


@api.exception_handler(SchemaError)
def schema_error(request, exc):
    errors = {}
    for error in exc.errors:
        field = ".".join(str(part) for part in error["loc"][2:] or error["loc"])
        errors.setdefault(field, []).append(error["msg"])
    return api.create_response(request, {"errors": errors}, status=422)


@api.exception_handler(PermissionDenied)
def permission_denied(request, exc):
    return api.create_response(request, {"detail": str(exc) or "Permission denied."}, status=403)
