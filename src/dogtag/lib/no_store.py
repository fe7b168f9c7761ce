"""`Cache-Control: no-store` on every answer Django makes: staff pages, the portal, PDFs and the
API carry owners' names and addresses, which neither a shared proxy nor a browser's back-forward
cache may keep. The header is `@never_cache`'s without its `Expires` (the clock's time, which
dogtag/lean.py could not repeat byte for byte; `max-age` overrides it). A view that set its own
`Cache-Control` keeps it (a municipality's seal); WhiteNoise answers static files before this."""

from django.utils.cache import patch_cache_control
from django.utils.deprecation import MiddlewareMixin


class NoStoreMiddleware(MiddlewareMixin):
    def process_response(self, request, response):
        if not response.has_header("Cache-Control"):
            patch_cache_control(response, max_age=0, no_cache=True, no_store=True, must_revalidate=True, private=True)
        return response
