"""Person.match_key (registry/names.py): added, filled for the people already on record, indexed."""

from django.db import migrations, models

from dogtag.registry.names import person_key


def fill(apps, schema_editor):
    Person = apps.get_model("registry", "Person")
    batch = []
    for pk, name, street in Person.objects.order_by("pk").values_list("pk", "name", "street").iterator(5000):
        batch.append(Person(pk=pk, match_key=person_key(name, street)))
        if len(batch) == 5000:
            Person.objects.bulk_update(batch, ["match_key"])
            batch = []
    Person.objects.bulk_update(batch, ["match_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0002_municipality_seal"),
    ]

    operations = [
        migrations.AddField(
            model_name="person",
            name="match_key",
            field=models.TextField(
                blank=True,
                editable=False,
                help_text="name and street normalised (registry/names.py), set by clean()",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name="person",
            index=models.Index(fields=["municipality", "match_key"], name="person_match_key"),
        ),
    ]
