"""The `assay` command line.

Sub-commands live one per module in tui/commands/ and are imported only when invoked, so that
`assay check` never pays for importing textual.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from typing import Any

import click

#: command name -> "module:attribute" of its click command (relative to this package: installed,
#: it is assay.tui)
COMMANDS: dict[str, str] = {
    "parse": ".commands.parse:parse",
    "check": ".commands.check:check",
    "audit": ".commands.audit:audit",
    "export": ".commands.verdicts:export",
    "import": ".commands.verdicts:import_",
    "stats": ".commands.verdicts:stats",
    "sync": ".commands.sync:sync_command",
    "review": ".commands.review:review",
    "demo": ".commands.review:demo",
    "browse": ".commands.lookup:browse",
    "show": ".commands.lookup:show",
    "grep": ".commands.lookup:grep",
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self._load(cmd_name)

    @staticmethod
    def _load(name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        # a module or command missing from an installation is an error, never a silent gap
        command = getattr(importlib.import_module(module_name, __package__), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target} is not a click command")
        return command

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; its usage errors and an interrupt are reported as its own errors."""
        from tui.commands.errors import INPUT_ERROR, INTERRUPTED, CommandUsageError

        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            if isinstance(error, (CommandUsageError, *_HELP_SHOWN)):
                raise
            # click gives no context to an option's missing value (`--format` last): the
            # subcommand's is made again, so that the message names it and shows its usage
            where = error.ctx or self._subcommand_context(ctx)
            raise CommandUsageError(error.format_message(), where) from None
        except KeyboardInterrupt:
            # click would print "Aborted!" and exit 1
            name = f"assay {ctx.invoked_subcommand}" if ctx.invoked_subcommand else "assay"
            click.echo(f"\n{name}: interrupted", err=True)
            sys.exit(INTERRUPTED)
        except OSError as error:
            if error.errno == errno.EPIPE and _reader_gone():
                # `assay grep ... | head`: the reader has all it wanted. click exits 1, which is
                # grep's "nothing matched"; a program killed by SIGPIPE shows as 141
                _silence_stdout()
                sys.exit(BROKEN_PIPE)
            if error.errno not in _NO_ROOM:
                raise
            # standard output on /dev/full or a full disk: the machine's state, not a bug
            name = f"assay {ctx.invoked_subcommand}" if ctx.invoked_subcommand else "assay"
            click.echo(f"{name}: cannot write: {error.strerror or error}", err=True)
            _silence_stdout()
            sys.exit(INPUT_ERROR)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        ctx.meta[_SUBCOMMAND_ARGS] = list(rest)  # for `_subcommand_context`: click clears them
        return name, command, rest

    def _subcommand_context(self, ctx: click.Context) -> click.Context | None:
        """A context (not parsed) of the subcommand ``ctx`` was invoking, down to the innermost
        of a group's (``assay audit init``), for its name and usage; None before one."""
        name = ctx.invoked_subcommand
        command = self.get_command(ctx, name) if name else None
        if command is None:
            return None
        args = list(ctx.meta.get(_SUBCOMMAND_ARGS, ()))
        where = click.Context(command, info_name=name, parent=ctx)
        while isinstance(command, click.Group) and args:
            try:
                name, found, args = command.resolve_command(where, args)
            except click.UsageError:
                break
            if name is None or found is None:
                break
            command = found
            where = click.Context(command, info_name=name, parent=where)
        return where


#: the usage "error" of a group run without a subcommand (click 8.2+): its help, shown as it is
_HELP_SHOWN: tuple[type[click.UsageError], ...] = tuple(
    getattr(click.exceptions, name)
    for name in ("NoArgsIsHelpError",)
    if hasattr(click.exceptions, name)
)
#: where `LazyGroup.resolve_command` keeps the arguments it gave a subcommand (Context.meta)
_SUBCOMMAND_ARGS = "assay.subcommand_args"


#: the errors of a write that found no room (a full disk, a quota, a file size limit)
_NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


#: the shell's status of a program that SIGPIPE ended (128 + 13), as grep's or cat's would be
BROKEN_PIPE = 141


def _reader_gone() -> bool:
    """Whether standard output is a pipe whose reader has gone (and not a pipe to git)."""
    import select
    import stat

    try:
        descriptor = sys.stdout.fileno()
        if not hasattr(select, "poll"):  # no way to ask: a pipe it is, then
            return stat.S_ISFIFO(os.fstat(descriptor).st_mode)
        poller = select.poll()
        poller.register(descriptor, 0)
        # Linux says POLLERR of a pipe whose reader has gone, BSDs and macOS POLLHUP
        gone = select.POLLERR | select.POLLHUP
        return any(events & gone for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def _silence_stdout() -> None:
    """Point standard output at /dev/null: the interpreter's last flush would fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="assay")
def cli() -> None:
    """Review evidence reports against the exact git revision they cite."""


def main(argv: list[str] | None = None) -> Any:
    """Entry point: run the CLI; no traceback ever reaches the user."""
    if sys.stdout is None:  # started with its standard output closed (`>&-`)
        click.echo("assay: standard output is closed", err=True)
        sys.exit(2)
    try:
        return cli.main(args=argv, prog_name="assay", standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("assay: interrupted", err=True)
        sys.exit(130)
    except Exception as error:  # last line of defence: a crash file, one line
        if isinstance(error, OSError) and error.errno in _NO_ROOM:  # `assay --help >/dev/full`
            click.echo(f"assay: cannot write: {error.strerror}", err=True)
            _silence_stdout()
            sys.exit(2)
        from tui.crash import report

        click.echo(report(error), err=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
