"""The `assay` command line.

Sub-commands live one per module in tui/commands/ and are imported only when invoked, so that
`assay check` never pays for importing textual.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

#: command name -> "module:attribute" of its click command
COMMANDS: dict[str, str] = {
    "parse": "tui.commands.parse:parse",
    "check": "tui.commands.check:check",
    "audit": "tui.commands.audit:audit",
    "export": "tui.commands.verdicts:export",
    "import": "tui.commands.verdicts:import_",
    "stats": "tui.commands.verdicts:stats",
    "sync": "tui.commands.sync:sync_command",
    "review": "tui.commands.review:review",
    "demo": "tui.commands.review:demo",
    "browse": "tui.commands.lookup:browse",
    "show": "tui.commands.lookup:show",
    "grep": "tui.commands.lookup:grep",
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in COMMANDS if self._load(name) is not None)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self._load(cmd_name)

    @staticmethod
    def _load(name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name == module_name:  # not written yet
                return None
            raise
        command = getattr(module, attribute, None)
        return command if isinstance(command, click.Command) else None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="assay")
def cli() -> None:
    """Review evidence reports against the exact git revision they cite."""


def main(argv: list[str] | None = None) -> Any:
    """Entry point: run the CLI; no traceback ever reaches the user."""
    try:
        return cli.main(args=argv, prog_name="assay", standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as error:  # noqa: BLE001 - last line of defence: a crash file, one line
        from tui.crash import report

        click.echo(report(error), err=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
