"""Dogtag's URLs and, for the browser test only, the stand-in processor page."""

from django.urls import path

from dogtag.urls import urlpatterns as dogtag_urls
from tests.payments.test_processor import checkout_page

urlpatterns = [*dogtag_urls, path("test-processor/checkout/<str:session_id>/", checkout_page)]
