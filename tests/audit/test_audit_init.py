"""Issue 25: `assay audit init [DIR] --search DIR...` groups the reports by system and finds each
system's repository (a stated revision it holds, its remote, its name); a commented line where
none was found. What it writes loads as an audit."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from auditkit import git, make_repo, write_report, write_scan
from click.testing import CliRunner

from evidence.audit.file import load_audit
from tui.cli import cli

ROOT = Path(__file__).resolve().parent.parent.parent


def test_init_finds_by_revision_remote_and_name(tmp_path: Path) -> None:
    repos = tmp_path / "src"
    # found by the revision its report states, though its directory has another name
    alpha = make_repo(repos / "project-one", {"a.py": "x = 1\n"})
    # found by its remote
    make_repo(repos / "clone", {"b.py": "y = 2\n"})
    git(repos / "clone", "remote", "add", "origin", "git@forge.example:team/Beta.git")
    # found by its name, one level further down
    make_repo(repos / "more" / "delta", {"d.py": "z = 3\n"})
    reports = tmp_path / "reports"
    write_report(reports, "Alpha", "AL", alpha)
    write_report(reports, "Beta", "BE", "(not stated)")
    write_report(reports, "Gamma", "GA", "(not stated)")
    write_report(reports, "Delta", "DE", "(not stated)")
    result = CliRunner().invoke(cli, ["audit", "init", str(reports), "--search", str(repos)])
    assert result.exit_code == 0, result.output
    text = (reports / "assay.toml").read_text()
    assert 'repository = "../src/project-one"  # holds the stated revision' in text
    assert 'repository = "../src/clone"  # its remote is Beta' in text
    assert 'repository = "../src/more/delta"  # named after the system' in text
    assert '# repository = ""  # not found in' in text
    audit = load_audit(reports / "assay.toml")
    names = {system.name: system for system in audit.systems}
    assert set(names) == {"Alpha", "Beta", "Gamma", "Delta"}
    assert names["Alpha"].rev is None  # stated in the report
    assert names["Beta"].rev == "HEAD"
    assert not names["Gamma"].available and names["Gamma"].repository is None
    assert [p.name for p in names["Delta"].reports] == ["delta-runtime-report.txt"]
    assert "Gamma: 1 report(s); repository not found" in result.stdout


def test_init_keeps_an_existing_file_unless_forced(tmp_path: Path) -> None:
    write_report(tmp_path, "Alpha", "AL", "(not stated)")
    (tmp_path / "assay.toml").write_text("# mine\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(cli, ["audit", "init", str(tmp_path)])
    assert result.exit_code == 2 and "exists (--force replaces it)" in result.stderr
    assert (tmp_path / "assay.toml").read_text() == "# mine\n"
    assert runner.invoke(cli, ["audit", "init", str(tmp_path), "--force"]).exit_code == 0
    assert load_audit(tmp_path / "assay.toml").systems[0].name == "Alpha"


def test_init_forced_onto_a_fifo_refuses_it_instead_of_waiting(tmp_path: Path) -> None:
    write_report(tmp_path, "Alpha", "AL", "(not stated)")
    fifo = tmp_path / "out.toml"
    os.mkfifo(fifo)
    # writing a FIFO waits for a reader that never comes: the command hung
    argv = ["audit", "init", str(tmp_path), "--out", str(fifo), "--force"]
    command = [sys.executable, "-m", "tui.cli", *argv]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "not a regular file" in result.stderr, result.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_init_refuses_a_report_name_that_is_not_utf8_and_keeps_the_file(tmp_path: Path) -> None:
    # TOML is UTF-8: writing the name crashed (exit 3) after emptying the file --force replaces
    path = write_report(tmp_path, "Alpha", "AL", "(not stated)")
    path.rename(os.fsdecode(bytes(tmp_path) + b"/alpha-\xff-runtime-report.txt"))
    (tmp_path / "assay.toml").write_text("# mine\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["audit", "init", str(tmp_path), "--force"])
    assert result.exit_code == 2, result.output
    assert "a name in it is not UTF-8" in result.stderr and "rename it" in result.stderr
    assert (tmp_path / "assay.toml").read_text() == "# mine\n"


def test_init_on_the_reference_reports(shared_reports: Path, tmp_path: Path) -> None:
    # the reports stay where they are (read-only): the audit file is written elsewhere
    make_repo(tmp_path / "repos" / "echel", {"src/echel/cli.py": "x = 1\n"})
    out = tmp_path / "audit" / "assay.toml"
    out.parent.mkdir()
    result = CliRunner().invoke(
        cli,
        ["audit", "init", str(shared_reports), "--out", str(out), "--search", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    audit = load_audit(out)
    assert [s.name for s in audit.systems] == ["ATLAS", "Echel", "Talorys", "Arsumbris"]
    assert len(audit.system("ATLAS").reports) == 2  # type: ignore[union-attr]
    assert [s.available for s in audit.systems] == [False, True, False, False]
    assert audit.system("Echel").rev == "HEAD"  # type: ignore[union-attr]


def test_init_finds_each_scans_repository_by_the_files_it_names(tmp_path: Path) -> None:
    repos = tmp_path / "src"
    alpha = make_repo(repos / "alpha", {"src/app.py": "LIMIT = 12\n", "src/db.py": "x = 1\n"})
    make_repo(repos / "beta-service", {"api/main.py": "run()\n", "api/auth.py": "y = 2\n"})
    make_repo(repos / "gamma", {"__init__.py": "", "lib/gamma.py": "z = 3\n"})
    reports = tmp_path / "reports"
    write_report(reports, "Alpha", "AL", alpha)
    # one scanner over three checkouts in CI: Alpha's (its reports' system), Beta's (no
    # reports), and one no repository here holds (a root __init__.py alone is no evidence)
    write_scan(reports / "a.sarif", "/ci/alpha", [("src/app.py", 1, "LIMIT = 12")])
    write_scan(reports / "b.sarif", "/ci/beta", [("api/main.py", 1, "run()")])
    write_scan(reports / "c.sarif", "/ci/other", [("__init__.py", 1, ""), ("x/y.py", 1, "q")])
    result = CliRunner().invoke(cli, ["audit", "init", str(reports), "--search", str(repos)])
    assert result.exit_code == 0, result.output
    audit = load_audit(reports / "assay.toml")
    found = {
        system.name: (
            system.repository.name if system.repository else None,
            sorted(path.name for path in system.reports),
        )
        for system in audit.systems
    }
    assert found == {
        "Alpha": ("alpha", ["a.sarif", "alpha-runtime-report.txt"]),
        "beta-service": ("beta-service", ["b.sarif"]),
        "scanner": (None, ["c.sarif"]),
    }
    assert 'repository = "../src/beta-service"  # holds the files its scan names' in (
        (reports / "assay.toml").read_text()
    )


def test_init_names_what_is_given_for_a_folder(tmp_path: Path) -> None:
    import os

    report = write_report(tmp_path, "Alpha", "AL", "(not stated)")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # exists, neither a file nor a folder
    runner = CliRunner()
    for args, said in (
        ([str(report)], "is a file"),
        ([str(pipe)], f"assay audit init: {pipe}: not a directory"),
        ([str(tmp_path / "gone")], "gone: no such directory"),
        ([str(tmp_path), "--search", str(pipe)], f"--search {pipe}: not a directory"),
    ):
        result = runner.invoke(cli, ["audit", "init", *args])
        assert result.exit_code == 2 and said in result.stderr, result.stderr
        assert "Traceback" not in result.output
        assert not (tmp_path / "assay.toml").exists()


def test_init_gives_a_system_of_a_monorepo_its_directory(tmp_path: Path) -> None:
    from auditkit import FILES

    mono = tmp_path / "src" / "mono"
    files = {
        f"services/{name}/{path}": text
        for name in ("alpha", "beta")
        for path, text in FILES.items()
    }
    commit = make_repo(mono, files | {"README.md": "# all of them\n"})
    reports = tmp_path / "reports"
    write_report(reports, "Alpha", "AL", commit)
    write_report(reports, "Beta", "BE", commit)
    result = CliRunner().invoke(
        cli, ["audit", "init", str(reports), "--search", str(tmp_path / "src")]
    )
    assert result.exit_code == 0, result.output
    text = (reports / "assay.toml").read_text()
    assert (
        'repository = "../src/mono/services/alpha"  # holds the stated revision '
        f"{commit[:12]}; its reports' paths are under services/alpha"
    ) in text
    assert 'repository = "../src/mono/services/beta"' in text
    checked = CliRunner().invoke(
        cli, ["check", "--audit", str(reports / "assay.toml"), "--format", "json"]
    )
    import json

    summaries = [s["summary"] for s in json.loads(checked.stdout)["systems"]]
    assert [s["quotes"] - s["failing"] for s in summaries] == [1, 1]  # read from each directory


def test_init_keeps_apart_systems_named_alike_but_for_case(tmp_path: Path) -> None:
    # reports titled "Kestrel ..." and "kestrel ...": two systems, which an audit file refuses
    # to name apart only in case; init names the later one so that the file loads
    from auditkit import REPORT

    reports = tmp_path / "reports"
    reports.mkdir()
    for name, file in (("Kestrel", "one.txt"), ("kestrel", "two.txt")):
        text = REPORT.format(system=name, prefix="KS", rev="(not stated)")
        (reports / file).write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["audit", "init", str(reports)])
    assert result.exit_code == 0, result.output
    audit = load_audit(reports / "assay.toml")
    assert [s.name for s in audit.systems] == ["Kestrel", "kestrel (2)"]
    assert [[p.name for p in s.reports] for s in audit.systems] == [["one.txt"], ["two.txt"]]
    text = (reports / "assay.toml").read_text()
    assert "its reports name 'kestrel'" in text


def test_init_reads_the_reports_in_the_folders_below_not_in_a_systems_clone(
    tmp_path: Path,
) -> None:
    # the README's layout, reports/ and scans/ in the audit's folder: `audit init` read the
    # folder's own files only and said "no reports in this directory"
    audit = tmp_path / "audit"
    alpha = make_repo(audit / "src" / "alpha", {"a.py": "x = 1\n"})
    write_report(audit / "reports", "Alpha", "AL", alpha)
    write_report(audit / "reports" / "2026" / "q4", "Beta", "BE", "(not stated)")
    write_scan(audit / "scans" / "alpha.sarif", "/builds/ci/alpha", [("a.py", 1, "x = 1")])
    # not read: a report in a clone's tree (its own test data), a hidden folder, too far down
    write_report(audit / "src" / "alpha" / "docs", "Gamma", "GA", "(not stated)")
    write_report(audit / ".trash", "Delta", "DE", "(not stated)")
    write_report(audit / "a" / "b" / "c" / "d", "Epsilon", "EP", "(not stated)")
    result = CliRunner().invoke(cli, ["audit", "init", str(audit), "--search", str(audit / "src")])
    assert result.exit_code == 0, result.output
    systems = {system.name: system for system in load_audit(audit / "assay.toml").systems}
    assert set(systems) == {"Alpha", "Beta"}
    assert sorted(p.name for p in systems["Alpha"].reports) == [
        "alpha-runtime-report.txt",
        "alpha.sarif",  # the scan joins the system whose repository holds its files
    ]
    assert [p.parent.name for p in systems["Beta"].reports] == ["q4"]
    empty = tmp_path / "empty"
    (empty / "notes").mkdir(parents=True)
    (empty / "notes" / "todo.txt").write_text("call Ada\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["audit", "init", str(empty)])
    assert result.exit_code == 2 and "no reports found in" in result.stderr
    assert "or its folders" in result.stderr


def test_init_finds_the_repository_holding_a_tag_a_report_names(tmp_path: Path) -> None:
    from screens.widgets.review_header import revision_label

    repos = tmp_path / "src"
    make_repo(repos / "project-one", {"a.py": "x = 1\n"})
    git(repos / "project-one", "tag", "v0.3.0")
    reports = tmp_path / "reports"
    write_report(reports, "Alpha", "AL", "the commit the repository tags v0.3.0")
    result = CliRunner().invoke(cli, ["audit", "init", str(reports), "--search", str(repos)])
    assert result.exit_code == 0, result.output
    text = (reports / "assay.toml").read_text()
    # it read "refs/tags/v" (the first 12 characters of the revision stated)
    assert 'repository = "../src/project-one"  # holds the stated revision tag v0.3.0' in text
    assert revision_label(None, None, "refs/tags/v0.3.0") == "@tag v0.3.0…"


def test_the_folders_looked_into_can_be_bounded(tmp_path: Path) -> None:
    # a hint's search (a directory without reports given) stops after `most` folders
    from evidence.audit.init import report_folders

    write_report(tmp_path / "a" / "reports", "Alpha", "AL", "0" * 40)
    write_report(tmp_path / "b", "Beta", "BE", "0" * 40)
    assert report_folders(tmp_path) == [tmp_path / "b", tmp_path / "a" / "reports"]
    assert report_folders(tmp_path, most=3) == [tmp_path / "b"]  # tmp_path, a, b looked into
    assert report_folders(tmp_path, most=1) == []
