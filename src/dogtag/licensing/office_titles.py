"""The titles of the offices the packs name to issue licenses (the `issuing_office` question),
marked here for the catalogues: `make messages` reads the source, not the packs, and a license
and its receipt print the title in the holder's language. tests/licensing/test_issuing_office.py
checks that every pack's office is one of these."""

from django.utils.translation import gettext_noop

TITLES = (
    gettext_noop("City Treasurer"),  # Cedarburg § 7-1-3(a)(4)
    gettext_noop("Village Clerk-Treasurer"),  # Benton § 115-3A(4)
    gettext_noop("Village Treasurer"),  # Webster § 98-3A(4)
    gettext_noop("Village Clerk"),  # River Hills § 2.14(2), read with § 2.14(6)[g]
    gettext_noop("Town Clerk"),  # Sampson Ord. 3-2007 Section 7A.1, the local collecting officer
)
