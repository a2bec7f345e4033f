"""Issue 25: `assay check` on an audit checks each system against its own repository; a system
whose repository is absent is reported as such; JSON has a `systems` list with each system's
result as `check` gives it for its reports alone."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest
from auditkit import make_audit
from click.testing import CliRunner

from evidence.audit import check as audit_check
from evidence.audit.check import audit_json, audit_text, check_audit
from evidence.audit.file import AuditSystem, load_audit
from evidence.audit.processes import processes_for
from tui.cli import cli


@pytest.fixture
def audit(tmp_path: Path) -> Path:
    return make_audit(tmp_path / "audit")


def test_json_holds_each_system_as_check_gives_it(audit: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["check", "--audit", str(audit), "--format", "json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert [s["system"] for s in data["systems"]] == ["Alpha", "Beta", "Gamma"]
    assert [s["state"] for s in data["systems"]] == ["checked", "checked", "no_repository"]
    alone = runner.invoke(
        cli,
        [
            "check",
            str(audit.parent / "reports" / "alpha-runtime-report.txt"),
            "--repo",
            str(audit.parent / "repos" / "alpha"),
            "--format",
            "json",
        ],
    )
    expected = json.loads(alone.stdout)
    alpha = data["systems"][0]
    assert {key: alpha[key] for key in expected} == expected
    gamma = data["systems"][2]
    assert gamma["repository"] is None and gamma["records"] == 3 and gamma["quote_count"] == 2
    assert "quotes" not in gamma
    assert data["summary"] == {
        "systems": 3,
        "checked": 2,
        "ok": 0,
        "no_repository": 1,
        "errors": 0,
        "quotes": 6,
        "failing": 2,
        "citations_missing": 1,
        "unchecked": 0,
    }


def test_text_per_system_then_totals(audit: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(audit.parent)  # no REPORT: assay.toml here
    result = CliRunner().invoke(cli, ["check"])
    assert result.exit_code == 1
    out = result.stdout
    assert out.index("== Alpha") < out.index("== Beta") < out.index("== Gamma")
    assert "✗ src/gone.py  AL-CLM-answer" in out
    assert "repository not on this machine: 1 report path(s), 3 records, 2 quotes" in out
    assert out.rstrip().splitlines()[-1].startswith("audit: 3 systems, 2 checked (0 OK), 1 without")


def test_a_system_whose_revision_is_unknown_is_an_error_not_a_stop(audit: Path) -> None:
    text = audit.read_text().replace('name = "Beta"', 'name = "Beta"\nrev = "no-such-rev"')
    audit.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--audit", str(audit), "--format", "json"])
    data = json.loads(result.stdout)
    beta = data["systems"][1]
    assert beta["state"] == "error" and "no-such-rev" in beta["error"]
    assert data["systems"][0]["state"] == "checked"


def test_a_system_without_a_repository_whose_reports_cannot_be_used_is_an_error(
    audit: Path,
) -> None:
    # check called it "not on this machine" (0 records of an empty file, or reports about two
    # systems) while the audit screen marked it `!` with the error: they now agree
    from tui.audit_app import load_state

    (audit.parent / "reports" / "empty.txt").write_text("", encoding="utf-8")
    text = audit.read_text().replace(
        'reports = ["reports/gamma-runtime-report.txt"]',
        'reports = ["reports/gamma-runtime-report.txt", "reports/empty.txt"]',
    )
    text += '\n[[system]]\nname = "Both"\nreports = ["reports/alpha-*.txt", "reports/beta-*.txt"]\n'
    audit.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--audit", str(audit), "--format", "json"])
    data = json.loads(result.stdout)
    states = {each["system"]: (each["state"], each["error"]) for each in data["systems"]}
    assert (
        states["Gamma"][0] == "error" and "empty.txt: not an evidence report" in states["Gamma"][1]
    )
    assert states["Both"][0] == "error" and "about 2 systems" in states["Both"][1]
    assert data["summary"]["errors"] == 2 and data["summary"]["no_repository"] == 0
    screen = {entry.name: entry.error for entry in load_state(load_audit(audit)).entries}
    for name, (state, error) in states.items():
        assert (screen[name] is not None) == (state == "error"), name
        assert screen[name] is None or error.startswith(screen[name])


def test_an_error_of_several_lines_is_printed_as_lines(audit: Path) -> None:
    for name in ("one.txt", "two.txt"):
        (audit.parent / "reports" / name).write_text("", encoding="utf-8")
    text = audit.read_text().replace(
        'reports = ["reports/beta-runtime-report.txt"]',
        'reports = ["reports/one.txt", "reports/two.txt"]',
    )
    audit.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--audit", str(audit)])
    lines = result.stdout.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("== Beta")))
    assert lines[start + 1].startswith("error: ") and lines[start + 1].endswith(
        "one.txt: not an evidence report: no title ending in 'report', no 'Type:' line, no"
        " shared record or annotation and no quote ('--- path')"
    )
    assert (
        lines[start + 2].startswith("       /") and "two.txt: not an evidence" in lines[start + 2]
    )
    assert "\\u000a" not in result.stdout


@pytest.mark.parametrize("command", ["check", "parse"])
def test_json_holds_no_control_a_terminal_acts_on(audit: Path, command: str) -> None:
    # a bidi override in a system's name and in its report went out raw (the JSON of the
    # reports alone escapes it): the terminal showing the JSON reordered its text
    report = audit.parent / "reports" / "alpha-runtime-report.txt"
    report.write_text(report.read_text().replace("fixed number", "fixed \u202enumber"), "utf-8")
    text = audit.read_text().replace('name = "Gamma"', 'name = "Gam\u202ema"')
    audit.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, [command, "--audit", str(audit), "--format", "json"])
    assert "\u202e" not in result.stdout
    data = json.loads(result.stdout)
    assert data["systems"][2]["system"] == "Gam\u202ema"  # the same value, escaped
    assert "\\u202e" in result.stdout


def test_repo_and_rev_do_not_go_with_an_audit(audit: Path) -> None:
    result = CliRunner().invoke(cli, ["check", "--audit", str(audit), "--rev", "HEAD"])
    assert result.exit_code == 2
    assert "drop --repo/--rev" in result.stderr


def test_against_follows_each_system(audit: Path) -> None:
    result = CliRunner().invoke(
        cli, ["check", "--audit", str(audit), "--against", "main", "--format", "json"]
    )
    data = json.loads(result.stdout)
    assert data["systems"][0]["against"] == data["systems"][0]["revision"]
    assert data["systems"][0]["summary"]["drift"]["unchanged"] == 2


def test_parse_reads_each_system(audit: Path) -> None:
    result = CliRunner().invoke(cli, ["parse", "--audit", str(audit), "--format", "json"])
    assert result.exit_code == 0, result.output
    systems = json.loads(result.stdout)["systems"]
    assert [s["system"] for s in systems] == ["Alpha", "Beta", "Gamma"]
    text = CliRunner().invoke(cli, ["parse", "--audit", str(audit)]).stdout
    assert text.index("== Alpha") < text.index("alpha-runtime-report.txt") < text.index("== Beta")


def test_systems_checked_in_two_processes_give_what_one_process_gives(
    audit: Path, tmp_path: Path
) -> None:
    # two cores: each system checked in a forked process, the next one taken when one is done
    loaded = load_audit(audit)
    assert processes_for(loaded.systems) == min(2, os.cpu_count() or 1)  # Gamma has no repository
    one = check_audit(loaded, cache=tmp_path / "r1", anchor_cache=tmp_path / "a1", processes=1)
    two = check_audit(loaded, cache=tmp_path / "r2", anchor_cache=tmp_path / "a2", processes=2)
    assert audit_json(two) == audit_json(one)
    assert [s.system.name for s in two.systems] == ["Alpha", "Beta", "Gamma"]
    assert sorted(p.name for p in (tmp_path / "a2").iterdir()) == sorted(
        p.name for p in (tmp_path / "a1").iterdir()
    )  # the anchors' cache written by the processes as by one
    assert multiprocessing.active_children() == []


def test_a_failure_in_a_checking_process_reaches_the_caller(
    audit: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = audit_check.check_system

    def check_system(system: AuditSystem, **options: Any) -> Any:
        if system.name == "Beta":
            raise RuntimeError("a bug while checking Beta")
        return real(system, **options)

    monkeypatch.setattr(audit_check, "check_system", check_system)  # inherited by the fork
    with pytest.raises(RuntimeError, match="a bug while checking Beta"):
        check_audit(load_audit(audit), processes=2)
    assert multiprocessing.active_children() == []


def test_systems_of_one_monorepo_each_read_from_their_directory(tmp_path: Path) -> None:
    from auditkit import FILES, make_repo, write_report

    # the same relative paths in each system's directory; what each holds tells them apart
    mono = tmp_path / "repos" / "mono"
    files = {f"services/alpha/{name}": text for name, text in FILES.items()}
    files |= {f"services/beta/{name}": text.replace("12", "10") for name, text in FILES.items()}
    commit = make_repo(mono, files | {"services/beta/src/gone.py": "x = 1\n"})
    write_report(tmp_path / "reports", "Alpha", "AL", commit)
    write_report(tmp_path / "reports", "Beta", "BE", commit)
    audit = tmp_path / "assay.toml"
    audit.write_text(
        '[[system]]\nname = "Alpha"\nrepository = "repos/mono/services/alpha"\n'
        'reports = ["reports/alpha-*.txt"]\n\n'
        '[[system]]\nname = "Beta"\nrepository = "repos/mono/services/beta"\n'
        'reports = ["reports/beta-*.txt"]\n',
        encoding="utf-8",
    )
    runs = [
        json.loads(
            CliRunner().invoke(cli, ["check", "--audit", str(audit), "--format", "json"]).stdout
        )
        for _ in range(2)  # the second from the anchors kept: each system's own
    ]
    for data in runs:
        summaries = {s["system"]: s["summary"] for s in data["systems"]}
        assert (summaries["Alpha"]["failing"], summaries["Alpha"]["citations_missing"]) == (1, 1)
        assert (summaries["Beta"]["failing"], summaries["Beta"]["citations_missing"]) == (0, 0)


def test_an_against_the_clone_lacks_leaves_the_check_and_says_no_drift(audit: Path) -> None:
    # the audit screen opens such a system's review without drift and warns; the check agrees:
    # the quotes at the cited revision are checked all the same, the missing drift is said
    found = load_audit(audit)
    plain = check_audit(found, processes=1)
    lacking = check_audit(found, against="no-such-ref", processes=1)
    alpha, beta = lacking.systems[0], plain.systems[0]
    assert alpha.state == "checked" and alpha.result is not None and beta.result is not None
    assert alpha.result.quotes == beta.result.quotes
    (said,) = [line for line in alpha.result.diagnostics if "no-such-ref" in line]
    assert "no drift" in said
    assert alpha.unfollowed == said and beta.unfollowed is None
    assert alpha.exit_code == 1  # drift was asked for: not a pass without it
    text = audit_text(lacking)
    assert "error:" not in text and "note: " in text
