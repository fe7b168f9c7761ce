"""Every write is in an app's actions (`<app>/actions.py` or `<app>/actions/`), where it runs in
one transaction with one audit event (DESIGN.md, layer rule 2). This reads the source: a call of
.save(), .delete(), .create(), .bulk_create(), .get_or_create(), .update_or_create(),
.bulk_update() on anything, or .update() on a queryset (a manager or a filter chain, not a dict),
in any other module fails (the cache and the storage API hold no rows). The admin and the
migrations are outside the rule; so are the few modules below, each with its reason."""

import ast
import shutil

from tests.architecture.source import PACKAGE, module_name, modules

WRITES = {"save", "delete", "create", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
# Receivers that hold no rows: the cache and the storage API (files).
NOT_ROWS = {"cache", "default_storage", "storage"}
QUERYSET = {"objects", "filter", "exclude", "all", "select_for_update", "select_related", "order_by", "using"}

EXCEPTIONS = {
    "dogtag.audit.record": "the audit writer itself: every action calls it inside its own transaction",
    "dogtag.audit.chain": "appends the audit writer's row to the hash chain and moves the chain's head, "
    "inside the calling action's transaction",
    "dogtag.audit.checks": "the worker's daily verdict on the audit chain, read by /healthz",
    "dogtag.outbox.mail": "queues a message inside the calling action's transaction and marks it sent: "
    "the outbox's own bookkeeping, not a person's change to a record",
    "dogtag.outbox.sender": "claims, sends and marks the outbox's messages: the queue's own bookkeeping",
    "dogtag.worker.heartbeat": "the worker's heartbeat row, read by /healthz",
    "dogtag.worker.schedules": "the task queue's schedule rows, kept equal to settings",
    "dogtag.payments.providers.stripe_checkout": "creates a Checkout Session and a Refund through Stripe's SDK: "
    "calls to the processor, not rows (payments/actions.py writes what they answer)",
    "dogtag.outbox.texts": "sends a text through Twilio's SDK (messages.create): a call to the provider, not "
    "a row (the outbox's sender marks the message sent)",
    "dogtag.registry.management.commands.demo": "loads the demo municipalities and accounts: configuration, "
    "like the admin",
}


def _chain_reads_a_queryset(node) -> bool:
    while isinstance(node, ast.Call | ast.Attribute):
        if isinstance(node, ast.Attribute) and node.attr in QUERYSET:
            return True
        node = node.func if isinstance(node, ast.Call) else node.value
    return False


def writes(tree: ast.Module) -> list[str]:
    """Each write call in the module, as `line: code`."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method, receiver = node.func.attr, node.func.value
        if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super":
            continue  # a model's own save() or delete() calling Django's
        if (isinstance(receiver, ast.Name) and receiver.id in NOT_ROWS) or (
            isinstance(receiver, ast.Attribute) and receiver.attr in NOT_ROWS
        ):
            continue
        if method in WRITES or (method == "update" and _chain_reads_a_queryset(receiver)):
            found.append(f"{node.lineno}: {ast.unparse(node)[:90]}")
    return found


def _in_actions(module: str) -> bool:
    parts = module.split(".")
    return "actions" in parts or parts[-1] == "admin" or "admin" in parts[-2:-1]


def writes_outside_actions(root=PACKAGE) -> list[str]:
    return [
        f"{module}:{hit}"
        for module, _, tree in modules(root)
        if not _in_actions(module) and module not in EXCEPTIONS
        for hit in writes(tree)
    ]


def test_every_write_is_in_an_action():
    broken = writes_outside_actions()
    assert broken == [], "Writes outside <app>/actions:\n" + "\n".join(broken)


def test_each_exception_still_writes():
    """An exception that no longer writes is removed from the list, so the list stays true."""
    found = {module: writes(tree) for module, _, tree in modules()}
    stale = [m for m in [*EXCEPTIONS] if m in found and not found[m]]
    assert stale == [], f"No longer writes; remove it from the exceptions: {stale}"


def test_it_finds_a_write_in_a_temporary_module(tmp_path):
    probe = tmp_path / "dogtag" / "licensing" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "def renew(license, tags, context):\n"
        "    context.update(seen=True)\n"  # a dict: not a write
        "    license.save()\n"
        "    License.objects.filter(pk=license.pk).update(tax=0)\n"
        "    license.tags.all().update(status='voided')\n"
        "    Tag.objects.bulk_create(tags)\n"
    )
    module = module_name(probe, tmp_path)
    assert not _in_actions(module)
    assert writes(ast.parse(probe.read_text())) == [
        "3: license.save()",
        "4: License.objects.filter(pk=license.pk).update(tax=0)",
        "5: license.tags.all().update(status='voided')",
        "6: Tag.objects.bulk_create(tags)",
    ]
    inside = tmp_path / "dogtag" / "licensing" / "actions" / "renewals.py"
    assert _in_actions(module_name(inside, tmp_path))


def test_the_check_fails_on_a_copy_of_the_source_with_a_write_added(tmp_path):
    """The same check as above, over the whole source with one module added that writes."""
    copy = tmp_path / "dogtag"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("templates", "static", "texts", "*.yaml"))
    (copy / "licensing" / "probe.py").write_text("def renew(license):\n    license.save()\n")
    (copy / "licensing" / "actions" / "probe.py").write_text("def renew(license):\n    license.save()\n")
    assert writes_outside_actions(copy) == ["dogtag.licensing.probe:2: license.save()"]
