from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from dogtag.api import api
from dogtag.worker.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("", include("dogtag.accounts.urls")),
    path("", include("dogtag.enforcement.urls")),
    path("", include("dogtag.permits.urls")),
    path("", include("dogtag.registry.urls")),
    path("", include("dogtag.licensing.urls")),
    path("", include("dogtag.reports.urls")),
    path("", include("dogtag.imports.urls")),
    path("", include("dogtag.portal.urls")),
    path("", include("dogtag.payments.urls")),
    path("", include("dogtag.outbox.urls")),
]
