from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import SuspiciousFileOperation
from django.core.files.storage import default_storage
from django.core.paginator import Paginator
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme

from dogtag.accounts.scope import get_for_user, has_role, require_role
from dogtag.lib.pdf import pdf_response
from dogtag.lib.replica import reads_from_replica
from dogtag.lib.tables import exports
from dogtag.lib.web import action_page, municipality_for, posted, run_action
from dogtag.licensing import actions, amended_fees, forms, law, tables
from dogtag.licensing import renewals as renewals_query
from dogtag.licensing.charges import CHARGES, charge_on
from dogtag.licensing.counter_page import animal_and_stock
from dogtag.licensing.documents import certificate_context
from dogtag.licensing.facts import kept_rows, read_facts
from dogtag.licensing.models import (
    FeeScheduleEntry,
    License,
    ReminderLetters,
    RenewalChunk,
    RenewalRun,
    Tag,
    TagReturnList,
)
from dogtag.licensing.owed import fee_label, limits_crossed, what_is_owed
from dogtag.licensing.years import chosen_year, why_preselected, years_on_sale_from_stock
from dogtag.outbox import actions as outbox_actions
from dogtag.registry.models import today
from dogtag.rules.delegations import delegated_amounts
from dogtag.rules.licensing import license_year_of


@login_required
def counter(request, pk):
    """The clerk's counter: what the animal owes today, why, and the license issued on payment."""
    on = today()
    animal, stocked = animal_and_stock(request.user, pk, on)
    years, in_stock = years_on_sale_from_stock(animal.municipality, on, stocked)
    year = chosen_year(request, years)
    facts = read_facts(animal, on, year)
    owed = what_is_owed(facts)
    form = forms.IssueForm(posted(request), initial={"amount": owed.total, "method": "cash"})
    back = _next(request)
    if request.method == "POST" and has_role(request.user, animal.municipality_id, actions.CLERKS) and form.is_valid():
        # the year is the one `owed` was worked out for
        fields = {"payment": form.payment(), "tag_serial": form.cleaned_data["tag_serial"]}
        issue = actions.issue_license
        license = run_action(form, issue, animal, acting_user=request.user, on=on, owed=owed, fields=fields)
        if license:
            return redirect(back or reverse("license", args=[license.pk]))
    context = {
        "next": back,
        "years": years if len(years) > 1 else [],
        "why_year": why_preselected(years),
        "in_stock": owed.license_year in in_stock,
        "animal": animal,
        "owed": owed,
        "form": form,
        "on": on,
        "warnings": limits_crossed(facts.pack, kept_rows(animal, on), on),
        "can_issue": has_role(request.user, animal.municipality_id, actions.CLERKS),
    }
    return render(request, "licensing/counter.html", context)


def _next(request) -> str:
    """Where the clerk came from (an impoundment's release), to return there once licensed."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    return url if url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}) else ""


@login_required
def license(request, pk):
    license = get_for_user(request.user, License.objects.select_related("municipality", "animal", "payment"), pk)
    tags = license.tags.select_related("replacement_payment")
    return render(request, "licensing/license.html", {"license": license, "tags": tags})


@login_required
def license_void(request, pk):
    license = get_for_user(request.user, License.objects.select_related("payment"), pk, actions.CLERKS)
    form = forms.VoidForm(posted(request), initial={"refund_amount": license.payment.amount} if license.payment else {})
    if not license.payment:
        for name in ("refund_method", "refund_amount", "refund_check_number"):
            del form.fields[name]
    if request.method == "POST" and form.is_valid():
        if run_action(form, actions.void_license, license, acting_user=request.user, fields=form.void_fields()):
            return redirect("license", pk=pk)
    context = {"form": form, "title": f"Void {license}", "submit": "Void", "destructive": True}
    return render(request, "registry/form.html", context)


@login_required
def license_replace_tag(request, pk):
    """A lost tag replaced; the charge, when the fee schedule sets one, taken with a receipt."""
    license = get_for_user(request.user, License.objects.select_related("municipality"), pk, actions.CLERKS)
    charge = charge_on(license.municipality, "replacement_tag", today())
    form = forms.ReplaceTagForm(posted(request), initial={"amount": charge.amount, "method": "cash"} if charge else {})
    if request.method == "POST" and form.is_valid():
        fields = {"tag_serial": form.cleaned_data["tag_serial"], "payment": form.payment() if charge else None}
        tag = run_action(form, actions.replace_tag, license, acting_user=request.user, fields=fields)
        if tag:
            if tag.replacement_payment:
                receipt = tag.replacement_payment.receipt_number
                messages.success(request, f"Tag {tag.serial} issued; receipt no. {receipt}.")
            return redirect("license", pk=pk)
    return render(request, "licensing/replace_tag.html", {"license": license, "form": form, "charge": charge})


@login_required
def tag_receipt(request, pk):
    """The receipt for a replacement tag's charge."""
    tags = Tag.objects.select_related("municipality", "license", "replacement_payment__received_by")
    tag = get_for_user(request.user, tags, pk)
    if tag.replacement_payment is None:
        raise Http404("No charge was paid for this tag.")
    payment = tag.replacement_payment
    context = {
        "tag": tag,
        "payment": payment,
        "license": tag.license,
        "municipality": tag.municipality,
        "office": law.issuing_office(tag.municipality, timezone.localdate(payment.received_at)),
    }
    return pdf_response("licensing/tag_receipt.html", context, f"receipt-{payment.receipt_number}.pdf")


