"""Case titles stored before the date sweep hold ISO dates ("Bite by Rex on 2026-03-11"): write
them as every screen does ("March 11, 2026", `lib.dates.shown`). The same day in other words,
so nothing is lost; text that only looks like a date (2026-13-45) is left as it is."""

import re
from datetime import date

from django.db import migrations

ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip


def as_on_screen(title: str) -> str:
    def one(match):
        try:
            day = date(*(int(part) for part in match.groups()))
        except ValueError:
            return match.group(0)
        return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"

    return ISO.sub(one, title)


def rewrite_titles(apps, schema_editor):
    Case = apps.get_model("enforcement", "Case")
    changed = []
    for case in Case.objects.filter(title__regex=r"[0-9]{4}-[0-9]{2}-[0-9]{2}").only("pk", "title").iterator():
        title = as_on_screen(case.title)[:200]
        if title != case.title:
            case.title = title
            changed.append(case)
    Case.objects.bulk_update(changed, ["title"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("enforcement", "0008_hearing_time"),
    ]

    operations = [
        # backwards: the titles stay as on screen (the day is the same; nothing to undo)
        migrations.RunPython(rewrite_titles, migrations.RunPython.noop),
    ]
