from django.urls import path

from dogtag.permits import views

urlpatterns = [
    path("m/<slug:slug>/hen-permits/new/", views.hen_permit_new, name="hen-permit-new"),
    path("hen-permits/<int:pk>/", views.hen_permit, name="hen-permit"),
    path("hen-permits/<int:pk>/permit.pdf", views.hen_permit_pdf, name="hen-permit-pdf"),
    path("declarations/<int:pk>/vicious-dog-permit/", views.vicious_dog_permit, name="declaration-vicious-dog-permit"),
]
