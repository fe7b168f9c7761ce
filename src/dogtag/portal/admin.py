from django.contrib import admin

from dogtag.portal.models import MunicipalityContact


@admin.register(MunicipalityContact)
class MunicipalityContactAdmin(admin.ModelAdmin):
    list_display = ("municipality", "clerk_phone", "clerk_hours", "police_phone")
