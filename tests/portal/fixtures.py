"""One submitted Benton application with both uploads, for tests that walk every page."""

from dogtag.portal import actions
from tests.portal.helpers import FULL, PNG, upload


def benton_application(t):
    app = actions.start_application(municipality=t.benton, email="dana@example.org")
    actions.save_draft(
        app,
        post={**FULL, "altered": "on"},
        files={"rabies_certificate_file": upload(), "altered_evidence_file": upload("proof.png", PNG)},
    )
    t.application = app
    return app
