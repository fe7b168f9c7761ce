"""Startup under threads: the catalogue and the packs load once, completely, under a lock, and
are read-only afterwards. The cold test runs in a fresh interpreter, so nothing is loaded yet when
its threads ask their first question (as in a server's first second)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dogtag.rules import QUESTIONS, load_pack, packs, question
from dogtag.rules.catalogue import Facts
from dogtag.rules.schema import SECTIONS, Strict, register_section

CASES = Path(__file__).parent / "cases"
THREADS = 32

COLD = r"""
import json, sys, threading
from pathlib import Path
from dogtag.rules import catalogue, packs, ask, to_json

assert not catalogue._loaded and not packs._PACKS and not catalogue.QUESTIONS, "loaded before the threads"
cases = [
    (p.parent.name, c)
    for p in sorted(Path(sys.argv[1]).glob("*/*.yaml"))
    for c in packs.read_yaml(p) or []
    if not c.get("rulings")  # the unruled packs are what a cold start loads
]
threads = int(sys.argv[2])
barrier = threading.Barrier(threads)
errors, wrong, answered = [], [], [0] * threads

def work(i):
    barrier.wait()  # every thread asks its first question at the same moment
    for jurisdiction, case in cases[i % len(cases):] + cases[:i % len(cases)]:
        try:
            got = ask(jurisdiction, case["question"], case.get("facts") or {}, case["on"], case.get("local_amounts"))
        except Exception as e:
            if "error" in case["expect"] and case["expect"]["error"] in str(e):
                answered[i] += 1  # a case that expects the engine to refuse
                continue
            errors.append(f"{type(e).__name__}: {e}")
            continue
        answered[i] += 1
        if got.to_json()["value"] != to_json(case["expect"].get("value")):
            wrong.append(case["name"])

pool = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
for t in pool: t.start()
for t in pool: t.join()
print(json.dumps({"cases": len(cases), "answered": sum(answered), "errors": errors[:5], "error_count": len(errors),
                  "wrong": wrong[:5], "packs": sorted(packs._PACKS)}))
"""


def test_many_threads_asking_at_a_cold_start_all_get_their_answer():
    r = subprocess.run(
        [sys.executable, "-c", COLD, str(CASES), str(THREADS)], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["error_count"] == 0, out["errors"]
    assert out["wrong"] == []
    assert out["cases"] > 100
    assert out["answered"] == out["cases"] * THREADS
    assert out["packs"] == sorted(packs.pack_ids())


def test_a_django_process_has_everything_loaded_before_its_first_request():
    code = (
        "import django; django.setup(); from dogtag.rules import catalogue, packs; "
        "print(catalogue._loaded, sorted(packs._PACKS) == sorted(packs.pack_ids()))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "dogtag.settings"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert r.stdout.split() == ["True", "True"], r.stderr


def test_the_catalogue_and_the_sections_are_read_only():
    load_pack("wi")
    with pytest.raises(TypeError):
        QUESTIONS["license_tax"] = None  # type: ignore[index]
    with pytest.raises(TypeError):
        SECTIONS["licensing"] = Strict  # type: ignore[index]


def test_a_question_or_section_registered_after_loading_is_refused():
    load_pack("wi")

    class LateFacts(Facts):
        pass

    with pytest.raises(RuntimeError, match="after the catalogue was loaded"):
        question("a_late_question", facts=LateFacts, doc="")(lambda *a: None)
    assert "a_late_question" not in QUESTIONS

    class LateSection(Strict):
        pass

    with pytest.raises(RuntimeError, match="after the packs' sections were sealed"):
        register_section("a_late_section", LateSection)


def test_a_loaded_pack_cannot_be_changed():
    pack = load_pack("wi-benton")
    with pytest.raises(AttributeError, match="read-only"):
        pack.licensing = None
    with pytest.raises(TypeError):
        pack.sections["licensing"] = None  # type: ignore[index]
    with pytest.raises(TypeError):
        pack.origins[("licensing", "tax")] = "wi-webster"  # type: ignore[index]
    assert load_pack("wi-benton") is pack
