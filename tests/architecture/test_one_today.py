"""The municipality's day is read in one place, `dogtag.lib.dates.today` (the deployment's time zone):
no other module asks the clock for a date (`timezone.localdate()` without a time, `date.today()`,
`timezone.now().date()`), so a date is never the server's day by mistake."""

import ast

from tests.architecture.source import modules

HOME = "dogtag.lib.dates"
# The licensing room's two scheduled reads of the day, left to that room's own change.
NOT_YET: set[str] = set()


def _name(node) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return f"{_name(node.func)}()"
    return ""


def clock_days(tree: ast.Module) -> list[str]:
    """Each place in a module that reads the day from the clock, as `line: call`."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = _name(node.func)
        if (
            (called.endswith("localdate") and not node.args and not node.keywords)
            or called.endswith(("date.today", "datetime.today"))
            or called.endswith("now().date")
        ):
            found.append(f"{node.lineno}: {called}()")
    return found


def test_only_lib_dates_reads_the_day_from_the_clock():
    found = [
        f"{module}:{hit}"
        for module, _, tree in modules()
        if module != HOME and module not in NOT_YET
        for hit in clock_days(tree)
    ]
    assert found == [], "Read the day with dogtag.lib.dates.today():\n" + "\n".join(found)


def test_it_finds_each_way_of_reading_the_day():
    source = (
        "from datetime import date\nfrom django.utils import timezone\n"
        "a = timezone.localdate()\nb = date.today()\nc = timezone.now().date()\n"
        "d = timezone.localdate(paid_at)\n"  # a given moment's day: allowed
    )
    assert clock_days(ast.parse(source)) == [
        "3: timezone.localdate()",
        "4: date.today()",
        "5: timezone.now().date()",
    ]
