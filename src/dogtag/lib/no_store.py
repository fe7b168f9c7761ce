"""`Cache-Control: no-store` on every answer Django makes.

Staff pages, the portal's application pages, PDFs and the API carry owners' names, addresses and
animals; neither a shared proxy nor the browser's back-forward cache of a counter computer may
keep them. Rather than list the views that show an owner (and forget the next one), every
response gets the Cache-Control of Django's own `@never_cache` (`max-age=0, no-cache, no-store,
must-revalidate, private`, through `django.utils.cache.patch_cache_control`). Not its `Expires`:
that is the clock's time of the answer, which the tag lookup in front of Django (dogtag/lean.py)
could not repeat byte for byte, and `max-age` overrides it for every HTTP/1.1 cache.

A view that chose its own `Cache-Control` keeps it: a public asset that carries nothing personal
(a municipality's seal, registry/views.py `seal_image`). Static files are answered by WhiteNoise
before this middleware and keep their long-lived caching.
"""

from django.utils.cache import patch_cache_control


class NoStoreMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not response.has_header("Cache-Control"):
            patch_cache_control(response, max_age=0, no_cache=True, no_store=True, must_revalidate=True, private=True)
        return response
