"""Issue 25, the audit file: assay.toml names the systems; a bad file is one line naming the key
and the line, exit 2, and nothing is opened."""

from __future__ import annotations

from pathlib import Path

import pytest
from auditkit import make_audit
from click.testing import CliRunner

from evidence.audit.file import AuditError, load_audit
from tui.cli import cli


def test_the_systems_in_file_order(tmp_path: Path) -> None:
    audit = load_audit(make_audit(tmp_path))
    assert [system.name for system in audit.systems] == ["Alpha", "Beta", "Gamma"]
    alpha, beta, gamma = audit.systems
    assert alpha.repository == (tmp_path / "repos" / "alpha").resolve()
    assert alpha.available and beta.available and not gamma.available
    assert gamma.repository is None
    assert [path.name for path in alpha.reports] == ["alpha-runtime-report.txt"]
    assert (alpha.line, beta.line, gamma.line) == (1, 6, 11)


BAD = [
    ('[[system]]\nname = "A"\nreports = ["r.txt"]\nrepo = "x"\n', ":4: unknown key 'repo'"),
    ('title = "x"\n[[system]]\nname = "A"\nreports = ["r.txt"]\n', ":1: unknown key 'title'"),
    ('[[system]]\nname = "A"\nreports = ["no-*.txt"]\n', ":3: reports: 'no-*.txt' matches"),
    ('[[system]]\nname = "A"\nreports = ["absent.txt"]\n', ":3: reports: 'absent.txt' no such"),
    ('[[system]]\nname = "A"\nreports = []\n', ":3: reports: system 'A' needs"),
    ('[[system]]\nreports = ["r.txt"]\n', ":1: name: a system needs a name"),
    ('[[system]]\nname = "A"\nreports = "r.txt"\nrev = 7\n', ":4: rev: a non-empty string"),
    (
        '[[system]]\nname = "A"\nreports = "r.txt"\n\n[[system]]\nname = "A"\nreports = "r.txt"\n',
        ":6: name: system 'A' is named twice",
    ),
    ('database = "x.db"\n', ":1: no [[system]] table"),
    # a dotted key: its own line, not its table's
    ('[[system]]\nname = "A"\nreports = "r.txt"\nrepository.x = "y"\n', ":4: repository: a non"),
    ('[[system]]\nname = "A"\n\nreports = "r.txt"\nrepo.x = "y"\n', ":5: unknown key 'repo'"),
    # a file read as a repository "not on this machine"
    (
        '[[system]]\nname = "A"\nreports = "r.txt"\nrepository = "r.txt"\n',
        ":4: repository: 'r.txt' is a file",
    ),
    # two names that read alike, one in each Unicode form: two systems shown as one name
    (
        '[[system]]\nname = "Caf\u00e9"\nreports = "r.txt"\n\n'
        '[[system]]\nname = "Cafe\u0301"\nreports = "r.txt"\n',
        ":6: name: system 'Cafe\u0301' is named twice",
    ),
    # names apart only in case: a scan's results under each (`ruff@kestrel`) were one report,
    # the later system refused as holding the other's; write-up files one on most Macs
    (
        '[[system]]\nname = "Kestrel"\nreports = "r.txt"\n\n'
        '[[system]]\nname = "kestrel"\nreports = "r.txt"\n',
        ":6: name: system 'kestrel' and system 'Kestrel' (line 1) differ only in case",
    ),
    (
        '[[system]]\nname = "\u00c9clair"\nreports = "r.txt"\n\n'
        '[[system]]\nname = "e\u0301clair"\nreports = "r.txt"\n',
        ":6: name: system 'e\u0301clair' and system '\u00c9clair' (line 1) differ only in case",
    ),
    # a NUL in a path was an internal error (ValueError from the file system calls)
    ('[[system]]\nname = "A"\nreports = "r.txt"\nrepository = "a\\u0000b"\n', ":4: repository:"),
    ('database = "x\\u0000.db"\n[[system]]\nname = "A"\nreports = "r.txt"\n', ":1: database:"),
    ('[[system]\nname = "A"\n', "not valid TOML"),
    # tomllib's RecursionError was an internal error
    ("database = " + "[" * 100_000 + "]" * 100_000 + "\n", "not valid TOML: nested too deeply"),
]


@pytest.mark.parametrize(("text", "fragment"), BAD)
def test_a_bad_file_is_one_line_with_its_line(tmp_path: Path, text: str, fragment: str) -> None:
    (tmp_path / "r.txt").write_text("x", encoding="utf-8")
    path = tmp_path / "assay.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AuditError) as raised:
        load_audit(path)
    message = str(raised.value)
    assert fragment in message and "\n" not in message
    assert message.startswith(str(path))


def test_paths_from_the_home_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "~/src/alpha" was read as a directory named "~" beside the file: the repository "not
    # on this machine", the reports "no such file"
    root = tmp_path / "home"
    make_audit(root)
    monkeypatch.setenv("HOME", str(root))
    path = tmp_path / "elsewhere" / "assay.toml"
    path.parent.mkdir()
    path.write_text(
        'database = "~/v.db"\n[[system]]\nname = "Alpha"\nrepository = "~/repos/alpha"\n'
        'reports = ["~/reports/alpha-*.txt"]\n',
        encoding="utf-8",
    )
    audit = load_audit(path)
    assert audit.database == root / "v.db"
    (alpha,) = audit.systems
    assert alpha.available and alpha.repository == (root / "repos" / "alpha").resolve()
    assert alpha.reports == (root / "reports" / "alpha-runtime-report.txt",)


def test_a_file_beginning_with_a_bom_is_read(tmp_path: Path) -> None:
    path = make_audit(tmp_path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())  # "not valid TOML" at line 1
    assert [system.name for system in load_audit(path).systems] == ["Alpha", "Beta", "Gamma"]


def test_paths_longer_than_the_system_takes(tmp_path: Path) -> None:
    # Path.is_dir and Path.exists raise on ENAMETOOLONG: check, parse and stats exited 3
    path = make_audit(tmp_path)
    long = "r" * 300
    path.write_text(path.read_text().replace("repos/beta", long), encoding="utf-8")
    assert not load_audit(path).systems[1].available
    runner = CliRunner()
    assert runner.invoke(cli, ["check", "--audit", str(path)]).exit_code == 1
    path.write_text(path.read_text().replace("reports/beta-runtime-report.txt", long), "utf-8")
    with pytest.raises(AuditError, match=f"{path}:9: reports: '{long}' no such file"):
        load_audit(path)


def test_the_command_exits_2_with_that_line_and_opens_nothing(tmp_path: Path) -> None:
    root = tmp_path / "audit"
    path = make_audit(root)
    path.write_text(path.read_text() + 'colour = "red"\n', encoding="utf-8")
    database = tmp_path / "verdicts.db"
    runner = CliRunner()
    for args in (["check", "--audit", str(path)],):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, (args, result.output)
        if args[0] == "audit":
            assert "--search" in result.stderr and "no such directory" in result.stderr
        else:
            assert f"{path}:14: unknown key 'colour'" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.output
    assert not database.exists()


def test_no_report_and_no_audit_file_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check"])
    assert result.exit_code == 2
    assert "no REPORT given and no assay.toml" in result.stderr
