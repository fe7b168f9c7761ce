from django.urls import path

from dogtag.licensing import report_views, views
from dogtag.licensing.kennels import views as kennels
from dogtag.licensing.multiple_dogs import views as multiple_dogs

urlpatterns = [
    path("animals/<int:pk>/license/", views.counter, name="license-counter"),
    path("animals/<int:pk>/report/", report_views.animal_report, name="animal-report"),
    path("licenses/<int:pk>/", views.license, name="license"),
    path("licenses/<int:pk>/void/", views.license_void, name="license-void"),
    path("licenses/<int:pk>/replace-tag/", views.license_replace_tag, name="license-replace-tag"),
    path("licenses/<int:pk>/certificate.pdf", views.license_certificate, name="license-certificate"),
    path("licenses/<int:pk>/receipt.pdf", views.license_receipt, name="license-receipt"),
    path("tags/<int:pk>/receipt.pdf", views.tag_receipt, name="tag-receipt"),
    path("m/<slug:slug>/fees/", views.fees, name="fees"),
    path("fees/<int:pk>/void/", views.fee_void, name="fee-void"),
    path("m/<slug:slug>/tags/", views.tags, name="tags"),
    path("m/<slug:slug>/tags/<int:year>/return/", views.tag_return, name="tag-return"),
    path("tag-return-lists/<int:pk>/list.pdf", views.tag_return_list, name="tag-return-list"),
    path("m/<slug:slug>/tags/<int:year>/roll.pdf", views.tag_roll, name="tag-roll"),
    path("m/<slug:slug>/unlicensed/", views.unlicensed, name="unlicensed"),
    path("m/<slug:slug>/renewals/", views.renewals, name="renewals"),
    path("m/<slug:slug>/renewals/preview/", views.renewals_preview, name="renewals-preview"),
    path("renewal-runs/<int:pk>/notices.pdf", views.renewal_batch, name="renewal-batch"),
    path("renewal-parts/<int:pk>/notices.pdf", views.renewal_part, name="renewal-part"),
    path("reminder-letters/<int:pk>/letters.pdf", views.reminder_letters, name="reminder-letters"),
    path("m/<slug:slug>/outbox/", views.outbox, name="outbox"),
    path("m/<slug:slug>/multiple-dog-licenses/", multiple_dogs.licenses, name="multiple-dog-licenses"),
    path("people/<int:pk>/multiple-dog-license/", multiple_dogs.apply, name="multiple-dog-apply"),
    path("multiple-dog-licenses/<int:pk>/", multiple_dogs.license, name="multiple-dog-license"),
    path("multiple-dog-licenses/<int:pk>/revoke/", multiple_dogs.revoke, name="multiple-dog-revoke"),
    path("multiple-dog-licenses/<int:pk>/certificate.pdf", multiple_dogs.certificate, name="multiple-dog-certificate"),
    path("m/<slug:slug>/kennels/", kennels.kennel_list, name="kennels"),
    path("m/<slug:slug>/kennels/new/", kennels.kennel_new, name="kennel-new"),
    path("kennels/<int:pk>/", kennels.kennel, name="kennel"),
    path("kennels/<int:pk>/inspections/new/", kennels.kennel_inspect, name="kennel-inspect"),
    path("kennel-inspections/<int:pk>/correct/", kennels.kennel_inspection_correct, name="kennel-inspection-correct"),
    path("kennels/<int:pk>/refuse/", kennels.kennel_refuse, name="kennel-refuse"),
    path("kennels/<int:pk>/void/", kennels.kennel_void, name="kennel-void"),
    path("kennels/<int:pk>/certificate.pdf", kennels.kennel_certificate, name="kennel-certificate"),
]
