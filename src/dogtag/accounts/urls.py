from django.urls import path

from dogtag.accounts import views

urlpatterns = [
    path("account/two-factor/", views.enrol, name="two-factor"),
    path("account/two-factor/verify/", views.verify, name="two-factor-verify"),
]
