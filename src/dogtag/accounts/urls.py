from django.urls import path

from dogtag.accounts import views

urlpatterns = [
    path("account/two-factor/", views.enrol, name="two-factor"),
    path("account/two-factor/verify/", views.verify, name="two-factor-verify"),
    # an invited staff member's one-time link: set the password, then the second factor
    path("account/welcome/<str:uidb64>/<str:token>/", views.welcome, name="staff-welcome"),
]
