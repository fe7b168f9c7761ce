from django.urls import path

from dogtag.imports import clinic_views, views

urlpatterns = [
    path("m/<slug:slug>/import/", views.upload, name="import"),
    path("m/<slug:slug>/import/<int:pk>/", views.run_page, name="import-run"),
    path("m/<slug:slug>/clinic-files/", clinic_views.upload, name="clinic-files"),
    path("m/<slug:slug>/clinic-files/<int:pk>/", clinic_views.file_page, name="clinic-file"),
    path("m/<slug:slug>/clinic-files/<int:pk>/canvass/", clinic_views.canvass_page, name="clinic-file-canvass"),
]
