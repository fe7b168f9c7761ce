"""The clerk's licensing actions: one transaction each, the amounts from the rule engine, one
audit event per record written (DESIGN.md, layer rule 2). One module per kind of action; the names
are gathered here, so `from dogtag.licensing import actions` reaches every one."""

from dogtag.licensing.actions.animal_reports import report_animal
from dogtag.licensing.actions.fees import set_fee, void_fee
from dogtag.licensing.actions.licenses import issue_license, replace_tag, revoke_license, void_license
from dogtag.licensing.actions.payments import record_payment
from dogtag.licensing.actions.reminders import deliver_renewal_reminders, sweep_renewal_reminders
from dogtag.licensing.actions.renewals import (
    MERGE_RUN,
    RENDER_CHUNK,
    merge_renewal_run,
    print_renewal_chunk,
    start_renewal_run,
)
from dogtag.licensing.actions.roles import CLERKS
from dogtag.licensing.actions.tag_returns import store_tag_return_list
from dogtag.licensing.actions.tags import MAX_LOT, receive_tag_lot, take_tag

__all__ = [
    "CLERKS",
    "MAX_LOT",
    "MERGE_RUN",
    "RENDER_CHUNK",
    "deliver_renewal_reminders",
    "issue_license",
    "merge_renewal_run",
    "print_renewal_chunk",
    "receive_tag_lot",
    "record_payment",
    "report_animal",
    "replace_tag",
    "revoke_license",
    "set_fee",
    "start_renewal_run",
    "store_tag_return_list",
    "sweep_renewal_reminders",
    "take_tag",
    "void_fee",
    "void_license",
]
