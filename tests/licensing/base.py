from datetime import date
from decimal import Decimal

from dogtag.licensing import actions

BENTON_FEES = {"license_tax.altered": "5.00", "license_tax.unaltered": "10.00", "late_fee": "5.00"}


def set_fees(clerk, municipality, fees: dict, effective_on=date(2023, 2, 15), authority="Res. 2023-01"):
    return [
        actions.set_fee(
            acting_user=clerk,
            municipality=municipality,
            key=key,
            amount=Decimal(amount),
            effective_on=effective_on,
            authority=authority,
        )
        for key, amount in fees.items()
    ]


def benton_license(t, on=date(2026, 2, 10)):
    """Benton's fee schedule set, a 2026 tag lot received, and Rex licensed on `on`."""
    fees = set_fees(t.clerk, t.benton, BENTON_FEES)
    actions.receive_tag_lot(
        acting_user=t.clerk,
        municipality=t.benton,
        license_year=on.year,
        first_serial=1001,
        last_serial=1100,
        received_on=date(on.year, 1, 2),
    )
    license = actions.issue_license(t.dog, acting_user=t.clerk, payment={"amount": "10.00", "method": "cash"}, on=on)
    return fees[0], license


def benton_renewal_run(t):
    """A 2027 renewal run for Benton, printed (after `benton_license`)."""
    from django.db import connection

    from dogtag.licensing.actions import start_renewal_run

    with t.captureOnCommitCallbacks(using=connection.alias, execute=True):
        run = start_renewal_run(acting_user=t.clerk, municipality=t.benton, license_year=t.license.license_year + 1)
    run.refresh_from_db()
    t.renewal_chunk = run.chunks.get()
    return run


def benton_replacement_tag(t):
    """Rex's lost tag replaced for the $3.00 charge the board set (after `benton_license`)."""
    actions.set_fee(acting_user=t.clerk, municipality=t.benton, key="replacement_tag", amount=Decimal("3.00"),
                    effective_on=date(2026, 1, 1), authority="Res. 2026-4")  # fmt: skip
    return actions.replace_tag(t.license, acting_user=t.clerk, payment={"method": "cash", "amount": "3.00"})
