from django.contrib import admin

from dogtag.payments.models import Checkout, Notification, ProcessorRefund, Reconciliation


@admin.register(Checkout, Notification, ProcessorRefund, Reconciliation)
class ReadOnly(admin.ModelAdmin):
    """Records of money, shown for reading: written only by the payments actions."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
