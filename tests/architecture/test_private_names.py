"""A private name (`_x`) is never imported across apps: it is the app's own, free to change.
import-linter checks which modules import which, not the names they take, so this reads the
source: `from dogtag.<other app>... import _x`, and `<module of another app>._x`."""

import ast

from tests.architecture.source import app_of, module_name, modules


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _absolute(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")[: -node.level] if node.level else []
    return ".".join(base + ([node.module] if node.module else []))


def private_imports(module: str, tree: ast.Module) -> list[str]:
    """Each use in `module` of another app's private name, as `line: what`."""
    found, foreign = [], {}  # foreign: local name -> the other app's module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _absolute(module, node)
            if not source.startswith("dogtag.") or app_of(source) == app_of(module):
                continue
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{node.lineno}: from {source} import {alias.name}")
                else:
                    foreign[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("dogtag.") and app_of(alias.name) != app_of(module) and alias.asname:
                    foreign[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in foreign
        ):
            found.append(f"{node.lineno}: {foreign[node.value.id]}.{node.attr}")
    return found


def test_no_app_uses_another_apps_private_names():
    broken = [f"{module}:{hit}" for module, _, tree in modules() for hit in private_imports(module, tree)]
    assert broken == [], "Private names used across apps:\n" + "\n".join(broken)


def test_it_finds_one_in_a_temporary_module(tmp_path):
    probe = tmp_path / "dogtag" / "licensing" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "from dogtag.registry.api import _municipality\n"
        "from dogtag.registry import actions as registry\n"
        "from dogtag.licensing.actions import _payment\n"  # its own app's: allowed
        "registry._same_municipality('owner', None, 1)\n"
    )
    module = module_name(probe, tmp_path)
    assert module == "dogtag.licensing.probe"
    assert private_imports(module, ast.parse(probe.read_text())) == [
        "1: from dogtag.registry.api import _municipality",
        "4: dogtag.registry.actions._same_municipality",
    ]
