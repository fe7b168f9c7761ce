from django.urls import path

from dogtag.outbox import consent_views, views

urlpatterns = [
    path("texts/<slug:slug>/inbound/", views.inbound, name="texts-inbound"),
    path("people/<int:pk>/texts/", consent_views.person_texts, name="person-texts"),
    path("text-consents/<int:pk>/stop/", consent_views.stop_consent, name="text-consent-stop"),
]