def _license_document(request, pk, template, filename):
    license = get_for_user(request.user, License.objects.select_related("municipality", "payment", "holder"), pk)
    context = certificate_context(license)
    with translation.override(license.holder.language):  # the holder's paper, in the holder's language
        return pdf_response(template, context, f"{filename}-{license.license_year}-{license.serial}.pdf")


@login_required
def license_certificate(request, pk):
    return _license_document(request, pk, "licensing/certificate.html", "license")


@login_required
def license_receipt(request, pk):
    return _license_document(request, pk, "licensing/receipt.html", "receipt")


@login_required
@exports(tables.fees)
def fees(request, slug, report):
    municipality = report.municipality
    delegated = delegated_amounts(law.pack_of(municipality))
    keys = [(key, fee_label(key)) for key in delegated] + list(CHARGES.items())
    form = forms.FeeForm(posted(request), keys=keys)
    if request.method == "POST" and form.is_valid():
        if run_action(form, actions.set_fee, acting_user=request.user, municipality=municipality):
            return redirect("fees", slug=slug)
    pages = report.pages(request)
    schedule = [
        {"key": key, "citations": (cite,), "shown": shown}
        for (key, cite), shown in zip(delegated.items(), pages, strict=False)
    ]
    charges = [{"key": key, "shown": shown} for key, shown in zip(CHARGES, pages[len(delegated) :], strict=True)]
    context = {
        "municipality": municipality,
        "schedule": schedule,
        "charges": charges,
        "amended": amended_fees.adopted(municipality),
        "form": form,
        "can_edit": has_role(request.user, municipality.pk, actions.CLERKS),
    }
    return render(request, "licensing/fees.html", context)


def action_view(queryset, action, form, title, done, roles=actions.CLERKS, initial=dict, **options):
    """A form page on one record the user serves in `roles`: `form` (with `initial()`) whose POST
    calls `action` on the record, then goes to `done(record)`; `title(record)` heads it."""

    @login_required
    def view(request, pk):
        record = get_for_user(request.user, queryset, pk, roles)
        form_ = form(posted(request), initial=initial())
        return action_page(request, form_, action, record, title=title(record), done=lambda _: done(record), **options)

    return view


fee_void = action_view(
    FeeScheduleEntry.objects.select_related("municipality"),
    actions.void_fee,
    forms.ReasonForm,
    lambda entry: f"Void {entry}",
    lambda entry: reverse("fees", args=[entry.municipality.slug]),
    submit="Void",
    destructive=True,
)


@login_required
@exports(tables.tags)
def tags(request, slug, report):
    municipality = report.municipality
    form = forms.TagLotForm(posted(request), initial={"received_on": today(), "license_year": today().year})
    if request.method == "POST" and form.is_valid():
        if run_action(form, actions.receive_tag_lot, acting_user=request.user, municipality=municipality):
            return redirect("tags", slug=slug)
    years, lots = report.pages(request)
    context = {"municipality": municipality, "form": form, "years": years, "lots": lots}
    return render(request, "licensing/tags.html", context)


@login_required
@exports(tables.tag_return)
def tag_return(request, slug, year, report):
    """Unused and voided tags to return to the county clerk by December 31 (s. 174.07(3)(b))."""
    municipality = report.municipality
    expiry = law.ask(municipality, "license_expiry", {"issued_on": today(), "license_year": year}, today(), {})
    stored = TagReturnList.objects.filter(municipality=municipality, license_year=year).first()
    (returned,) = report.pages(request)
    context = {"municipality": municipality, "year": year, "tags": returned, "expiry": expiry, "stored": stored}
    return render(request, "licensing/tag_return.html", context)


@login_required
def tag_return_list(request, pk):
    """The year-end list the worker stored on the return date, as it stood that morning."""
    stored = get_for_user(request.user, TagReturnList.objects.select_related("municipality"), pk)
    return _stored_pdf(stored.pdf, f"tag-returns-{stored.municipality.slug}-{stored.license_year}.pdf")


