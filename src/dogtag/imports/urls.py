from django.urls import path

from dogtag.imports import views

urlpatterns = [
    path("m/<slug:slug>/import/", views.upload, name="import"),
    path("m/<slug:slug>/import/<int:pk>/", views.run_page, name="import-run"),
]
