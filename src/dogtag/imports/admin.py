from django.contrib import admin

from dogtag.imports.models import Clinic


@admin.register(Clinic)
class ClinicAdmin(admin.ModelAdmin):
    """Configuration: which veterinarians' accounts are a clinic's (their uploads are its files)."""

    list_display = ["name", "municipality"]
    list_filter = ["municipality"]
    filter_horizontal = ["veterinarians"]
    fields = ["veterinarians"]
