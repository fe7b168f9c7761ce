import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
django_application = get_wsgi_application()

from dogtag.lean import LeanTagLookup  # noqa: E402 (after Django is set up)

# The tag lookup answered in front of the middleware (dogtag/lean.py); every other request is Django's.
application = LeanTagLookup(django_application)
