"""SARIF rules: which rule a result names (driver or extension) and the level it has."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sarifkit import located, log

from evidence.model import Record, Report
from evidence.sarif.reader import load_sarif


def read(the_run: dict[str, Any]) -> Report:
    (report,) = load_sarif(json.dumps(log(the_run)).encode(), "rules.sarif")
    return report


def result(label: str, **extra: Any) -> dict[str, Any]:
    return {"message": {"text": label}, "locations": [located("a.py", 1)], **extra}


def by_label(report: Report) -> dict[str, Record]:
    return {record.label: record for record in report.records}


def level(record: Record) -> str:
    return dict(record.statuses)["level"]


def said(report: Report) -> str:
    return " ".join(diagnostic.message for diagnostic in report.diagnostics)


# --- rules of extensions ----------------------------------------------------------------------


def _tool() -> dict[str, Any]:
    return {
        "driver": {
            "name": "T",
            "guid": "00000000-0000-0000-0000-00000000000d",
            "rules": [
                {"id": "D0", "defaultConfiguration": {"level": "note"}},
                {"id": "X0", "defaultConfiguration": {"level": "note"}},  # the extension's id too
            ],
        },
        "extensions": [
            {"name": "other", "rules": [{"id": "Y0"}]},
            {
                "name": "pack",
                "guid": "6C6F6F6B-0000-0000-0000-000000000001",
                "rules": [{"id": "X0", "defaultConfiguration": {"level": "error"}}],
            },
        ],
    }


@pytest.mark.parametrize(
    "component",
    [
        {"name": "pack"},
        {"guid": "6c6f6f6b-0000-0000-0000-000000000001"},  # a guid in another case
        {"index": 1},
        {"index": 1, "name": "pack"},
    ],
)
def test_a_rule_of_an_extension_named_by_name_guid_or_index(component: dict[str, Any]) -> None:
    reference = {"index": 0, "toolComponent": component}
    report = read({"tool": _tool(), "results": [result("m", rule=reference)]})
    (record,) = report.records
    assert record.section == "X0" and level(record) == "error"
    assert not report.diagnostics


def test_the_driver_named_by_its_name_and_an_id_looked_up_in_the_extension_named() -> None:
    driver = {"index": 0, "toolComponent": {"name": "T"}}
    by_id = {"id": "X0", "toolComponent": {"name": "pack"}}
    report = read({"tool": _tool(), "results": [result("d", rule=driver), result("x", rule=by_id)]})
    found = by_label(report)
    assert found["d"].section == "D0" and level(found["d"]) == "note"
    assert found["x"].section == "X0" and level(found["x"]) == "error"


def test_a_component_the_tool_does_not_have_is_said() -> None:
    reference = {"index": 0, "toolComponent": {"name": "missing"}}
    report = read({"tool": _tool(), "results": [result("m", rule=reference)]})
    (record,) = report.records
    assert record.section == "(no rule)" and level(record) == "warning"
    assert "name 'missing' names no component of the tool" in said(report)


# --- levels ------------------------------------------------------------------------------------


def _rules(*rules: dict[str, Any]) -> dict[str, Any]:
    return {"driver": {"name": "T", "rules": list(rules)}}


@pytest.mark.parametrize("kind", ["review", "open"])
def test_a_result_that_is_no_failure_has_level_none_unless_it_says_one(kind: str) -> None:
    tool = _rules({"id": "R", "defaultConfiguration": {"level": "error"}})
    results = [
        result("no level", ruleId="R", kind=kind),
        result("own level", ruleId="R", kind=kind, level="note"),
        result("fail", ruleId="R", kind="fail"),
        result("no kind", ruleId="R"),
    ]
    found = by_label(read({"tool": tool, "results": results}))
    assert level(found["no level"]) == "none"
    assert ("level", "none") in found["no level"].fields
    assert level(found["own level"]) == "note"
    assert level(found["fail"]) == "error" and level(found["no kind"]) == "error"


def test_an_invocation_s_rule_configuration_override_comes_before_the_rule_s_default() -> None:
    tool = _rules(
        {"id": "A", "defaultConfiguration": {"level": "note"}},
        {"id": "B", "defaultConfiguration": {"level": "note"}},
        {"id": "C", "defaultConfiguration": {"level": "note"}},
    )
    overrides = [
        {"descriptor": {"id": "A"}, "configuration": {"level": "error"}},
        {"descriptor": {"index": 1}, "configuration": {"level": "warning"}},
        {"descriptor": {"id": "C"}, "configuration": {"enabled": True}},  # no level: the default
    ]
    results = [
        result("a", ruleId="A"),
        result("b", ruleId="B", ruleIndex=1),
        result("c", ruleId="C"),
        result("own", ruleId="A", level="note"),
        result("review", ruleId="A", kind="review"),
    ]
    the_run = {
        "tool": tool,
        "invocations": [{"executionSuccessful": True, "ruleConfigurationOverrides": overrides}],
        "results": results,
    }
    found = by_label(read(the_run))
    assert [level(found[name]) for name in ("a", "b", "c", "own", "review")] == [
        "error",
        "warning",
        "note",
        "note",
        "none",
    ]


def test_the_override_of_the_invocation_that_found_the_result() -> None:
    tool = _rules({"id": "A"})
    invocations = [
        {"executionSuccessful": True},
        {
            "executionSuccessful": True,
            "ruleConfigurationOverrides": [
                {"descriptor": {"id": "A"}, "configuration": {"level": "error"}}
            ],
        },
    ]
    results = [
        result("first", ruleId="A", provenance={"invocationIndex": 0}),
        result("second", ruleId="A", provenance={"invocationIndex": 1}),
        result("unsaid", ruleId="A"),
    ]
    found = by_label(read({"tool": tool, "invocations": invocations, "results": results}))
    assert level(found["first"]) == "warning"
    assert level(found["second"]) == "error" and level(found["unsaid"]) == "error"
