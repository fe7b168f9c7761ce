from django.contrib import admin

from dogtag.accounts.models import ApiToken, Membership


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "municipality", "role"]
    list_filter = ["municipality", "role"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["user", "name", "created_at", "revoked_at"]
    readonly_fields = ["token_hash", "created_at"]
