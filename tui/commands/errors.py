"""The one way a command reports bad input: `InputError`, printed as ``assay <command>: ...``.

Every line of the message is escaped (evidence/text.py's rule: paths, git errors and report
names are untrusted) and the command exits 2. Click's own usage errors get the same prefix
(tui/cli.py).
"""

from __future__ import annotations

import os
from typing import IO, Any

import click

from evidence.reports.files import ReportError
from evidence.text import escaped, shown_path
from tui.interrupt import INTERRUPTED

__all__ = [
    "INPUT_ERROR",
    "INTERRUPTED",
    "CommandUsageError",
    "InputError",
    "need_directory",
    "prefixed",
    "reports_input_error",
]

#: exit status of a usage or input error
INPUT_ERROR = 2


def command_name(ctx: click.Context | None) -> str:
    """``assay <command>`` for a command's context, ``assay`` outside one."""
    names: list[str] = []
    while ctx is not None and ctx.parent is not None:  # a group's subcommand: assay audit init
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(["assay", *reversed(names)])


def need_directory(path: str, label: str = "") -> None:
    """InputError unless ``path`` is a directory: "no such directory", or what it is instead
    (a file, a FIFO given where a folder was meant)."""
    # os.path, not Path.is_dir or exists: they raise on a name too long for the system
    if os.path.isdir(path):
        return
    what = "no such directory" if not os.path.exists(path) else "not a directory"
    raise InputError(f"{label}{shown_path(path)}: {what}")


def prefixed(name: str, message: str) -> str:
    """``message`` with every line escaped and starting ``<name>: ``."""
    return "\n".join(f"{name}: {escaped(line)}" for line in message.split("\n"))


class InputError(click.ClickException):
    """Bad input (a path, a revision, a database, an option): one message, exit status 2."""

    exit_code = INPUT_ERROR

    def __init__(self, message: str) -> None:
        super().__init__(message)
        # the context is gone when click shows the error: remember whose error it is now
        self.command = command_name(click.get_current_context(silent=True))

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(prefixed(self.command, self.message), err=True)


#: folders a hint's search looks into at the most (a home directory given by mistake)
HINT_FOLDERS = 400


def reports_input_error(error: ReportError) -> InputError:
    """The InputError of reports that cannot be read; a directory without reports names the
    folders below it that hold some (an audit's reports/ and scans/), as `audit init` finds them."""
    from pathlib import Path

    from evidence.audit.init import report_folders

    lines = str(error).split("\n")
    for directory in error.empty:
        base = Path(directory)
        below = [p for p in report_folders(base, most=HINT_FOLDERS) if p != base]
        if not below:
            continue
        names = [shown_path(p.relative_to(base)) for p in below[:3]]
        more = f" and {len(below) - 3} more" if len(below) > 3 else ""
        lines.append(
            f"{shown_path(directory)}: its folders hold reports: {', '.join(names)}{more} (name"
            f" one, or take them all as an audit: assay audit init {shown_path(directory)})"
        )
    return InputError("\n".join(lines))


class CommandUsageError(click.UsageError):
    """Click's usage error of a command, its message prefixed ``assay <command>:``."""

    def show(self, file: IO[Any] | None = None) -> None:
        ctx = self.ctx
        if ctx is not None:
            hint = ""
            if ctx.command.get_help_option(ctx) is not None:
                hint = f"Try '{ctx.command_path} {ctx.help_option_names[0]}' for help.\n"
            click.echo(f"{ctx.get_usage()}\n{hint}", err=True)
        click.echo(prefixed(command_name(ctx), self.format_message()), err=True)
