from django.urls import path

from dogtag.permits import views

urlpatterns = [
    path("m/<slug:slug>/hen-permits/", views.hen_permits, name="hen-permits"),
    path("m/<slug:slug>/hen-permits/new/", views.hen_permit_new, name="hen-permit-new"),
    path("hen-permits/<int:pk>/", views.hen_permit, name="hen-permit"),
    path("hen-permits/<int:pk>/permit.pdf", views.hen_permit_pdf, name="hen-permit-pdf"),
    path("hen-permits/<int:pk>/site-plan/", views.hen_permit_site_plan, name="hen-permit-site-plan"),
    path("hen-permits/<int:pk>/renew/", views.hen_permit_renew, name="hen-permit-renew"),
    path("hen-permits/<int:pk>/revoke/", views.hen_permit_revoke, name="hen-permit-revoke"),
    path("declarations/<int:pk>/vicious-dog-permit/", views.vicious_dog_permit, name="declaration-vicious-dog-permit"),
    path(
        "declarations/<int:pk>/vicious-dog-permits/",
        views.vicious_dog_permits,
        name="declaration-vicious-dog-permits",
    ),
    path(
        "declarations/<int:pk>/vicious-dog-permit/renew/",
        views.vicious_dog_permit_renew,
        name="declaration-vicious-dog-permit-renew",
    ),
]
