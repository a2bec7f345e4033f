"""`assay sync`: share verdicts with the other reviewers through a git repository."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from db.store import StoreError, VerdictStore, default_path
from db.sync.engine import SyncError, SyncResult, sync
from evidence.text import escaped
from tui.commands.errors import InputError
from tui.commands.options import audit_option, db_option

#: exit statuses besides 0 (synced) and 2 (bad input or an unusable database or clone)
OFFLINE = 4  # the remote could not be reached: everything kept, sent by the next sync
REFUSED = 5  # the remote was reached but the push failed (refused, or it kept moving)
NO_REPOSITORY = 6  # no verdicts repository at the remote given (a mistyped path or URL)
BAD_OBJECT = 7  # the remote sent an object that fails git's checks: it needs repairing
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
@click.option(
    "--accept-foreign",
    is_flag=True,
    default=False,
    help="import the events kept aside: ones found in your own files that this database did "
    "not write (yours from another machine, or from before this database)",
)
@audit_option
def sync_command(
    remote: str | None,
    db_path: Path | None,
    reviewer: str | None,
    accept_foreign: bool,
    audit_file: str | None,
) -> None:
    """Share verdicts with the other reviewers through a git repository.

    Fetches the verdicts repository, imports everyone else's verdicts and notes into the
    database, writes your own to verdicts/<report>/<reviewer>.jsonl (the format of
    `assay export --format jsonl`), commits them in your name and pushes. Running it twice
    changes nothing; offline, your verdicts stay in the database and the next sync sends them.
    The repository's own hooks and configured programs never run. Events in your own files
    that this database did not write are not taken as yours: they are reported (file, commit,
    author) and kept aside until you pass --accept-foreign; events stamped more than a few
    minutes in the future are skipped.

    Exit status: 0 synced, 2 bad input, 4 the remote could not be reached, 5 the push failed,
    6 no repository at the remote, 7 the remote holds a bad object (nothing lost in each).

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
        raise InputError(str(error)) from None
    try:
        result = sync(
            store,
            remote=remote,
            reviewer=reviewer,
            interactive=sys.stdin.isatty(),
            accept_foreign=accept_foreign,
        )
    except (SyncError, StoreError) as error:
        raise InputError(str(error)) from None
    finally:
        store.close()
    report(result, store.path)
    if result.problem == "missing":
        sys.exit(NO_REPOSITORY)
    if result.problem == "damaged":
        sys.exit(BAD_OBJECT)
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
    _report_foreign(result)
    received = f"{result.received} event(s) received"
    kept = f"Your verdicts are kept in {escaped(str(db_path))}" + (
        f" and {result.pending} event(s) will be sent by a later sync" if result.pending else ""
    )
    if result.problem == "missing":
        click.echo(
            f"{NAME}: no such repository: {where} ({escaped(result.offline or '')}); check "
            f"--remote (a path must name an existing repository: git init --bare PATH). {kept}.",
            err=True,
        )
    elif result.problem == "damaged":
        click.echo(
            f"{NAME}: bad object in {where}: {escaped(result.offline or '')}; git's checks refuse "
            "it, so nothing more can be received until whoever looks after the repository "
            f"removes it (git fsck there names it). {received}; {kept}.",
            err=True,
        )
    elif result.offline is not None:
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


def _report_foreign(result: SyncResult) -> None:
    """Events kept aside (or accepted): what, where, and who last changed the file."""
    who = escaped(result.reviewer)
    for found in result.foreign:
        by = f"commit {found.commit[:12]}" if found.commit else "an unknown commit"
        if found.author:
            by += f" by {escaped(found.author)}"
        click.echo(
            f"{NAME}: kept aside: {escaped(found.file)}: {found.events} event(s) in the name of "
            f"{who} that this database did not write ({by}); not imported as yours",
            err=True,
        )
    if result.aside:
        click.echo(
            f"{NAME}: {result.aside} event(s) kept aside in all: if they are yours (another "
            "machine, an earlier database), run `assay sync --accept-foreign`; until then "
            "your syncs send your files without them (they are kept here, not lost)",
            err=True,
        )
    if result.accepted:
        click.echo(f"{NAME}: accepted {result.accepted} event(s) kept aside", err=True)
