"""The clerk's licensing actions, one module per kind (docs/architecture.md, "Where writes happen");
the names callers reach are re-exported here, as `from dogtag.licensing import actions`."""

from dogtag.licensing.actions.animal_reports import report_animal as report_animal
from dogtag.licensing.actions.fees import set_fee as set_fee
from dogtag.licensing.actions.fees import void_fee as void_fee
from dogtag.licensing.actions.licenses import issue_license as issue_license
from dogtag.licensing.actions.licenses import replace_tag as replace_tag
from dogtag.licensing.actions.licenses import revoke_license as revoke_license
from dogtag.licensing.actions.licenses import void_license as void_license
from dogtag.licensing.actions.payments import record_payment as record_payment
from dogtag.licensing.actions.reminders import deliver_renewal_reminders as deliver_renewal_reminders
from dogtag.licensing.actions.reminders import sweep_renewal_reminders as sweep_renewal_reminders
from dogtag.licensing.actions.renewals import RENDER_CHUNK as RENDER_CHUNK
from dogtag.licensing.actions.renewals import merge_renewal_run as merge_renewal_run
from dogtag.licensing.actions.renewals import print_renewal_chunk as print_renewal_chunk
from dogtag.licensing.actions.renewals import start_renewal_run as start_renewal_run
from dogtag.licensing.actions.roles import CLERKS as CLERKS
from dogtag.licensing.actions.tag_returns import store_tag_return_list as store_tag_return_list
from dogtag.licensing.actions.tags import receive_tag_lot as receive_tag_lot
