"""The periodic work, from settings.DOGTAG_SCHEDULES, as django-q2 schedules.

Synchronised after every `migrate` (so the admin shows them on a fresh install) and each time
`dogtag worker` starts (so a changed setting takes effect on the next start). Idempotent: a
schedule is found by its name and updated; one whose setting is "off" is removed."""

from django.conf import settings
from django.db import transaction
from django_q.models import Schedule

PREFIX = "dogtag: "


def sync() -> None:
    wanted = {PREFIX + name: spec for name, spec in settings.DOGTAG_SCHEDULES.items() if spec[1]}
    with transaction.atomic():
        existing = {s.name: s for s in Schedule.objects.select_for_update().filter(name__startswith=PREFIX)}
        for name, (func, cron) in wanted.items():
            schedule = existing.get(name)
            if schedule is None:
                Schedule.objects.create(name=name, func=func, schedule_type=Schedule.CRON, cron=cron, repeats=-1)
            elif (schedule.func, schedule.cron, schedule.schedule_type) != (func, cron, Schedule.CRON):
                schedule.func, schedule.cron, schedule.schedule_type = func, cron, Schedule.CRON
                schedule.next_run = schedule.calculate_next_run()
                schedule.save()
        Schedule.objects.filter(name__in=set(existing) - set(wanted)).delete()


def sync_after_migrate(using="default", **kwargs) -> None:
    if using == "default":
        sync()
