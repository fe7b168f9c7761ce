from django.contrib import admin, messages

from dogtag.outbox import actions
from dogtag.outbox.models import Message


class DeadLetter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("queued", "Queued"), ("undeliverable", "Undeliverable (dead letters)"), ("sent", "Sent")]

    def queryset(self, request, queryset):
        if self.value() == "queued":
            return queryset.filter(sent_at=None, dead_at=None)
        if self.value() == "undeliverable":
            return queryset.filter(sent_at=None).exclude(dead_at=None)
        if self.value() == "sent":
            return queryset.exclude(sent_at=None)
        return queryset


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    """The administrator's view of the outbox: what is queued, what was given up, and why."""

    list_display = [
        "created_at",
        "municipality",
        "to",
        "subject",
        "status",
        "attempts",
        "next_attempt_at",
        "last_error",
    ]
    list_filter = [DeadLetter, "municipality", "kind"]
    search_fields = ["to", "subject"]
    exclude = ["attachment"]
    actions = ["send_again"]

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Message._meta.fields if f.name != "attachment"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Send the selected undeliverable messages again")
    def send_again(self, request, queryset):
        count = 0
        for municipality_id in queryset.values_list("municipality", flat=True).distinct():
            ids = list(queryset.filter(municipality_id=municipality_id).values_list("pk", flat=True))
            municipality = Message.objects.filter(pk=ids[0]).select_related("municipality").get().municipality
            count += actions.send_again(acting_user=request.user, municipality=municipality, ids=ids)
        self.message_user(request, f"{count} message{'s' if count != 1 else ''} queued again.", messages.SUCCESS)
