"""A test-only stand-in for Stripe's hosted checkout page, served only under the test URLconf
(tests/payments/urls.py): "paying" on it posts a checkout.session.completed event, signed with
the municipality's test webhook secret the way Stripe signs, to Dogtag's webhook, then returns
the browser to the application as Stripe's success_url would. No card number is asked for."""

import os

import requests
from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.html import escape
from django.views.decorators.csrf import csrf_exempt

from dogtag.lib import links
from dogtag.payments.models import Checkout
from tests.payments.support import paid_session, stripe_event, stripe_signature

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Test card processor</title></head>
<body style="font-family: sans-serif; max-width: 30rem; margin: 2rem auto; padding: 0 1rem">
<main><h1>Test card processor</h1><p>{municipality}: <strong>${amount}</strong></p>
<p>This page stands in for the processor's own checkout page in tests.</p>
<form method="post"><button type="submit">Pay ${amount}</button></form></main></body></html>"""


@csrf_exempt
def checkout_page(request, session_id):
    checkout = get_object_or_404(Checkout.objects.select_related("municipality", "application"), session_id=session_id)
    if request.method == "POST":
        slug = checkout.municipality.slug
        secret = os.environ[f"DOGTAG_STRIPE_{slug.upper()}_WEBHOOK_SECRET"]
        body = stripe_event("checkout.session.completed", paid_session(checkout), f"evt_{session_id}")
        requests.post(
            f"{settings.DOGTAG_BASE_URL}/payments/stripe/{slug}/webhook/",
            data=body.encode(),
            headers={"Stripe-Signature": stripe_signature(body, secret), "Content-Type": "application/json"},
            timeout=30,
        )
        if checkout.citation_id:  # back to the citation's page, as its success_url says
            return redirect(links.citation_pay_url(checkout.citation_id))
        return redirect(f"{settings.DOGTAG_BASE_URL}/apply/a/{checkout.application.token}/")
    return HttpResponse(PAGE.format(municipality=escape(checkout.municipality), amount=checkout.amount))
