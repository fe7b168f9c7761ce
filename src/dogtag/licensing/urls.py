from django.urls import path

from dogtag.licensing import views

urlpatterns = [
    path("animals/<int:pk>/license/", views.counter, name="license-counter"),
    path("licenses/<int:pk>/", views.license, name="license"),
    path("licenses/<int:pk>/void/", views.license_void, name="license-void"),
    path("licenses/<int:pk>/replace-tag/", views.license_replace_tag, name="license-replace-tag"),
    path("licenses/<int:pk>/certificate.pdf", views.license_certificate, name="license-certificate"),
    path("licenses/<int:pk>/receipt.pdf", views.license_receipt, name="license-receipt"),
    path("m/<slug:slug>/fees/", views.fees, name="fees"),
    path("fees/<int:pk>/void/", views.fee_void, name="fee-void"),
    path("m/<slug:slug>/tags/", views.tags, name="tags"),
    path("m/<slug:slug>/tags/<int:year>/return/", views.tag_return, name="tag-return"),
    path("m/<slug:slug>/tags/<int:year>/roll.pdf", views.tag_roll, name="tag-roll"),
    path("m/<slug:slug>/unlicensed/", views.unlicensed, name="unlicensed"),
    path("m/<slug:slug>/renewals/", views.renewals, name="renewals"),
    path("renewal-runs/<int:pk>/notices.pdf", views.renewal_batch, name="renewal-batch"),
    path("m/<slug:slug>/outbox/", views.outbox, name="outbox"),
]
