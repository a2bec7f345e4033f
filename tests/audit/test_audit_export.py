"""Issue 25: one verdict database for the audit; `assay export --audit` writes one write-up (a
summary table of the systems, then each system's section as `export --format md` gives it), csv
and jsonl carry the system; `assay stats --audit` reports per system."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from auditkit import make_audit
from click.testing import CliRunner

from db import ItemRef, Verdict, VerdictStore
from db.writeup import markdown, md_text
from evidence.audit.check import check_system
from evidence.audit.file import load_audit
from tui.cli import cli


@pytest.fixture
def audit(tmp_path: Path) -> Path:
    """The audit, its database (`database` in the file) holding Alpha's and Beta's items, two
    verdicts on Alpha and one on Beta."""
    path = make_audit(tmp_path / "audit")
    path.write_text('database = "verdicts.db"\n' + path.read_text(), encoding="utf-8")
    loaded = load_audit(path)
    with VerdictStore.open(loaded.database) as store:
        for system in loaded.systems[:2]:
            checked = check_system(system)
            assert checked.result is not None and checked.reportset is not None
            anchors = {each.quote: each.anchor for each in checked.result.quotes}
            store.register(
                checked.reportset,
                anchors,
                revision=checked.result.revision,
                repository=str(system.repository),
                citations=checked.result.citations,
            )
            report = checked.reportset.reports[0]
            record = next(each for each in report.records if each.quotes)
            store.give(
                ItemRef.for_record(report, record),
                Verdict.CONFIRMED,
                reviewer="ada",
                revision=checked.result.revision,
            )
            if system.name == "Alpha":
                store.give(
                    ItemRef.for_quote(report, record, record.quotes[0]),
                    Verdict.REFUTED,
                    note="not what it says",
                    reviewer="ben",
                    revision=checked.result.revision,
                )
    return path


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_one_write_up_a_table_then_each_system(audit: Path) -> None:
    text = run("export", "--audit", str(audit), "--format", "md")
    assert text.startswith("# assay audit write-up\n")
    table = text[text.index("## Summary") : text.index("## System: Alpha")]
    assert "| Alpha | " in table and "| 1/3 (33%) | 1/2 (50%) | 1 | 1 | 0 | ada, ben |" in table
    # never registered (its repository is not here): its reports' records and quotes, failing
    # ones not known (it read "0/0 (-) | 0/0 (-) | 0 | 0")
    assert "| Gamma | not on this machine | 0/3 (0%) | 0/2 (0%) | – | – | 0 | - |" in table
    assert text.index("## System: Alpha") < text.index("## System: Beta")
    alpha = text[text.index("## System: Alpha") : text.index("## System: Beta")]
    assert "### Summary" in alpha and "BE-CLM" not in alpha
    assert "> not what it says" in alpha
    # the section is the system's write-up as `export --format md` would give it, a level down
    loaded = load_audit(audit)
    with VerdictStore.open(loaded.database, readonly=True) as store:
        own = markdown(store, reports={"Alpha/agentic-system-runtime-report"})
    body = [f"#{line}" if line.startswith("#") else line for line in own.splitlines()[1:]]
    assert "\n".join(body) in alpha


def test_csv_and_jsonl_carry_the_system(audit: Path) -> None:
    exported = run("export", "--audit", str(audit), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert {row["system"] for row in rows} == {"Alpha", "Beta"}
    assert all(row["report"].startswith(row["system"] + "/") for row in rows)
    lines = run("export", "--audit", str(audit)).splitlines()
    events = [json.loads(line) for line in lines]
    assert sorted(event["system"] for event in events) == ["Alpha", "Alpha", "Beta"]
    assert list(events[0])[-1] == "system"
    # assay import reads it (the system key is extra)
    other = audit.parent / "other.db"
    events_file = audit.parent / "events.jsonl"
    events_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "3 new" in run("import", str(events_file), "--db", str(other))


def test_stats_per_system(audit: Path) -> None:
    data = json.loads(run("stats", "--audit", str(audit), "--format", "json"))
    alpha, beta, gamma = data["systems"]
    assert (alpha["records_reviewed"], alpha["quotes_reviewed"]) == (1, 1)
    assert alpha["reviewers"] == ["ada", "ben"] and alpha["failing_quotes"] == 1
    assert beta["reviewers"] == ["ada"] and beta["citations_missing"] == 0
    # never registered: its reports' counts, how many fail not known
    assert (gamma["records"], gamma["quotes"], gamma["failing_quotes"]) == (3, 2, None)
    assert gamma["last_activity"] is None
    text = run("stats", "--audit", str(audit))
    assert "Gamma  (repository not on this machine)" in text
    assert "records 1/3 reviewed, quotes 1/2 reviewed; 1 failing quote(s)" in text
    assert (
        "records 0/3 reviewed, quotes 0/2 reviewed; not opened yet: failing quotes not known"
        in (text)
    )


def test_export_of_an_audit_refuses_other_formats(audit: Path) -> None:
    result = CliRunner().invoke(cli, ["export", "--audit", str(audit), "--format", "sarif"])
    assert result.exit_code == 2 and "md, csv or jsonl" in result.stderr


def test_sync_shares_the_whole_audit(audit: Path, tmp_path: Path) -> None:
    from auditkit import git

    remote = tmp_path / "verdicts.git"
    remote.mkdir()
    git(remote, "init", "-q", "--bare")
    result = CliRunner().invoke(
        cli, ["sync", "--audit", str(audit), "--remote", str(remote), "--reviewer", "ada"]
    )
    assert result.exit_code == 0, result.output
    branch = git(remote, "for-each-ref", "--format=%(refname)", "refs/heads").splitlines()[0]
    files = git(remote, "ls-tree", "-r", "--name-only", branch).splitlines()
    assert any(name.startswith("verdicts/Alpha/") for name in files)
    assert any(name.startswith("verdicts/Beta/") for name in files)


def test_each_systems_stale_verdicts_are_counted(audit: Path) -> None:
    """Alpha's report regenerated without the record ada confirmed and ben's quote of it: the
    audit's table, stats and JSON count them per system (the system's section lists them)."""
    loaded = load_audit(audit)
    alpha = loaded.systems[0]
    checked = check_system(alpha)
    assert checked.reportset is not None
    report = checked.reportset.reports[0]
    judged = next(each for each in report.records if each.quotes)
    trimmed = report._replace(records=tuple(r for r in report.records if r is not judged))
    with VerdictStore.open(loaded.database) as store:
        store.register(checked.reportset._replace(reports=(trimmed,)))
    table = run("export", "--audit", str(audit), "--format", "md")
    assert "| 0/2 (0%) | 0 | 1 | 2 | ada, ben |" in table  # the record and the quote judged
    stats = json.loads(run("stats", "--audit", str(audit), "--format", "json"))
    assert [system["stale"] for system in stats["systems"]] == [2, 0, 0]
    assert "2 stale verdict(s)" in run("stats", "--audit", str(audit))


def test_a_repository_gone_is_said_not_on_this_machine_in_the_summary(audit: Path) -> None:
    # the table gave Beta's path as if it were there; stats and check say it is not
    beta = audit.parent / "repos" / "beta"
    shutil.rmtree(beta)
    text = run("export", "--audit", str(audit), "--format", "md")
    table = text[text.index("## Summary") : text.index("## System: Alpha")]
    assert f"| Beta | not on this machine ({md_text(str(beta))}) | 1/3 (33%) |" in table
    assert f"| Alpha | {md_text(str(audit.parent / 'repos' / 'alpha'))} | " in table
    assert "Beta  (repository not on this machine)" in run("stats", "--audit", str(audit))


def test_system_exports_only_the_systems_named(audit: Path) -> None:
    # named in any case, as the audit tells systems apart
    text = run("export", "--audit", str(audit), "--format", "md", "--system", "beta")
    assert "- Systems: Beta (1 of the audit's 3)" in text
    table = text[text.index("## Summary") : text.index("## System: Beta")]
    assert "| Beta | " in table and "| Alpha | " not in table and "| Gamma | " not in table
    assert "## System: Alpha" not in text and "## System: Gamma" not in text
    beta = run("export", "--audit", str(audit), "--format", "csv", "--system", "Beta")
    rows = list(csv.DictReader(io.StringIO(beta)))
    both = run(
        "export",
        "--audit",
        str(audit),
        "--format",
        "jsonl",
        "--system",
        "Alpha",
        "--system",
        "Beta",
    )
    assert {json.loads(line)["system"] for line in both.splitlines()} == {"Alpha", "Beta"}
    assert rows and {row["system"] for row in rows} == {"Beta"}
    # every system named: the write-up as without --system
    every = ("--system", "Alpha", "--system", "Beta", "--system", "Gamma")
    full = run("export", "--audit", str(audit), "--format", "md", *every)
    assert "- Systems:" not in full and full.count("## System: ") == 3


def test_system_counts_only_the_systems_named(audit: Path) -> None:
    data = json.loads(run("stats", "--audit", str(audit), "--format", "json", "--system", "Alpha"))
    assert [system["system"] for system in data["systems"]] == ["Alpha"]
    assert data["systems"][0]["reviewers"] == ["ada", "ben"]
    text = run("stats", "--audit", str(audit), "--system", "Gamma")
    assert ": 1 of 3 systems" in text and "Gamma  (repository not on this machine)" in text
    assert "Alpha" not in text


def test_system_unknown_or_without_an_audit_is_refused(audit: Path) -> None:
    for command in ("export", "stats"):
        result = CliRunner().invoke(cli, [command, "--audit", str(audit), "--system", "Delta"])
        assert result.exit_code == 2, result.output
        assert "has no system Delta; its systems: Alpha, Beta, Gamma" in result.stderr
        result = CliRunner().invoke(cli, [command, "--system", "Alpha"])
        assert result.exit_code == 2 and "--system goes with --audit FILE" in result.stderr
