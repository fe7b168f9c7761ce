"""The JSON API under /api/v1/: each app contributes a router; errors name the field."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from ninja import NinjaAPI
from ninja.errors import HttpError
from ninja.errors import ValidationError as SchemaError
from ninja.openapi.views import openapi_view
from ninja.security import HttpBearer, django_auth

from dogtag.accounts.tokens import user_for_token
from dogtag.enforcement.api import router as enforcement_router
from dogtag.lean import token_is_live
from dogtag.licensing.api import router as licensing_router
from dogtag.licensing.kennels.api import router as kennel_router
from dogtag.licensing.multiple_dogs.api import router as multiple_dog_router
from dogtag.permits.api import router as permits_router
from dogtag.registry.api import router as registry_router
from dogtag.registry.rules_api import router as rules_router


class TokenAuth(HttpBearer):
    """`Authorization: Bearer dt_...` for integration clients; returns the token's user."""

    def authenticate(self, request, token):
        return user_for_token(token, is_live=token_is_live)


ERROR = {
    "type": "object",
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
    "title": "Error",
}
FIELD_ERRORS = {
    "type": "object",
    "properties": {
        "errors": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
            "description": "messages by field name (`__all__` for the whole request)",
        }
    },
    "required": ["errors"],
    "title": "FieldErrors",
}
# The answers any operation may give besides its own (lib/api_errors.py makes each of them JSON).
COMMON_RESPONSES = {
    "401": ("Not authenticated: no valid token or session", "Error"),
    "403": ("Authenticated, but this needs another role in the record's municipality", "Error"),
    "404": ("No such record in the municipalities you serve", "Error"),
    "413": ("The request body is larger than the server accepts", "Error"),
    "422": ("The input was refused; each message names its field and rule", "FieldErrors"),
    "500": ("A server error; nothing was saved", "Error"),
}


class DogtagAPI(NinjaAPI):
    def get_openapi_schema(self, *args, **kwargs):
        """django-ninja's document, with the error answers every operation can give."""
        schema = super().get_openapi_schema(*args, **kwargs)
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components.update({"Error": ERROR, "FieldErrors": FIELD_ERRORS})
        for operations in schema["paths"].values():
            for operation in operations.values():
                operation["responses"] = {str(status): answer for status, answer in operation["responses"].items()}
                for status, (description, component) in COMMON_RESPONSES.items():
                    operation["responses"].setdefault(
                        status,
                        {
                            "description": description,
                            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{component}"}}},
                        },
                    )
        return schema


def docs_behind_login(view):
    """The interactive documentation page for signed-in staff only; the OpenAPI
    document itself, which holds no record, stays open to integration clients. django-ninja
    applies `docs_decorator` to both views (ninja/openapi/urls.py), so the page is told apart by
    the view it wraps."""
    if getattr(view, "func", None) is openapi_view:
        return login_required(view)
    return view


api = DogtagAPI(
    title="Dogtag",
    version="1",
    urls_namespace="api",
    auth=[TokenAuth(), django_auth],
    docs_decorator=docs_behind_login,
)
api.add_router("/", registry_router)
api.add_router("/", rules_router)
api.add_router("/", licensing_router)
api.add_router("/", multiple_dog_router)
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


@api.exception_handler(HttpError)
def http_error(request, exc):
    """django-ninja's own refusals; a body that is not JSON (its 400) is refused like any other
    input, with a 422 the document declares."""
    if exc.status_code == 400:
        return api.create_response(request, {"errors": {"__all__": [f"The body is not JSON: {exc}."]}}, status=422)
    return api.create_response(request, {"detail": str(exc)}, status=exc.status_code)


@api.exception_handler(PermissionDenied)
def permission_denied(request, exc):
    return api.create_response(request, {"detail": str(exc) or "Permission denied."}, status=403)
