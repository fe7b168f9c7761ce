from django.urls import path

from dogtag.reports import amendment_views, views

urlpatterns = [
    path("dashboard/", views.county_dashboard, name="county-dashboard"),
    path("m/<slug:slug>/dashboard/", views.dashboard, name="dashboard"),
    path("m/<slug:slug>/reports/", views.index, name="reports"),
    path("m/<slug:slug>/amendments/", amendment_views.amendments, name="amendments"),
    path("m/<slug:slug>/amendments/new/", amendment_views.amendment_new, name="amendment-new"),
    path("amendments/<int:pk>/", amendment_views.amendment, name="amendment"),
    path("amendments/<int:pk>/preview/", amendment_views.amendment_preview, name="amendment-preview"),
    path("amendments/<int:pk>/adopt/", amendment_views.amendment_adopt, name="amendment-adopt"),
    path("amendments/<int:pk>/void/", amendment_views.amendment_void, name="amendment-void"),
    *[
        path(f"m/<slug:slug>/reports/{name}/", views.report, {"name": name}, name=f"report-{name}")
        for name in views.REPORTS
    ],
]
