"""An owner's or a clerk's report that an animal is lost, found again, deceased or moved away.
The animal's status follows the report, so renewal notices and reminders, which
go only to active animals, stop; a deceased or moved animal's tags are retired (never reissued,
still on record) and the found-dog lookup no longer answers for them. Nothing is deleted: the
reports are the animal's history."""

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import record, save_and_record, snapshot
from dogtag.lib import plausible_dates
from dogtag.licensing.actions.roles import CLERKS
from dogtag.licensing.models import License, Tag
from dogtag.registry.models import Animal, AnimalReport

Kind, Status = AnimalReport.Kind, Animal.Status
# The status each report leaves, and the statuses it may be made from.
STATUS_AFTER = {Kind.LOST: Status.MISSING, Kind.FOUND: Status.ACTIVE, Kind.DIED: Status.DIED,
                Kind.MOVED_AWAY: Status.MOVED_AWAY}  # fmt: skip
MADE_FROM = {Kind.LOST: {Status.ACTIVE}, Kind.FOUND: {Status.MISSING}, Kind.DIED: {Status.ACTIVE, Status.MISSING},
             Kind.MOVED_AWAY: {Status.ACTIVE, Status.MISSING}}  # fmt: skip
RETIRES_TAGS = {Kind.DIED, Kind.MOVED_AWAY}
RECORDED_AS = {Status.ACTIVE: gettext_lazy("at home"), Status.MISSING: gettext_lazy("lost"),
               Status.DIED: gettext_lazy("deceased"), Status.TRANSFERRED: gettext_lazy("transferred to another owner"),
               Status.MOVED_AWAY: gettext_lazy("moved away")}  # fmt: skip


def _refusal(animal, kind) -> str | None:
    if animal.status in MADE_FROM[kind]:
        return None
    now = RECORDED_AS.get(animal.status, animal.get_status_display().lower())
    if kind == Kind.FOUND:
        return _("%(name)s is not reported lost (recorded as %(now)s); there is nothing to mark found.") % {
            "name": animal.name, "now": now}  # fmt: skip
    return _("%(name)s is recorded as %(now)s, so it cannot be reported %(kind)s.") % {
        "name": animal.name, "now": now, "kind": str(Kind(kind).label).lower()}  # fmt: skip


@transaction.atomic
def report_animal(
    animal, *, kind: str, happened_on: date | None, note: str = "", acting_user=None, by_owner: bool = False
) -> AnimalReport:
    """Record the report and set the animal's status. A clerk reports at the counter
    (`acting_user`); an owner reports on the portal through the signed link that is their key
    (`by_owner`, no account). A refusal names the field and changes nothing."""
    actor = None if by_owner else acting_user
    if not by_owner:
        require_role(acting_user, animal.municipality_id, CLERKS)
    animal = Animal.objects.select_for_update().get(pk=animal.pk)
    errors = {}
    if kind not in Kind.values:
        errors["kind"] = _("Choose what happened: lost, found again, deceased or moved away.")
    elif refusal := _refusal(animal, kind):
        errors["kind"] = refusal
    if happened_on is None:
        errors["happened_on"] = _("Enter the date it happened.")
    else:
        plausible_dates.check(errors, plausible_dates.HAPPENED, happened_on, "happened_on", _("The date"))
        if "happened_on" not in errors and animal.birth_date and happened_on < animal.birth_date:
            errors["happened_on"] = _("The date %(day)s is before %(name)s's birth date %(born)s.") % {
                "day": plausible_dates.said(happened_on),
                "name": animal.name,
                "born": plausible_dates.said(animal.birth_date),
            }
    if len(note or "") > 300:
        errors["note"] = _("Keep the note to 300 characters.")
    if errors:
        raise ValidationError(errors)
    report = save_and_record(
        AnimalReport(
            municipality_id=animal.municipality_id,
            animal=animal,
            kind=kind,
            happened_on=happened_on,
            note=(note or "").strip(),
            by_owner=by_owner,
            reported_by=actor,
        ),
        acting_user=actor,
        action=Action.ANIMAL_REPORT,
    )
    before = snapshot(animal)
    animal.status = STATUS_AFTER[kind]
    animal.save(update_fields=["status"])
    record(acting_user=actor, action=Action.ANIMAL_UPDATE, obj=animal, before=before)
    # The license itself stands, paid for as it was; only its tags still issued are voided.
    if kind in RETIRES_TAGS:
        for license in License.objects.filter(animal=animal, tags__status=Tag.Status.ISSUED).distinct():
            before = snapshot(license)
            license.tags.filter(status=Tag.Status.ISSUED).update(status=Tag.Status.VOIDED)
            record(acting_user=actor, action=Action.LICENSE_RETIRE_TAGS, obj=license, before=before)
    return report
