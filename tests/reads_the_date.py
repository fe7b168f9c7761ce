"""The test modules that read today's date or the time of day, directly or through a fixture that
counts from today (tests/enforcement/fixtures.py, the browser tests' records). `bin/test-days`
runs them (marker `reads_the_date`) with the clock started at fixed instants: a Sunday, a legal
holiday, New Year's Eve late in Chicago, New Year's Day, February 29 and the spring-forward day.
A new test that reads the date belongs here. Tests that start `dogtag` in another process (the
worker, export and restore) are left out: that process keeps the real clock, so it cannot be sent
to the instant; so are tests that read the time only to stamp a row (a token's revocation).

A module on the list is on it whole: a new test there reads the date until shown otherwise. A test
in it that never reads today or the time, directly or through a fixture or its class's data, is
named in NOT_THE_DATE with the reason: it runs in the ordinary suite only (at ORDINARY_INSTANT, as
before), not once more at each instant (issue 27 §11: the date-proof job well under ten minutes)."""

MODULES = frozenset(
    {
        "tests/accounts/test_isolation.py",
        "tests/api/test_input.py",
        "tests/browser/test_animal_control.py",
        "tests/browser/test_dangerous_dog.py",
        "tests/browser/test_clinic_file.py",  # certificates given ten days before today
        "tests/browser/test_canvass.py",  # the fee to license today, the day an invitation is sent
        "tests/browser/test_days.py",
        "tests/browser/test_found_card.py",
        "tests/browser/test_pay_online.py",  # a renewal for next year; a citation three days old
        "tests/browser/test_owner_report.py",
        "tests/browser/test_ordinance.py",  # the staff's counts are of the license year of today
        "tests/browser/test_keyboard.py",
        "tests/browser/test_portal.py",
        "tests/browser/test_spanish_pages.py",  # her dog reported lost today
        "tests/browser/test_spanish.py",  # a license of this year (or next, in December) and its renewal
        "tests/browser/test_phone_layout.py",  # a deadline moved over a Sunday or holiday
        "tests/browser/test_reflow.py",
        # Online payments: a notification's signature is stamped with the clock and checked against
        # it (tests/payments/support.py `stripe_signature`), the retry sweep runs minutes after now,
        # the daily reconciliation reads the day (issue 27 §11).
        "tests/licensing/test_query_counts.py",  # a receipt counter of today's year
        "tests/licensing/test_renewal_reminders.py",  # reminders counted from the license year of the clock
        "tests/outbox/test_texts.py",  # a retry is due minutes after now
        "tests/outbox/test_text_reminders.py",  # reminders counted from the license year of the clock
        "tests/outbox/test_text_consent.py",  # the consent's day, and the pet page's owner of today
        "tests/payments/test_certificate_attachment.py",  # the notification's signature is stamped with the clock
        "tests/payments/test_hosted_page.py",
        "tests/payments/test_processor.py",
        "tests/payments/test_refunds_and_reconciliation.py",
        "tests/payments/test_review_mode.py",  # the receipt is dated when the processor took the money
        "tests/payments/test_stripe_checkout.py",
        "tests/payments/test_two_at_once.py",
        "tests/registry/test_plausibility.py",
        "tests/reports/test_reports.py",
        "tests/reports/test_status.py",
        "tests/test_date_format.py",
        "tests/test_tagged_pdfs.py",  # the animal-control records of tests/enforcement/fixtures.py
    }
)

# A Django test class that sets its own clock, frozen (tests/base.py `on`, tick=False): time_machine
# starts it in the class's set-up, inside the instant's clock (tests/instants.py), and stops it at its
# tear-down, so its data and each of its tests run at its own day whatever the instant.
FROZEN = "the class's own clock, frozen from its set-up to its tear-down, hides the instant"

# Module -> "Class", "Class::test" or "test" -> why it does not read the date. Each must name a test
# class or test of a module above, and a class named FROZEN must be frozen so (tests/test_instants.py).
NOT_THE_DATE = {
    "tests/accounts/test_isolation.py": {
        "IsolationTests::test_the_administrators_pages_serve_benton_s_administrator_and_refuse_its_clerk": (
            "the administrator's answers (200, or 405 to a POST-only page) are asserted at every instant"
            " by test_the_same_pages_serve_the_benton_clerk, which asks the same pages as the same user;"
            " the clerk's 403 is require_role (accounts/scope.py) on the membership's role, which has no date"
        ),
    },
    "tests/licensing/test_query_counts.py": {"QueryCountTests": FROZEN},
    "tests/outbox/test_text_consent.py": {"ClerkConsentTests": FROZEN, "ResidentConsentTests": FROZEN},
    "tests/payments/test_certificate_attachment.py": {"CertificateAttachmentTests": FROZEN},
    "tests/payments/test_hosted_page.py": {"HostedPageTests": FROZEN},
    "tests/payments/test_refunds_and_reconciliation.py": {"RefundTests": FROZEN},
    "tests/payments/test_stripe_checkout.py": {"StripeCheckoutTests": FROZEN},
    "tests/payments/test_two_at_once.py": {"TwoAtOnceTests": FROZEN},
    "tests/registry/test_plausibility.py": {"BirthDateTests": FROZEN, "AmountTests": FROZEN},
    "tests/reports/test_reports.py": {
        "LicensingReportTests": FROZEN,
        "RegistryReportTests": FROZEN,
        "AnimalControlReportTests": FROZEN,
    },
    "tests/reports/test_status.py": {"StatusTests": FROZEN},
    "tests/browser/test_phone_layout.py": {
        "test_a_deadline_moved_over_a_sunday_fits_its_cell_at_390_px": (
            "its own clock (time_machine.travel to Sunday, January 3, 2027) starts before its records are"
            " made and runs through it, so it runs on that Sunday whatever the instant"
        ),
    },
    "tests/test_date_format.py": {
        "DateFormatTests::test_the_scan_sees_an_iso_date_in_text_and_not_in_a_field": (
            "reads two fixed strings of HTML: no record, no page"
        ),
    },
    "tests/test_tagged_pdfs.py": {
        "TaggedPdfTests::test_the_check_finds_an_untagged_pdf_a_table_without_headers_and_a_figure_without_words": (
            "draws fixed HTML into PDFs: no record, no page"
        ),
    },
}
