"""The officer's calendar key: made on first use, replaced when the officer resets the feed's
secret URL (the old URL stops working). Each change is audited; no municipality owns it."""

import secrets

from django.db import transaction

from dogtag.audit.action_names import Action
from dogtag.audit.record import record, snapshot
from dogtag.enforcement.models import CalendarKey


@transaction.atomic
def calendar_key(user) -> CalendarKey:
    key, made = CalendarKey.objects.get_or_create(user=user, defaults={"salt": secrets.token_hex(16)})
    if made:
        record(acting_user=user, action=Action.CALENDAR_KEY, obj=key)
    return key


@transaction.atomic
def reset_calendar(*, acting_user) -> CalendarKey:
    key = CalendarKey.objects.select_for_update().filter(user=acting_user).first()
    if key is None:
        return calendar_key(acting_user)
    before = snapshot(key)
    key.salt = secrets.token_hex(16)
    key.save(update_fields=["salt"])
    record(acting_user=acting_user, action=Action.CALENDAR_RESET, obj=key, before=before)
    return key
