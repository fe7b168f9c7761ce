from django.urls import path

from dogtag.imports import views

urlpatterns = [
    path("m/<slug:slug>/import/", views.upload, name="import"),
]
