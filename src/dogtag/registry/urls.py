from django.urls import path

from dogtag.registry import views

urlpatterns = [
    path("search/", views.search, name="search"),
    path("m/<slug:slug>/seal/", views.seal, name="municipality-seal"),
    *(path(f"m/<slug:slug>/pick/{kind}/", views.pick, {"kind": kind}, name=f"pick-{kind}") for kind in views.PICKS),
    path("m/<slug:slug>/readings/", views.readings_page, name="readings"),
    path("rulings/<int:pk>/void/", views.ruling_void, name="ruling-void"),
    path("m/<slug:slug>/seal.img", views.seal_image, name="municipality-seal-image"),
    path("m/<slug:slug>/people/new/", views.person_new, name="person-new"),
    path("m/<slug:slug>/premises/new/", views.premises_new, name="premises-new"),
    path("m/<slug:slug>/animals/new/", views.animal_new, name="animal-new"),
    path("people/<int:pk>/", views.person, name="person"),
    path("people/<int:pk>/edit/", views.person_edit, name="person-edit"),
    path("premises/<int:pk>/", views.premises, name="premises"),
    path("premises/<int:pk>/edit/", views.premises_edit, name="premises-edit"),
    path("animals/<int:pk>/", views.animal, name="animal"),
    path("animals/<int:pk>/edit/", views.animal_edit, name="animal-edit"),
    path("animals/<int:pk>/owners/new/", views.ownership_new, name="ownership-new"),
    path("animals/<int:pk>/transfer/", views.animal_transfer, name="animal-transfer"),
    path("animals/<int:pk>/vaccinations/new/", views.vaccination_new, name="vaccination-new"),
    path("ownerships/<int:pk>/end/", views.ownership_end, name="ownership-end"),
    path("vaccinations/<int:pk>/", views.vaccination, name="vaccination"),
    path("vaccinations/<int:pk>/edit/", views.vaccination_edit, name="vaccination-edit"),
    path("vaccinations/<int:pk>/void/", views.vaccination_void, name="vaccination-void"),
    path("vaccinations/<int:pk>/duplicate-tag/", views.vaccination_duplicate_tag, name="vaccination-duplicate-tag"),
]
