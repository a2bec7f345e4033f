"""`assay sync`: share verdicts with the other reviewers through a git repository."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from db.store import StoreError, VerdictStore, default_path
from db.sync.engine import SyncError, SyncResult, sync
from evidence.text import escaped
from tui.commands.errors import InputError
from tui.commands.options import db_option

#: exit statuses besides 0 (synced) and 2 (bad input or an unusable database or clone)
OFFLINE = 4  # the remote could not be reached: everything kept, sent by the next sync
REFUSED = 5  # the remote was reached but the push failed (refused, or it kept moving)
#: what every line on stderr starts with
NAME = "assay sync"
#: problems listed one per line before the rest are counted
SHOWN_PROBLEMS = 20


@click.command("sync")
@click.option(
    "--remote",
    default=None,
    metavar="URL|PATH",
    help="the verdicts repository (https, ssh, user@host:path, file:// or a path); "
    "remembered for this database, so later syncs need no --remote",
)
@db_option
@click.option(
    "--reviewer",
    default=None,
    help="whose verdicts to send (remembered) [default: the remembered one, else git "
    "user.name, else the login name]",
)
def sync_command(remote: str | None, db_path: Path | None, reviewer: str | None) -> None:
    """Share verdicts with the other reviewers through a git repository.

    Fetches the verdicts repository, imports everyone else's verdicts and notes into the
    database, writes your own to verdicts/<report>/<reviewer>.jsonl (the format of
    `assay export --format jsonl`), commits them in your name and pushes. Running it twice
    changes nothing; offline, your verdicts stay in the database and the next sync sends them.
    The repository's own hooks and configured programs never run.

    Exit status: 0 synced, 2 bad input, 4 the remote could not be reached (nothing lost),
    5 the push failed (nothing lost).
    """
    try:
        store = VerdictStore.open(db_path or default_path())
    except StoreError as error:
        raise InputError(str(error)) from None
    try:
        result = sync(store, remote=remote, reviewer=reviewer, interactive=sys.stdin.isatty())
    except (SyncError, StoreError) as error:
        raise InputError(str(error)) from None
    finally:
        store.close()
    report(result, store.path)
    if result.offline is not None:
        sys.exit(OFFLINE)
    if result.error is not None:
        sys.exit(REFUSED)


def report(result: SyncResult, db_path: Path) -> None:
    """Tell what the sync did: one summary line, then what was skipped (on stderr)."""
    where = escaped(result.remote)
    who = escaped(result.reviewer)
    if result.repaired:
        click.echo(
            f"{NAME}: note: the configuration of the verdicts clone had been changed; reset",
            err=True,
        )
    for problem in result.problems[:SHOWN_PROBLEMS]:
        click.echo(f"{NAME}: skipped: {escaped(problem)}", err=True)
    if len(result.problems) > SHOWN_PROBLEMS:
        more = len(result.problems) - SHOWN_PROBLEMS
        click.echo(f"{NAME}: skipped: ... and {more} more", err=True)
    received = f"{result.received} event(s) received"
    if result.offline is not None:
        click.echo(
            f"{NAME}: offline: cannot reach {where} ({escaped(result.offline)}). {received}; your "
            f"verdicts are kept in {escaped(str(db_path))}"
            + (
                f" and {result.pending} event(s) will be sent by the next sync"
                if result.pending
                else ""
            )
            + ".",
            err=True,
        )
    elif result.error is not None:
        click.echo(
            f"{NAME}: not sent: {escaped(result.error)}. {received}; {result.pending} event(s) of "
            f"{who} are kept in {escaped(str(db_path))} for the next sync.",
            err=True,
        )
    elif result.received or result.sent:
        click.echo(f"synced with {where} as {who}: {received}, {result.sent} sent.")
    else:
        click.echo(f"up to date with {where} as {who}: nothing to receive or send.")
