"""The layer contracts (.importlinter) hold, and lint-imports, which `make test` runs, fails on a
module that breaks one: shown on a copy of the source with one bad module added."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.architecture.source import PACKAGE

ROOT = PACKAGE.parents[1]
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(src: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run(
        [str(LINT), "--no-cache", "--no-logo", str(ROOT / ".importlinter")],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _copy(tmp_path) -> Path:
    src = tmp_path / "src"
    shutil.copytree(PACKAGE, src / "dogtag", ignore=shutil.ignore_patterns("templates", "static", "texts", "*.yaml"))
    return src


def test_the_contracts_hold_and_a_breaking_import_fails_them(tmp_path):
    src = _copy(tmp_path)
    clean = _lint(src, tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "0 broken" in clean.stdout

    # The registry reaching up into enforcement (a lower layer importing a higher one), the rules
    # importing Django, and one app importing another's views: each a broken contract.
    (src / "dogtag" / "registry" / "probe.py").write_text("from dogtag.enforcement import models  # noqa\n")
    (src / "dogtag" / "rules" / "probe.py").write_text("import django.db  # noqa\n")
    (src / "dogtag" / "permits" / "probe.py").write_text("from dogtag.licensing import views  # noqa\n")
    # And the portal's forms borrowing licensing's forms, which the contract no longer excuses.
    with (src / "dogtag" / "portal" / "forms.py").open("a") as forms:
        forms.write("from dogtag.licensing import forms as licensing_forms  # noqa\n")
    broken = _lint(src, tmp_path)
    assert broken.returncode != 0
    out = broken.stdout
    assert "3 broken" in out, out
    assert "dogtag.registry.probe -> dogtag.enforcement.models" in out
    assert "dogtag.rules.probe -> django" in out
    assert "dogtag.permits.probe -> dogtag.licensing.views" in out
    assert "dogtag.portal.forms -> dogtag.licensing.forms" in out
