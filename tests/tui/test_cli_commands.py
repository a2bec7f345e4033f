"""Every command the CLI names is there: a module or command missing from an installation is an
error when it is asked for, never a command silently left out of `assay --help`."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from tui.cli import COMMANDS, cli


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_named_command_loads(name: str) -> None:
    command = cli.get_command(click.Context(cli), name)
    assert isinstance(command, click.Command)
    assert command.help  # `assay --help` lists it with its first line


def test_help_lists_every_command() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert f"  {name} " in result.output


@pytest.mark.parametrize("args", [["--help"], ["audit", "--help"]])
def test_help_says_what_each_command_does_uncut_in_80_columns(args: list[str]) -> None:
    # click cuts a description longer than the line leaves it with "..."
    result = CliRunner().invoke(cli, args, terminal_width=80)
    assert result.exit_code == 0
    listed = result.output.split("Commands:\n", 1)[1].splitlines()
    assert listed and not any(line.rstrip().endswith("...") for line in listed), listed


def test_a_missing_command_module_is_an_error_not_a_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(COMMANDS, "gone", ".commands.not_there:gone")
    with pytest.raises(ModuleNotFoundError):
        cli.get_command(click.Context(cli), "gone")
