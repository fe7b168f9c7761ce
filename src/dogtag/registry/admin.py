from django.contrib import admin

from dogtag.registry.models import Municipality


@admin.register(Municipality)
class MunicipalityAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "county", "rule_pack"]
