"""What a person does with the outbox: send a dead letter again (after fixing the address or
the mail server)."""

from django.db import transaction
from django.utils import timezone

from dogtag.accounts.models import Role
from dogtag.accounts.scope import require_role
from dogtag.audit.record import record
from dogtag.lib.tasks import enqueue
from dogtag.outbox.models import Message

MANAGERS = (Role.CLERK, Role.ADMINISTRATOR)


@transaction.atomic
def send_again(*, acting_user, municipality, ids) -> int:
    """Put these dead letters back in the queue with a fresh count of attempts; returns how many."""
    if not getattr(acting_user, "is_superuser", False):
        require_role(acting_user, municipality.pk, MANAGERS)
    dead = list(
        Message.objects.select_for_update()
        .filter(municipality=municipality, pk__in=ids, sent_at=None)
        .exclude(dead_at=None)
        .defer("attachment")
    )
    now = timezone.now()
    for message in dead:
        message.dead_at, message.attempts, message.next_attempt_at = None, 0, now
        message.save(update_fields=["dead_at", "attempts", "next_attempt_at"])
        record(acting_user=acting_user, action="outbox.send_again", obj=message)
    if dead:
        enqueue("dogtag.outbox.tasks.send_outbox", [m.pk for m in dead])
    return len(dead)