@login_required
def tag_roll(request, slug, year):
    municipality = municipality_for(request, slug)
    tags = Tag.objects.filter(municipality=municipality, license_year=year).select_related("license").order_by("serial")
    context = {"municipality": municipality, "year": year, "tags": tags}
    return pdf_response("licensing/tag_roll.html", context, f"tag-roll-{municipality.slug}-{year}.pdf")


@login_required
@reads_from_replica
@exports(tables.unlicensed)
def unlicensed(request, slug, report):
    """Active licensable animals without a license for the year, with the late fee owed today."""
    (rows,) = report.pages(request)
    context = {"municipality": report.municipality, "year": report.year, "rows": rows, "on": report.on}
    return render(request, "licensing/unlicensed.html", context)


@login_required
@exports(tables.renewals)
def renewals(request, slug, report):
    """The clerk starts a run (notices committed at once) and follows the worker printing it."""
    municipality = report.municipality
    year = license_year_of(law.pack_of(municipality), today()) + 1
    if request.method == "POST":
        require_role(request.user, municipality.pk, actions.CLERKS)
        run = actions.start_renewal_run(acting_user=request.user, municipality=municipality, license_year=year)
        messages.success(
            request,
            f"{run.notices_created} renewal notices for {year}; {run.emails_queued} to be emailed. "
            f"Printing in {run.chunks_total} part{pluralize(run.chunks_total)}.",
        )
        return redirect("renewals", slug=slug)
    (runs,) = report.pages(request)
    busy = any(
        run.chunks_done < run.chunks_total or (run.chunks_total and not run.finished_at)
        for run in runs.page.object_list
    )
    letters = ReminderLetters.objects.filter(municipality=municipality)[:20]
    context = {"municipality": municipality, "runs": runs, "year": year, "busy": busy, "letters": letters}
    return render(request, "licensing/renewals.html", context)


PREVIEW_PAGE = 25


@login_required
def renewals_preview(request, slug):
    """Who the run would notify, counted by channel and listed a page at a time, before the clerk
    confirms it (the run itself commits the same rows and leaves the printing to the worker)."""
    municipality = municipality_for(request, slug, actions.CLERKS)
    year = license_year_of(law.pack_of(municipality), today()) + 1
    preview = renewals_query.NoticePreview(municipality, year, today())
    rows = Paginator(preview, PREVIEW_PAGE).get_page(request.GET.get("page"))
    context = {"municipality": municipality, "year": year, "preview": preview, "rows": rows}
    return render(request, "licensing/renewals_preview.html", context)


def _stored_pdf(name: str, filename: str):
    if not name:
        raise Http404("Not printed yet: the worker prints the notices in parts, then merges them.")
    try:
        pdf = default_storage.open(name, "rb")
    except (FileNotFoundError, SuspiciousFileOperation):
        raise Http404("These notices are no longer in storage; run the renewals again to print them.") from None
    return FileResponse(pdf, content_type="application/pdf", filename=filename)


@login_required
def renewal_batch(request, pk):
    """The whole run's notices in one PDF, once the worker has merged its parts."""
    run = get_for_user(request.user, RenewalRun.objects.select_related("municipality"), pk)
    return _stored_pdf(run.pdf, f"{run.municipality.slug}-{run.license_year}-renewals.pdf")


@login_required
def reminder_letters(request, pk):
    """The renewal reminders printed for owners without an email address, one delivery's worth."""
    letters = get_for_user(request.user, ReminderLetters.objects.select_related("municipality"), pk)
    return _stored_pdf(letters.pdf, f"{letters.municipality.slug}-reminder-letters-{letters.pk}.pdf")


@login_required
def renewal_part(request, pk):
    chunk = get_for_user(request.user, RenewalChunk.objects.select_related("run__municipality"), pk)
    run = chunk.run
    return _stored_pdf(chunk.pdf, f"{run.municipality.slug}-{run.license_year}-renewals-part{chunk.number}.pdf")


@login_required
@exports(tables.outbox)
def outbox(request, slug, report):
    municipality = report.municipality
    if request.method == "POST":  # "Send again" beside a dead letter
        ids = [int(i) for i in request.POST.getlist("message") if i.isdigit()]
        count = outbox_actions.send_again(acting_user=request.user, municipality=municipality, ids=ids)
        messages.success(request, f"{count} undeliverable message{pluralize(count)} queued again.")
        return redirect("outbox", slug=slug)
    (sent,) = report.pages(request)
    return render(request, "licensing/outbox.html", {"municipality": municipality, "messages_": sent})
