"""Person.match_key (registry/names.py): added, filled for the people already on record, indexed."""

from django.db import migrations, models

from dogtag.registry.names import person_key


def fill(apps, schema_editor):
    """One UPDATE a person, sent in blocks (psycopg pipelines them): bulk_update's CASE of 5,000
    branches made the fill quadratic in the block, minutes at half a million people."""
    Person = apps.get_model("registry", "Person")
    connection = schema_editor.connection
    sql = f"UPDATE {connection.ops.quote_name(Person._meta.db_table)} SET match_key = %s WHERE id = %s"
    people = Person.objects.using(connection.alias).order_by("pk").values_list("pk", "name", "street")
    block = []
    with connection.cursor() as cursor:
        for pk, name, street in people.iterator(5000):
            block.append((person_key(name, street), pk))
            if len(block) == 5000:
                cursor.executemany(sql, block)
                block = []
        if block:
            cursor.executemany(sql, block)


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
