from django.urls import path

from dogtag.outbox import views

urlpatterns = [
    path("texts/<slug:slug>/inbound/", views.inbound, name="texts-inbound"),
]
