"""`rules ask`, `rules list` and `law coverage` on the command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from dogtag.rules.cli import main


def run(argv, stdin=""):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return code, (json.loads(out.getvalue()) if out.getvalue() else None)


def test_it_answers_a_question_as_json_with_citations(tmp_path):
    local = tmp_path / "local.json"
    local.write_text(
        json.dumps({"license_tax.unaltered": {"2023-02-15": "15.00"}, "late_fee": {"2023-02-15": "10.00"}})
    )
    code, out = run(
        [
            "rules",
            "ask",
            "wi-benton",
            "license_charges",
            "--on",
            "2025-04-01",
            "--facts",
            "-",
            "--local-amounts",
            str(local),
        ],
        stdin='{"born_on": "2020-01-01"}',
    )
    assert code == 0
    assert out["value"] == {
        "applies": True,
        "tax": "15.00",
        "late_fee": "10.00",
        "total": "25.00",
        "trigger": "renewal",
        "basis": "tax",
        "half_tax": False,
        "no_tax": None,
        "exclusion": None,
    }
    assert {"jurisdiction": "wi-benton", "section": "§ 115-4"}.items() <= out["citations"][-1].items()
    assert out["citations"][-1]["quote"].startswith("assess and collect a late fee")
    assert out["not_set"] == []


def test_it_reports_not_set_local_amounts(tmp_path):
    facts = tmp_path / "dog.json"
    facts.write_text('{"born_on": "2020-01-01"}')
    code, out = run(["rules", "ask", "wi-benton", "license_tax", "--on", "2025-04-01", "--facts", str(facts)])
    assert code == 0 and out["value"]["amount"] is None
    assert out["value"]["no_tax"] == "local_amount_not_set"
    assert [n["key"] for n in out["not_set"]] == ["license_tax.unaltered"]
    assert out["not_set"][0]["citation"]["section"] == "§ 115-3A(3)"


def test_it_rejects_unknown_facts_and_questions():
    assert (
        run(
            ["rules", "ask", "wi", "license_tax", "--on", "2025-04-01", "--facts", "-"],
            stdin='{"born_on": "2020-01-01", "colour": "brown"}',
        )[0]
        == 2
    )
    assert run(["rules", "ask", "wi", "no_such_question", "--on", "2025-04-01", "--facts", "-"], stdin="{}")[0] == 2


def test_it_lists_questions_with_their_facts():
    code, out = run(["rules", "list"])
    by_name = {q["question"]: q for q in out}
    assert code == 0
    assert "born_on" in by_name["license_charges"]["facts"]
    assert "born_on" in by_name["license_charges"]["required"]
    assert {
        "license_tax",
        "late_fee",
        "license_required",
        "license_expiry",
        "rabies_current",
        "kennel_license",
        "multiple_dog_license",
        "household_limit",
    } <= set(by_name)


def test_the_list_gives_each_questions_complete_json_schema_with_defs_and_enums():
    import jsonschema_rs  # schemathesis's JSON Schema validator

    code, out = run(["rules", "list"])
    by_name = {q["question"]: q for q in out}
    schema = by_name["dog_classification"]["facts_schema"]
    assert jsonschema_rs.meta.is_valid(schema)
    assert "Incident" in schema["$defs"]
    kinds = schema["$defs"]["Incident"]["properties"]["kind"]["enum"]
    assert "bite_injury" in kinds and "serious_injury" in kinds
    grounds = by_name["impoundment_basis"]["facts_schema"]["properties"]["ground"]["anyOf"][0]["enum"]
    assert "at_large" in grounds
    validator = jsonschema_rs.Draft202012Validator(by_name["at_large"]["facts_schema"])
    assert validator.is_valid({"off_owner_premises": True, "leash_ft": 6})
    assert not validator.is_valid({"leash_ft": 6})  # off_owner_premises is required


def test_the_list_gives_each_questions_value_schema_an_object_with_named_fields():
    import jsonschema_rs

    code, out = run(["rules", "list"])
    assert code == 0
    untyped = {q["question"] for q in out if q["value_schema"] is None}
    assert untyped == set(), "every question declares the type of its answer (issue 13, one answer shape)"
    for q in out:
        schema = q["value_schema"]
        if schema is None:
            continue
        assert jsonschema_rs.meta.is_valid(schema), q["question"]
        assert schema["type"] == "object" and schema["properties"], q["question"]
    outside = next(q for q in out if q["question"] == "declared_dog_outside")["value_schema"]
    assert {"applies", "complies", "failures", "leash_max_ft"} <= set(outside["properties"])


def test_every_cases_value_is_its_questions_type_and_fits_its_schema():
    """Each YAML case's answer is an instance of the question's declared value type, and its JSON
    is valid against the value schema `rules list` prints."""
    import jsonschema_rs

    from dogtag.rules import ask
    from dogtag.rules.catalogue import get_question
    from dogtag.rules.packs import read_yaml

    checked = 0
    cases = Path(__file__).parent / "cases"
    for path in sorted(cases.glob("*/*.yaml")):
        for case in read_yaml(path) or []:
            q = get_question(case["question"])
            if q.value is None or "error" in case["expect"]:
                continue
            args = (path.parent.name, q.name, case.get("facts") or {}, case["on"], case.get("local_amounts"))
            decision = ask(*args)
            assert isinstance(decision.value, q.value), (path.name, case["name"], decision.value)
            validator = jsonschema_rs.Draft202012Validator(q.value_schema())
            errors = [e.message for e in validator.iter_errors(decision.to_json()["value"])]
            assert not errors, (path.name, case["name"], errors)
            checked += 1
    assert checked > 50


def test_coverage_lists_every_section_with_its_provisions_or_reason():
    code, out = run(["law", "coverage", "wi-cedarburg"])
    rows = {r["section"]: r for r in out["sections"]}
    assert code == 0
    assert [f"§ 7-1-{n}" for n in range(1, 27)] == [s for s in rows if s.startswith("§ 7-1-")][:26]
    assert "licensing.late_fee" in rows["§ 7-1-4"]["provisions"]
    assert rows["§ 7-1-23"]["not_encoded"].startswith("the bird sanctuary")


def test_every_section_of_every_text_is_accounted_for():
    for jurisdiction in ["wi", "wi-benton", "wi-webster", "wi-river-hills", "wi-sampson", "wi-cedarburg"]:
        code, out = run(["law", "coverage", jurisdiction])
        assert code == 0 and out["unaccounted"] == [], (jurisdiction, out["unaccounted"])


def test_the_module_runs_on_its_own():
    done = subprocess.run(
        [sys.executable, "-m", "dogtag.rules.cli", "rules", "list"], capture_output=True, text=True, check=True
    )
    assert any(q["question"] == "license_tax" for q in json.loads(done.stdout))
