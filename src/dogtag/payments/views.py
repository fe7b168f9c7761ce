"""The resident's pay page, the processors' notification endpoints (one per municipality and
processor) and the clerk's online-payments page. Thin: parse, call an action, render."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, HttpResponseBadRequest, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from dogtag.accounts.scope import get_for_user
from dogtag.enforcement.models import Citation
from dogtag.lib import links, processors
from dogtag.lib.dates import today
from dogtag.lib.web import municipality_for
from dogtag.licensing.actions import CLERKS
from dogtag.payments import actions
from dogtag.payments.models import Checkout, ProcessorRefund, Reconciliation
from dogtag.payments.providers import Forged, for_municipality
from dogtag.portal.actions import check as portal_check
from dogtag.portal.models import Application
from dogtag.registry.models import Municipality


def pay(request, token):
    """The amount, and a button to the processor's page. The return from that page lands on the
    application's own status page, which shows what the processor's notification has settled."""
    application = get_object_or_404(Application.objects.select_related("municipality"), token=token)
    if application.payment_status != Application.PaymentStatus.ONLINE:
        return redirect("portal-application", token=token)
    errors = []
    if request.method == "POST":
        try:
            checkout = actions.start_checkout(
                application,
                success_url=links.absolute(reverse("portal-application", args=[token])),
                cancel_url=links.absolute(reverse("payments-pay", args=[token])),
            )
        except ValidationError as e:
            errors = e.messages
        else:
            return redirect(checkout.url)
    provider = for_municipality(application.municipality)
    fee = actions.convenience_fee(application.municipality, today())
    context = {
        "application": application,
        "household": actions.household(application).count(),
        "errors": errors,
        "provider": provider,
        "fee": fee,
        "fee_refunded": processors.refunds_convenience_fee(application.municipality),
        "total": (application.quoted_total or 0) + fee,
    }
    return render(request, "payments/pay.html", context, status=503 if errors else 200)


def pay_household(request, token):
    """Every animal of the household waiting to be paid online, in one checkout:
    each with what the law computes for it today, the card convenience fee once, the total."""
    application = get_object_or_404(Application.objects.select_related("municipality"), token=token)
    if application.payment_status != Application.PaymentStatus.ONLINE:
        return redirect("portal-application", token=token)
    errors = []
    if request.method == "POST":
        try:
            checkout = actions.start_cart(
                application,
                success_url=links.absolute(reverse("portal-application", args=[token])),
                cancel_url=links.absolute(reverse("payments-pay-household", args=[token])),
            )
        except ValidationError as e:
            errors = e.messages
        else:
            return redirect(checkout.url)
    on = today()
    lines = []
    for each in actions.household(application):
        form, owed = portal_check(each, on)
        lines.append({"application": each, "owed": owed.total if form.is_valid() and not owed.refusals else None})
    fee = actions.convenience_fee(application.municipality, on)
    context = {
        "application": application,
        "lines": lines,
        "errors": errors,
        "provider": for_municipality(application.municipality),
        "fee": fee,
        "total": sum((line["owed"] or 0 for line in lines), fee),
    }
    return render(request, "payments/pay_household.html", context, status=503 if errors else 200)


def citation_pay_path(citation) -> str:
    """The address printed for the person cited (lib/links.py): signed, so no other citation can
    be reached by changing a number in it."""
    return reverse("payments-pay-citation", args=[links.citation_pay_token(citation.pk)])


def pay_citation_short(request, code):
    """The short form printed beside the signed address, for a person typing it from paper."""
    pk = links.read_citation_short_code(code)
    if pk is None:
        raise Http404(_("No citation has this code; check it against the one printed on the citation."))
    return redirect("payments-pay-citation", signed=links.citation_pay_token(pk))


def pay_citation(request, signed):
    """A citation's forfeiture, paid online where the municipality allows it: the
    amount the citation sets, one payment on the processor's page."""
    pk = links.read_citation_pay_token(signed)
    if pk is None:
        raise Http404(_("No citation has this address."))
    citation = get_object_or_404(Citation.objects.select_related("municipality", "person"), pk=pk)
    errors = []
    if request.method == "POST":
        try:
            checkout = actions.start_citation_checkout(
                citation,
                success_url=links.absolute(request.path),
                cancel_url=links.absolute(request.path),
            )
        except ValidationError as e:
            errors = e.messages
        else:
            return redirect(checkout.url)
    context = {
        "citation": citation,
        "due": actions.forfeiture_due(citation),
        "refusal": actions.citation_refusal(citation),
        "errors": errors,
        "provider": for_municipality(citation.municipality),
        "waiting": citation.checkouts.filter(status=Checkout.Status.OPEN).exclude(url="").exists(),
    }
    return render(request, "payments/pay_citation.html", context, status=503 if errors else 200)


def _notification(request, slug, processor):
    municipality = get_object_or_404(Municipality, slug=slug)
    provider = for_municipality(municipality, processor)
    if provider is None:
        raise Http404(f"{municipality} takes no payments through {processor}.")
    try:
        notice = provider.verify(request.body, request.headers)
        _, created = actions.receive_notification(municipality, processor, notice)
    except Forged as e:
        return HttpResponseBadRequest(str(e), content_type="text/plain")
    return HttpResponse("received" if created else "already received", content_type="text/plain")


@csrf_exempt
@require_POST
def stripe_webhook(request, slug):
    return _notification(request, slug, "stripe")


@csrf_exempt
@require_POST
def hosted_notification(request, slug):
    return _notification(request, slug, "hosted")


@login_required
def clerk_page(request, slug):
    municipality = municipality_for(request, slug, CLERKS)
    refunds = ProcessorRefund.objects.filter(municipality=municipality).select_related("checkout", "refund")
    context = {
        "municipality": municipality,
        "provider": for_municipality(municipality),
        "refunds_waiting": refunds.exclude(status=ProcessorRefund.Status.SUCCEEDED).order_by("created_at"),
        "refunds_done": refunds.filter(status=ProcessorRefund.Status.SUCCEEDED).order_by("-created_at")[:20],
        "refused": Checkout.objects.filter(municipality=municipality, status=Checkout.Status.REFUSED)
        .select_related("application")
        .order_by("-settled_at")[:50],
        "paid": Checkout.objects.filter(municipality=municipality, status=Checkout.Status.PAID)
        .select_related("application", "payment")
        .order_by("-settled_at")[:50],
        "reconciliations": Reconciliation.objects.filter(municipality=municipality)[:14],
    }
    return render(request, "payments/clerk.html", context)


@login_required
def retry_refund(request, pk):
    sent = get_for_user(request.user, ProcessorRefund.objects, pk, CLERKS)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    try:
        actions.retry_refund(sent, acting_user=request.user)
    except ValidationError as e:
        messages.error(request, " ".join(e.messages))
    else:
        messages.success(request, f"The refund of ${sent.amount} is being sent again.")
    return redirect("payments-clerk", slug=sent.municipality.slug)
