from django.urls import path
from django.views.i18n import set_language

from dogtag.portal import front, home, ordinance_views, staff, statement, views

urlpatterns = [
    # the front door: public for residents, the staff home for staff
    path("", front.front_door, name="home"),
    # public: no account; a link's token is the key
    path("apply/", views.home, name="portal-home"),
    path("apply/a/<str:token>/", views.application, name="portal-application"),
    path("apply/a/<str:token>/review/", views.review, name="portal-review"),
    path("apply/a/<str:token>/confirm/<str:code>/", views.confirm_email, name="portal-confirm-email"),
    path("renew/code/", views.renewal_code, name="portal-renewal-code"),
    path("renew/<str:token>/", views.renew, name="portal-renew"),
    path("found/", views.found, name="portal-found"),
    # the resident's language (Django's view: a cookie, then back to the page; portal/language.py)
    path("language/", set_language, name="portal-language"),
    path("accessibility/", statement.accessibility, name="accessibility"),
    path("pet/<str:token>/", views.pet, name="portal-pet"),
    path("reminders/stop/<str:token>/", views.unsubscribe, name="portal-unsubscribe"),
    # the ordinance, annotated: public law, no account
    path("ordinance/", ordinance_views.ordinance_index, name="ordinance-index"),
    path("ordinance/<slug:slug>/", ordinance_views.ordinance_text, name="ordinance"),
    path("m/<slug:slug>/", home.municipality, name="municipality"),
    path("m/<slug:slug>/contact/", views.contact, name="municipality-contact"),
    # the administrator's staff pages
    path("m/<slug:slug>/staff/", staff.staff, name="staff"),
    path("m/<slug:slug>/staff/invite/", staff.invite, name="staff-invite"),
    path("staff/<int:pk>/role/", staff.change_role, name="staff-role"),
    path("staff/<int:pk>/deactivate/", staff.deactivate, name="staff-deactivate"),
    # the clerk's review queue
    path("m/<slug:slug>/applications/", views.queue, name="application-queue"),
    path("applications/<int:pk>/", views.review_application, name="application-review"),
    path("applications/<int:pk>/certificate/", views.certificate_file, name="application-certificate-file"),
    path("applications/<int:pk>/altered-evidence/", views.altered_file, name="application-altered-file"),
]
