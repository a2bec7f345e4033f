"""Every command reports bad input the same way: exit 2, lines starting `assay <command>:`,
untrusted text escaped, no traceback; click's own usage errors too."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tui.cli import COMMANDS, cli

GONE = "gone\x1b[31m"  # a path with a terminal escape in it


def bad_input(command: str, tmp_path: Path) -> list[str]:
    """Arguments that make ``command`` fail on its input (a missing file, a non-repository)."""
    gone = str(tmp_path / GONE)
    return {
        "parse": [gone],
        "audit": ["init", gone],
        "check": [gone, "--repo", str(tmp_path)],
        "review": [gone, "--repo", str(tmp_path)],
        "demo": ["--against", "no-such-revision"],
        "export": ["--db", gone],
        "import": [gone],
        "stats": ["--db", gone],
        "sync": ["--db", gone],
        "browse": ["--repo", gone],
        "show": ["HEAD:a.py", "--repo", gone],
        "grep": ["x", "--repo", gone],
    }[command]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_input_errors_start_with_the_command(command: str, tmp_path: Path, sample: Path) -> None:
    argv = [command, *bad_input(command, tmp_path)]
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    # a group's subcommand is named whole: `assay audit init: ...`
    name = " ".join(["assay", *argv[: 2 if command == "audit" else 1]])
    assert lines and all(line.startswith(f"{name}: ") for line in lines), lines
    assert "\x1b" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_usage_errors_name_the_command_too(command: str) -> None:
    result = CliRunner().invoke(cli, [command, "--no-such-option"])
    assert result.exit_code == 2
    assert f"assay {command}: No such option '--no-such-option'" in result.stderr
    assert "Error:" not in result.stderr


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["export", "--format"], "assay export"),
        (["check", "a.txt", "--against"], "assay check"),
        (["audit", "init", "--out"], "assay audit init"),
    ],
)
def test_an_option_missing_its_value_names_the_command(argv: list[str], name: str) -> None:
    result = CliRunner().invoke(cli, argv, prog_name="assay")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Usage: {name} [OPTIONS]")
    assert result.stderr.endswith(f"\n{name}: Option '{argv[-1]}' requires an argument.\n")


def test_a_group_without_its_subcommand_shows_its_help() -> None:
    result = CliRunner().invoke(cli, ["audit"], prog_name="assay")
    assert result.exit_code in (0, 2)  # 0 on click 8.1, which exits before any error
    assert result.output.startswith("Usage: assay audit [OPTIONS] COMMAND [ARGS]...\n\n")
    assert "assay audit:" not in result.output and "  init  " in result.output


@pytest.mark.parametrize("command", ["check", "review", "parse"])
def test_a_directory_without_reports_names_its_folders_that_hold_some(
    command: str, tmp_path: Path, sample: Path
) -> None:
    # `assay check .` at an audit's or a repository's top, its reports a folder or two down
    from evidence.sample import SAMPLE_REPORTS

    top = tmp_path / "audit\x1b[31m"
    for folder in ("reports", "kestrel/reports"):
        (top / folder).mkdir(parents=True)
        for report in Path(SAMPLE_REPORTS).glob("*.txt"):
            (top / folder / report.name).write_bytes(report.read_bytes())
    (top / "notes.txt").write_text("milk, eggs\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    extra = [] if command == "parse" else ["--repo", str(sample)]
    result = CliRunner().invoke(cli, [command, str(top), str(empty), *extra])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines[0].endswith("31m: no reports in this directory")
    assert lines[1] == f"assay {command}: {empty}: no reports in this directory"
    assert lines[2].endswith(
        "31m: its folders hold reports: reports, kestrel/reports (name one, or take them all "
        f"as an audit: assay audit init {tmp_path}/audit\\u001b[31m)"
    )
    assert "\x1b" not in result.stderr and len(lines) == 3
