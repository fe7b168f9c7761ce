from django.urls import path

from dogtag.reports import views

urlpatterns = [
    path("dashboard/", views.county_dashboard, name="county-dashboard"),
    path("m/<slug:slug>/dashboard/", views.dashboard, name="dashboard"),
    path("m/<slug:slug>/reports/", views.index, name="reports"),
    *[
        path(f"m/<slug:slug>/reports/{name}/", views.report, {"name": name}, name=f"report-{name}")
        for name in views.REPORTS
    ],
]
