"""What a person does with the outbox: send a dead letter again (after fixing the address or
the mail server); consent to text messages, recorded by the clerk or given online by the resident,
and ended by a STOP reply, by the resident online or by the clerk."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from dogtag.accounts.models import Role
from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
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
        record(acting_user=acting_user, action=Action.OUTBOX_SEND_AGAIN, obj=message)
    if dead:
        enqueue("dogtag.outbox.tasks.send_outbox", [m.pk for m in dead])
    return len(dead)


@transaction.atomic
def record_text_consent(*, acting_user, person, phone: str, how: str):
    """A person's consent to texts at `phone`, recorded by the clerk: when, how, by whom. A number
    already consented for this municipality is refused, naming it."""
    from dogtag.outbox import texts
    from dogtag.outbox.models import TextConsent

    require_role(acting_user, person.municipality_id, MANAGERS)
    if how not in TextConsent.How.values or how == TextConsent.How.TEXT_REPLY:
        raise ValidationError({"how": "Say how the person consented: signed form, in person, by telephone or online."})
    number = texts.e164(phone)
    if TextConsent.objects.filter(municipality_id=person.municipality_id, phone=number, stopped_at=None).exists():
        raise ValidationError({"phone": f"{number} already has consent to texts on record."})
    consent = TextConsent.objects.create(
        municipality_id=person.municipality_id,
        person=person,
        phone=number,
        consented_at=timezone.now(),
        how=how,
        recorded_by=acting_user,
    )
    record(acting_user=acting_user, action=Action.TEXTS_CONSENT, obj=consent)
    return consent


@transaction.atomic
def answer_text_reply(*, municipality, phone: str, body: str) -> str:
    """A reply from `phone` (the provider's signed webhook): STOP ends every live consent of the
    number, START/UNSTOP renews the last one stopped; returns the keyword ("stop", "start",
    "help" or "")."""
    from dogtag.outbox import texts
    from dogtag.outbox.models import TextConsent

    word = texts.keyword(body)
    now = timezone.now()
    if word == "stop":
        for consent in TextConsent.objects.select_for_update().filter(
            municipality=municipality, phone=phone, stopped_at=None
        ):
            consent.stopped_at, consent.stopped_how = now, f"replied {body.strip()[:40].upper()}"
            consent.save(update_fields=["stopped_at", "stopped_how"])
            record(acting_user=None, action=Action.TEXTS_STOP, obj=consent)
        Message.objects.filter(
            municipality=municipality, channel=Message.Channel.TEXT, to=phone, sent_at=None, dead_at=None
        ).update(dead_at=now, last_error="the number replied STOP")
    elif word == "start":
        live = TextConsent.objects.filter(municipality=municipality, phone=phone, stopped_at=None).exists()
        last = TextConsent.objects.filter(municipality=municipality, phone=phone).order_by("-consented_at").first()
        if last is not None and not live:
            consent = TextConsent.objects.create(
                municipality=municipality,
                person=last.person,
                phone=phone,
                consented_at=now,
                how=TextConsent.How.TEXT_REPLY,
            )
            record(acting_user=None, action=Action.TEXTS_START, obj=consent)
    return word


def _refuse_a_consented_number(person, number: str) -> None:
    from dogtag.outbox.models import TextConsent

    live = TextConsent.objects.filter(municipality_id=person.municipality_id, phone=number, stopped_at=None).first()
    if live is not None and live.person_id == person.pk:
        raise ValidationError({"phone": _("%(number)s already receives these text messages.") % {"number": number}})
    if live is not None:
        raise ValidationError(
            {
                "phone": _("%(number)s already receives text messages for someone else; call the clerk's office.")
                % {"number": number}
            }
        )


@transaction.atomic
def consent_online(*, person, phone: str, wording: str):
    """The resident's own consent to texts at `phone`, on the portal page their link opened: the
    words they were shown are kept with it ("online", now, no staff member). A number already
    consented is refused, naming it; the person's consent at another number ends (replaced)."""
    from dogtag.outbox import texts
    from dogtag.outbox.models import TextConsent

    number = texts.e164(phone)
    _refuse_a_consented_number(person, number)
    now = timezone.now()
    _end(TextConsent.objects.filter(person=person, stopped_at=None), now, "replaced online by another number", None)
    consent = TextConsent.objects.create(
        municipality_id=person.municipality_id,
        person=person,
        phone=number,
        consented_at=now,
        how=TextConsent.How.ONLINE,
        wording=wording,
    )
    record(acting_user=None, action=Action.TEXTS_CONSENT, obj=consent)
    return consent


def _end(consents, now, how: str, acting_user) -> list:
    """End these live consents (locked first), one audit event each."""
    ended = list(consents.select_for_update())
    for consent in ended:
        consent.stopped_at, consent.stopped_how, consent.stopped_by = now, how, acting_user
        consent.save(update_fields=["stopped_at", "stopped_how", "stopped_by"])
        record(acting_user=acting_user, action=Action.TEXTS_OPT_OUT, obj=consent)
        Message.objects.filter(
            municipality_id=consent.municipality_id,
            channel=Message.Channel.TEXT,
            to=consent.phone,
            sent_at=None,
            dead_at=None,
        ).update(dead_at=now, last_error=f"consent to texts ended: {how}")
    return ended


@transaction.atomic
def stop_texts_online(*, person) -> int:
    """The resident ends their texts on the portal; returns how many consents ended (0: none was live)."""
    from dogtag.outbox.models import TextConsent

    return len(_end(TextConsent.objects.filter(person=person, stopped_at=None), timezone.now(), "online", None))


@transaction.atomic
def stop_texts(*, acting_user, consent):
    """The clerk ends a consent (the person asked by letter, at the counter or by telephone)."""
    from dogtag.outbox.models import TextConsent

    require_role(acting_user, consent.municipality_id, MANAGERS)
    ended = _end(
        TextConsent.objects.filter(pk=consent.pk, stopped_at=None), timezone.now(), "by the clerk", acting_user
    )
    if not ended:
        raise ValidationError(_("Texts to %(number)s had already stopped.") % {"number": consent.phone})
    return ended[0]


def queue_text(*, municipality, person, body: str, kind: str) -> Message | None:
    """A text to `person` at their live consented number, queued in the caller's transaction and
    sent by the worker after commit; None when the person has no live consent."""
    from dogtag.outbox.models import TextConsent

    consent = TextConsent.objects.filter(municipality=municipality, person=person, stopped_at=None).first()
    if consent is None:
        return None
    message = Message.objects.create(
        municipality=municipality, channel=Message.Channel.TEXT, to=consent.phone, subject="", text=body, kind=kind
    )
    enqueue("dogtag.outbox.tasks.send_outbox", [message.pk], task_name=f"outbox: text {message.pk}")
    return message
