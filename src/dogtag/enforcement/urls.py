from django.urls import path

from dogtag.enforcement import district_views, views


def _document(name):
    """`declaration-hearing-notice-pdf` -> `hearing-notice`; `citation-pdf` -> `citation`."""
    words = name.removesuffix("-pdf").split("-", 1)
    return words[-1]


urlpatterns = [
    path("my-cases/", views.my_cases, name="my-cases"),
    path("my-cases/calendar-reset/", views.calendar_reset, name="calendar-reset"),
    path("calendar/<int:user_id>/<str:token>.ics", views.calendar_feed, name="calendar-feed"),
    path("m/<slug:slug>/cases/", views.municipality_cases, name="municipality-cases"),
    path("cases/<int:pk>/", views.case, name="case"),
    path("districts/<int:pk>/lookup/", district_views.district_lookup, name="district-lookup"),
    path("districts/<int:pk>/not-exempt/", district_views.district_not_exempt, name="district-not-exempt"),
    *[
        path(f"m/<slug:slug>/{name.removesuffix('-new')}s/new/", views.new_case, {"name": name}, name=name)
        for name in views.NEW
    ],
    *[
        path(f"{prefix}/<int:pk>/{name.split('-', 1)[1]}/", views.step, {"name": name}, name=name)
        for name, (prefix, *_) in views.STEPS.items()
    ],
    *[
        path(f"{prefix}/<int:pk>/{_document(name)}.pdf", views.document, {"name": name}, name=name)
        for name, (prefix, *_) in views.DOCUMENTS.items()
    ],
]
