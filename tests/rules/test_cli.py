"""`rules ask`, `rules list` and `law coverage` on the command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from datetime import date
from pathlib import Path

from dogtag.rules.cli import main


def run(argv, stdin=""):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return code, (json.loads(out.getvalue()) if out.getvalue() else None)


def test_it_answers_a_question_as_json_with_citations(tmp_path):
    local = tmp_path / "local.json"
    local.write_text(json.dumps({"license_tax.unaltered": {"2023-02-15": "15.00"}, "late_fee": {"2023-02-15": "5.00"}}))
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
        "late_fee": "5.00",
        "total": "20.00",
        "trigger": "renewal",
        "basis": "tax",
        "half_tax": False,
        "no_tax": None,
        "exclusion": None,
    }
    late = next(c for c in out["citations"] if c["section"] == "§ 115-4")
    assert late["jurisdiction"] == "wi-benton"
    assert late["quote"].startswith("The Village Clerk-Treasurer shall assess and collect a late fee")
    assert out["not_set"] == []
    assert out["status"] == "text_incomplete" and out["citations"][-1]["section"] == "§ 173-1"


def test_a_fee_schedule_outside_the_states_limits_is_refused_naming_every_amount_rule_and_section(tmp_path, capsys):
    local = tmp_path / "local.json"
    local.write_text(
        json.dumps(
            {
                "license_tax.altered": {"2026-01-01": "10.00"},
                "license_tax.unaltered": {"2026-01-01": "10.00", "2026-07-01": "7.00"},
                "late_fee": {"2026-01-01": "7.00"},
            }
        )
    )
    argv = ["rules", "ask", "wi-webster", "license_charges", "--on", "2026-04-02", "--facts", "-"]
    code, out = run([*argv, "--local-amounts", str(local)], stdin='{"born_on": "2020-01-01"}')
    error = json.loads(capsys.readouterr().err)["error"]
    assert (code, out) == (2, None)
    assert (
        "the tax for an intact dog ($10.00) must be greater than the tax for a spayed or neutered dog ($10.00)" in error
    )
    assert "license_tax.unaltered from 2026-07-01: $7.00 is below the state minimum tax of $8.00" in error
    assert "late_fee from 2026-01-01: the state fixes a late fee of $5.00, not $7.00" in error
    assert all(section in error for section in ("s. 174.05(2)", "s. 174.05(3)", "s. 174.05(5)"))
    local.write_text(
        json.dumps({"license_tax.altered": {"2026-01-01": "10.00"}, "license_tax.unaltered": {"2026-01-01": "12.00"}})
    )
    code, out = run([*argv, "--local-amounts", str(local)], stdin='{"born_on": "2020-01-01"}')
    assert code == 0 and out["value"]["tax"] == "12.00"


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


def test_a_decimal_leash_length_given_as_a_json_number_is_refused_as_feet_not_money(capsys):
    facts = {"classification": "vicious", "leashed": True, "leash_ft": 6.5, "muzzled": True}
    code, _ = run(
        ["rules", "ask", "wi-webster", "declared_dog_outside", "--on", "2026-03-02", "--facts", "-"], json.dumps(facts)
    )
    error = json.loads(capsys.readouterr().err)["error"]
    assert code == 2
    assert "leash_ft" in error and "feet" in error and '"6.5"' in error
    assert "money" not in error
    facts["leash_ft"] = "6.5"
    code, out = run(
        ["rules", "ask", "wi-webster", "declared_dog_outside", "--on", "2026-03-02", "--facts", "-"], json.dumps(facts)
    )
    assert code == 0 and out["value"]["complies"] is False


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


def _pack_schemas(jurisdiction):
    code, out = run(["rules", "list", "--pack", jurisdiction])
    assert code == 0
    return {q["question"]: q for q in out}


def test_every_cases_facts_fit_its_packs_schema_and_its_local_amounts_are_ones_the_question_reads():
    """Each YAML case's facts are valid against `rules list --pack <its jurisdiction>`; a case the
    engine refuses for a value the pack does not name is refused by the schema too."""
    import jsonschema_rs

    from dogtag.rules import to_json
    from dogtag.rules.packs import pack_ids, read_yaml

    cases = Path(__file__).parent / "cases"
    checked = refused = 0
    for jurisdiction in pack_ids():
        schemas = _pack_schemas(jurisdiction)
        for path in sorted((cases / jurisdiction).glob("*.yaml")):
            for case in read_yaml(path) or []:
                row = schemas[case["question"]]
                validator = jsonschema_rs.Draft202012Validator(row["facts_schema"])
                facts = to_json(case.get("facts") or {})
                errors = [e.message for e in validator.iter_errors(facts)]
                if "error" in case["expect"] and case.get("rulings"):
                    continue  # refused under a ruled reading; the schema is the pack's as unruled
                if "error" in case["expect"] and (
                    "no forfeiture for" in case["expect"]["error"] or "is not a" in case["expect"]["error"]
                ):
                    assert errors, (path.name, case["name"])
                    refused += 1
                    continue
                if "error" not in case["expect"]:
                    assert not errors, (jurisdiction, path.name, case["name"], errors)
                    checked += 1
                assert set(case.get("local_amounts") or {}) <= set(row["local_amounts"]), (path.name, case["name"])
    assert checked > 400 and refused == 2


def test_an_unknown_violation_fails_the_schema_and_the_engine_names_the_fact_rule_and_section():
    import jsonschema_rs

    schema = _pack_schemas("wi-benton")["forfeiture"]["facts_schema"]
    validator = jsonschema_rs.Draft202012Validator(schema)
    assert validator.is_valid({"violation": "115-5C", "days": 3})  # a subsection of § 115-5
    assert validator.is_valid({"violation": "s. 95.21 quarantine"})
    assert not validator.is_valid({"violation": "115-30"})  # not § 115-3: the next character is a digit
    assert not validator.is_valid({"violation": "98-6"})  # Webster's section, not Benton's
    code = main(
        ["rules", "ask", "wi-benton", "forfeiture", "--on", "2026-03-02", "--facts", "-"],
        stdin=io.StringIO('{"violation": "115-30"}'),
        stdout=io.StringIO(),
    )
    assert code == 2
    from dogtag.rules import ask

    try:
        ask("wi-benton", "forfeiture", {"violation": "115-30"}, date(2026, 3, 2))
    except ValueError as e:
        message = str(e)
    else:
        raise AssertionError("an unknown violation is answered")
    assert message.startswith("violation: no forfeiture for violation '115-30' here (§ 115-3B(4)")
    assert "forfeiture reads forfeitures" in message and "known: 115-3, 115-5, " in message


def test_each_packs_violation_enum_equals_the_sections_its_schedules_name():
    from dogtag.rules.packs import all_packs

    for pack in all_packs():
        s = pack.forfeitures
        sections = {x for r in [*s.ordinance, *s.statute, *s.no_forfeiture] for x in r.sections}
        violation = _pack_schemas(pack.id)["forfeiture"]["facts_schema"]["$defs"]["Violation"]
        enum, subsection = violation["anyOf"]
        assert set(enum["enum"]) == sections and len(enum["enum"]) == len(sections), pack.id
        assert subsection["pattern"].startswith("^(?:")


def test_every_packs_schemas_are_valid_json_schema_and_specialising_makes_no_fact_required():
    import jsonschema_rs

    from dogtag.rules.catalogue import PACK_SET
    from dogtag.rules.packs import pack_ids

    code, general = run(["rules", "list"])
    general = {q["question"]: q for q in general}
    assert PACK_SET not in json.dumps(general)
    assert all(jsonschema_rs.meta.is_valid(q["facts_schema"]) for q in general.values())
    for jurisdiction in pack_ids():
        for name, row in _pack_schemas(jurisdiction).items():
            schema = row["facts_schema"]
            assert jsonschema_rs.meta.is_valid(schema), (jurisdiction, name)
            assert PACK_SET not in json.dumps(schema)
            for ref in {m for m in _refs(schema)}:
                assert ref.removeprefix("#/$defs/") in schema["$defs"], (jurisdiction, name, ref)
            assert row["required"] == general[name]["required"], (jurisdiction, name)
            assert jsonschema_rs.meta.is_valid(row["local_amounts_schema"])


def _refs(node):
    if isinstance(node, dict):
        if "$ref" in node:
            yield node["$ref"]
        for v in node.values():
            yield from _refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from _refs(v)


def test_open_sets_list_the_packs_values_and_accept_another_which_the_engine_answers():
    import jsonschema_rs

    from dogtag.rules import ask

    river_hills = _pack_schemas("wi-river-hills")
    defs = river_hills["dog_classification"]["facts_schema"]["$defs"]
    named, other = defs["Excuse"]["anyOf"]
    assert named["enum"] == ["defend_person", "protect_itself_or_young", "tormented", "defend_property_from_trespasser"]
    assert "the incident counts" in other["description"]
    facts = {
        "incidents": [{"occurred_on": "2026-01-02", "kind": "bite_injury", "victim": "person", "excuse": "startled"}]
    }
    assert jsonschema_rs.Draft202012Validator(river_hills["dog_classification"]["facts_schema"]).is_valid(facts)
    assert ask("wi-river-hills", "dog_classification", facts, date(2026, 1, 5)).value.unrecognized_excuses == (
        "startled",
    )
    webster = _pack_schemas("wi-webster")
    kinds = webster["prohibited_animal"]["facts_schema"]["$defs"]["ProhibitedKind"]["anyOf"][0]["enum"]
    assert "lion" in kinds and "crocodilian" in kinds
    classes = webster["declared_dog_outside"]["facts_schema"]["$defs"]["Classification"]["anyOf"]
    assert classes[0]["enum"] == ["vicious"] and classes[1]["enum"] == ["potentially_dangerous", "dangerous", "vicious"]
    grounds = webster["impoundment_basis"]["facts_schema"]["$defs"]["ImpoundmentGround"]["anyOf"][0]["enum"]
    assert "not_confined_in_rabies_quarantine" in grounds and "unlicensed" not in grounds
    # a pack naming none (no such rule): the fact keeps its general schema and says why
    benton_kind = _pack_schemas("wi-benton")["prohibited_animal"]["facts_schema"]["properties"]["kind"]
    assert "this pack names none" in json.dumps(benton_kind)


def test_the_local_amounts_a_question_reads_in_a_pack():
    webster = _pack_schemas("wi-webster")
    assert webster["license_tax"]["local_amounts"] == {
        "late_fee": "licensing.late_fee",
        "license_tax.altered": "licensing.tax",
        "license_tax.unaltered": "licensing.tax",
    }
    assert set(webster["impoundment_release"]["local_amounts"]) == {"impoundment_fee", "impoundment_daily_fee"}
    assert webster["hearing_window"]["local_amounts"] == {}
    schema = webster["multiple_dog_license"]["local_amounts_schema"]
    assert set(schema["properties"]) == {"multiple_dog_license.tax", "multiple_dog_license.each_additional"}


def test_a_shelter_standard_the_pack_does_not_name_is_refused_naming_the_fact_rule_and_section():
    from dogtag.rules import ask

    try:
        ask("wi-webster", "shelter_standards", {"met": ["space", "heated_floor"]}, date(2026, 3, 2))
    except ValueError as e:
        assert str(e).startswith("met: heated_floor is not a standard of shelter here (§ 98-16A); ")
        assert "shelter_standards reads animals.shelter" in str(e)
    else:
        raise AssertionError("an unknown standard is answered")


def test_list_for_an_unknown_pack_is_refused():
    assert run(["rules", "list", "--pack", "wi-nowhere"])[0] == 2


def test_the_installed_command_needs_no_secret_key_debug_or_base_url(tmp_path):
    """A fresh install, production defaults: no SECRET_KEY, DEBUG, DOGTAG_BASE_URL or database in
    the environment; the law's commands read only the packs (issue 27, item 12)."""
    dogtag = Path(sys.executable).parent / "dogtag"
    clean = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}

    def dogtag_(*argv, stdin=""):
        done = subprocess.run([dogtag, *argv], input=stdin, capture_output=True, text=True, env=clean, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr and "SECRET_KEY" not in done.stderr
        return json.loads(done.stdout)

    assert any(q["question"] == "license_tax" for q in dogtag_("rules", "list"))
    answer = dogtag_("rules", "ask", "wi-cedarburg", "license_tax", "--on", "2026-04-01", "--facts", "-",
                     stdin='{"altered": true, "born_on": "2020-01-01"}')  # fmt: skip
    assert answer["value"]["amount"] == "5.00"
    assert dogtag_("law", "coverage", "wi-benton")["unaccounted"] == []
    assert not (tmp_path / "var").exists()  # no database was made


def test_the_installed_command_still_refuses_a_server_without_its_secret(tmp_path):
    """The commands that sign or keep sessions still refuse to start without SECRET_KEY."""
    dogtag = Path(sys.executable).parent / "dogtag"
    clean = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    done = subprocess.run([dogtag, "check"], capture_output=True, text=True, env=clean, cwd=tmp_path)
    assert done.returncode != 0
    assert done.stderr.startswith("dogtag: SECRET_KEY is not set") and "Traceback" not in done.stderr
