"""Grouping SARIF results for triage (evidence/sarif/triage.py): severity, groups, order."""

from __future__ import annotations

from typing import Any

import pytest
from sarifkit import CODEQL, located, log, run

from evidence.model import Record
from evidence.reports.loading import load_reports
from evidence.sarif.reader import reports_of
from evidence.sarif.triage import group_results, only_location, result_facts, severity


def results(*found: dict[str, Any]) -> list[Record]:
    (report,) = reports_of(log(run(*found, name="scanner")), "scan.sarif")
    return list(report.records)


def result(rule: str, path: str, line: int, **extra: object) -> dict[str, object]:
    message = {"text": f"{rule} here"}
    return {"ruleId": rule, "message": message, "locations": [located(path, line)]} | extra


@pytest.mark.parametrize(
    ("score", "expected"),
    [("9.8", "critical"), ("7.0", "high"), ("5.5", "medium"), ("0.1", "low"), ("x", "warning")],
)
def test_a_security_severity_score_names_the_band(score: str, expected: str) -> None:
    (record,) = results(result("r", "a.py", 1, properties={"security-severity": score}))
    assert severity(record) == expected


def test_without_a_score_the_level_is_the_severity() -> None:
    records = results(
        result("a", "a.py", 1, level="error"),
        result("b", "a.py", 2),
        result("c", "a.py", 3, level="note"),
    )
    assert [severity(r) for r in records] == ["error", "warning", "note"]


def test_groups_by_rule_file_and_severity() -> None:
    records = results(
        result("UP045", "b.py", 9, level="note"),
        result("B608", "b.py", 3, level="error"),
        result("UP045", "a.py", 5, level="note"),
        result("E501", "a.py", 1, level="note"),
        result("UP045", "a.py", 2, level="note"),
    )
    facts = [(n, result_facts(r, "scanner")) for n, r in enumerate(records)]
    by_rule = group_results(facts, "rule")
    # the worst first, then the most results; within a rule, file and line order
    assert [(g.label, g.severity, g.members) for g in by_rule] == [
        ("B608", "error", (1,)),
        ("UP045", "note", (4, 2, 0)),
        ("E501", "note", (3,)),
    ]
    by_file = group_results(facts, "file")
    assert [(g.label, g.severity, g.members) for g in by_file] == [
        ("a.py", "note", (3, 4, 2)),
        ("b.py", "error", (1, 0)),
    ]
    by_severity = group_results(facts, "severity")
    assert [(g.label, g.members) for g in by_severity] == [("error", (1,)), ("note", (3, 4, 2, 0))]
    with pytest.raises(ValueError, match="grouping"):
        group_results(facts, "colour")


def test_only_a_result_with_one_location_and_nothing_else_has_an_only_location() -> None:
    records = list(load_reports([CODEQL]).records())
    singles = [r for r in records if len(r.quotes) == 1]
    several = [r for r in records if len(r.quotes) > 1]
    assert singles and several
    assert all(only_location(r) is r.quotes[0] for r in singles)
    assert all(only_location(r) is None for r in several)
