"""A card refund the clerk records when voiding a license (licensing's action, which sits below
this app and cannot call it) is sent back through the processor: the receiver runs in the void's
own transaction, so the refund to send is written with the void or not at all. The same for an
application paid online that the clerk rejects on review."""

from django.db.models.signals import post_save


def _refund_recorded(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        from dogtag.payments.actions import refund_through_processor

        refund_through_processor(instance)


def _application_rejected(sender, application, **kwargs):
    from dogtag.payments.actions import refund_rejected

    refund_rejected(application)


def connect():
    from dogtag.licensing.models import Refund
    from dogtag.portal.actions import rejected

    post_save.connect(_refund_recorded, sender=Refund, dispatch_uid="payments-refund-through-processor")
    rejected.connect(_application_rejected, dispatch_uid="payments-refund-rejected-application")
