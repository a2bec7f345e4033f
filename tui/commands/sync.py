"""`assay sync`: share verdicts with the other reviewers through a git repository."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from db.export import visible
from db.store import StoreError, VerdictStore, default_path
from db.sync.engine import SyncError, SyncResult, sync
from tui.commands.audit import audit_option

#: exit statuses besides 0 (synced) and 2 (bad input or an unusable database or clone)
OFFLINE = 4  # the remote could not be reached: everything kept, sent by the next sync
REFUSED = 5  # the remote was reached but the push failed (refused, or it kept moving)
#: problems listed one per line before the rest are counted
SHOWN_PROBLEMS = 20


class SyncFailed(click.ClickException):
    """A sync that could not start, reported in one line with exit status 2."""

    exit_code = 2


@click.command("sync")
@click.option(
    "--remote",
    default=None,
    metavar="URL|PATH",
    help="the verdicts repository (https, ssh, user@host:path, file:// or a path); "
    "remembered for this database, so later syncs need no --remote",
)
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=f"verdict database file [default: {default_path()}]",
)
@click.option(
    "--reviewer",
    default=None,
    help="whose verdicts to send (remembered) [default: the remembered one, else git "
    "user.name, else the login name]",
)
@audit_option
def sync_command(
    remote: str | None, db_path: Path | None, reviewer: str | None, audit_file: str | None
) -> None:
    """Share verdicts with the other reviewers through a git repository.

    Fetches the verdicts repository, imports everyone else's verdicts and notes into the
    database, writes your own to verdicts/<report>/<reviewer>.jsonl (the format of
    `assay export --format jsonl`), commits them in your name and pushes. Running it twice
    changes nothing; offline, your verdicts stay in the database and the next sync sends them.
    The repository's own hooks and configured programs never run.

    Exit status: 0 synced, 2 bad input, 4 the remote could not be reached (nothing lost),
    5 the push failed (nothing lost).

    With --audit FILE: the audit's database (its `database`, unless --db), every system's
    verdicts at once.
    """
    if audit_file is not None:
        from tui.commands.audit import audit_database, resolve_audit

        found = resolve_audit("sync", audit_file, ())
        assert found is not None
        db_path = audit_database(found, db_path)
    try:
        store = VerdictStore.open(db_path or default_path())
    except StoreError as error:
        raise SyncFailed(str(error)) from None
    try:
        result = sync(store, remote=remote, reviewer=reviewer, interactive=sys.stdin.isatty())
    except (SyncError, StoreError) as error:
        raise SyncFailed(str(error)) from None
    finally:
        store.close()
    report(result, store.path)
    if result.offline is not None:
        sys.exit(OFFLINE)
    if result.error is not None:
        sys.exit(REFUSED)


def report(result: SyncResult, db_path: Path) -> None:
    """Tell what the sync did: one summary line, then what was skipped (on stderr)."""
    where = visible(result.remote)
    who = visible(result.reviewer)
    if result.repaired:
        click.echo(
            "note: the configuration of the verdicts clone had been changed; reset", err=True
        )
    for problem in result.problems[:SHOWN_PROBLEMS]:
        click.echo(f"skipped: {visible(problem)}", err=True)
    if len(result.problems) > SHOWN_PROBLEMS:
        click.echo(f"skipped: ... and {len(result.problems) - SHOWN_PROBLEMS} more", err=True)
    received = f"{result.received} event(s) received"
    if result.offline is not None:
        click.echo(
            f"offline: cannot reach {where} ({visible(result.offline)}). {received}; your "
            f"verdicts are kept in {visible(str(db_path))}"
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
            f"not sent: {visible(result.error)}. {received}; {result.pending} event(s) of "
            f"{who} are kept in {visible(str(db_path))} for the next sync.",
            err=True,
        )
    elif result.received or result.sent:
        click.echo(f"synced with {where} as {who}: {received}, {result.sent} sent.")
    else:
        click.echo(f"up to date with {where} as {who}: nothing to receive or send.")
