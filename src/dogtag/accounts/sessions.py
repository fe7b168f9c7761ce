"""Staff sessions end after DOGTAG_SESSION_IDLE_MINUTES without a request.

Hand-written (a few lines) because the idle clock must also answer the API's session clients in
JSON and must not rewrite the session row on every request; SESSION_COOKIE_AGE bounds a
session's whole life however busy it is."""

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.http import JsonResponse

LAST_SEEN = "dogtag_last_seen"
RESOLUTION = 60  # seconds: the session is rewritten at most once a minute


class IdleTimeoutMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.user.is_authenticated:
            now = int(time.time())
            last = request.session.get(LAST_SEEN)
            idle = settings.DOGTAG_SESSION_IDLE_MINUTES  # 0: no idle limit
            if idle and last is not None and now - last > idle * 60:
                logout(request)
                if request.path_info.startswith("/api/"):
                    detail = "Your session ended after a time without use; log in again."
                    return JsonResponse({"detail": detail}, status=401)
                messages.info(request, "You were logged out after a time without use. Log in again to go on.")
                return redirect_to_login(request.get_full_path())
            if last is None or now - last >= RESOLUTION:
                request.session[LAST_SEEN] = now
        return self.get_response(request)
