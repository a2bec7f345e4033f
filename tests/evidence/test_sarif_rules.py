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
