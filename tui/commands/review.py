"""`assay review` and `assay demo`: the review app."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from tui import startup
from tui.commands.errors import InputError, need_directory, reports_input_error
from tui.commands.options import (
    against_option,
    audit_option,
    db_option,
    keymap_option,
    reviewer_option,
)
from tui.commands.repository import repo_option, repository

if TYPE_CHECKING:
    from evidence.model import ReportSet
    from keymaps import Keymap
    from tui.app import AssayApp


@contextmanager
def _paused() -> Iterator[None]:
    """The cycle collector paused until the app takes the pause over; resumed on an error."""
    startup.pause()  # until the app's first frame: before the imports (textual, assay)
    try:
        yield
    except BaseException:
        startup.release()
        raise


def _keymap(preset: str | None) -> tuple[Keymap, str | None]:
    """The keymap, and what is wrong with keymap.toml when it cannot be used (the preset's
    keys then: the app starts, and says so)."""
    from keymaps import usable_keymap

    return usable_keymap(preset)


def _warned(app: AssayApp, problem: str | None) -> AssayApp:
    if problem is not None:
        app.warn_on_start(problem)
    return app


@click.command(short_help="Review reports against the revision they cite.")
@click.argument("reports", nargs=-1, metavar="REPORT...")
@audit_option
@repo_option(
    "The git repository the reports quote (default: the repository containing the current "
    "directory). A directory inside a work tree (a system of a monorepo): the reports' paths "
    "are read from there first, then from the top."
)
@click.option(
    "--rev", default=None, help="Revision (default: the one the reports state; HEAD only by name)."
)
@db_option
@reviewer_option
@keymap_option
@against_option
def review(
    reports: tuple[str, ...],
    audit_file: str | None,
    repo: str | None,
    rev: str | None,
    db_path: Path | None,
    reviewer: str | None,
    preset: str | None,
    against: str | None,
) -> None:
    """Review REPORT... against the git revision they cite (or --rev; HEAD only by name).

    REPORT may be a report, a directory of reports, a JSON bundle or a SARIF 2.1.0 file
    (.sarif, .sarif.gz); a SARIF run without versionControlProvenance needs --rev. Exit 2 before
    the app opens when a file is not a report (each one named) or holds no records and no
    quotes, the reports are about several systems, or git does not know the revision. An
    interrupt (SIGINT, ctrl+c twice in the app) exits 130.

    Without REPORT (assay.toml here) or with --audit FILE: the audit screen, every system of
    the audit with its progress; enter opens one system's review, escape comes back.
    """
    if audit_file is not None or not reports:
        from tui.commands.audit_review import review_audit

        with _paused():  # the audit's reports read, its screen built
            app = review_audit(
                audit_file,
                db=None if db_path is None else str(db_path),
                reviewer=reviewer,
                preset=preset,
                against=against,
                repo=repo,
                rev=rev,
            )
        run(app)
    with _paused():
        app = _review_app(reports, repo, rev, db_path, reviewer, preset, against)
    run(app)


def _review_app(
    reports: tuple[str, ...],
    repo: str | None,
    rev: str | None,
    db: Path | None,
    reviewer: str | None,
    preset: str | None,
    against: str | None,
) -> AssayApp:
    from db import StoreError, database_check, reviewer_lookup

    reviewer_found = reviewer_lookup(reviewer)  # git answers while the rest is imported
    try:
        # a read-only check, read meanwhile too: the app opens the store after its first frame
        checked = database_check(db)
        from evidence.git.process import RevisionError
        from evidence.reports.cache import default_directory
        from evidence.reports.loading import ReportError, load_reports  # cache hits skip the parser

        try:
            repo = repository(repo)
        except RevisionError as error:
            raise InputError(str(error)) from None
        need_directory(repo, "--repo ")
        try:
            reportset = load_reports(list(reports), cache=default_directory())
        except ReportError as error:
            raise reports_input_error(error) from None
        if not reportset.reports:
            raise InputError("no reports found in " + ", ".join(reports))
        keymap, problem = _keymap(preset)
        reportset, commit, origin = _resolve(reportset, repo, rev)
        against_commit = _resolve_against(repo, against) if against is not None else None
        from evidence.cache_files import ANCHORS, user_cache
        from screens.themes import theme_file
        from tui.factory import make_app

        try:
            db_path = checked()
        except StoreError as error:
            raise InputError(str(error)) from None

        app = make_app(
            reportset,
            repo,
            commit,
            db_path,
            reviewer_found(),
            keymap,
            rev_origin=origin,
            against=against_commit,
            theme_file=theme_file(),
            anchor_cache=user_cache(ANCHORS),  # evidence.anchor_cache's, not imported here
        )
        return _warned(app, problem)
    finally:
        reviewer_found.close()  # stops git if the command failed first


def _resolve(reportset: ReportSet, repo: str, rev: str | None) -> tuple[ReportSet, str, str]:
    """The commit to review and where it came from, as `assay check` chooses it, and the
    reports with SARIF paths of another checkout found in it (evidence/sarif/rebase.py); exits
    2 on input that is not a report, reports of several systems or a revision git does not know."""
    from evidence.inputs import CheckError, choose_revision, refuse_unusable, revision_origin
    from evidence.revision import Revision, RevisionError
    from evidence.sarif.rebase import at_revision

    try:
        refuse_unusable(reportset)
        wanted = choose_revision(reportset, rev)
        with Revision.open(repo, wanted) as revision:
            return at_revision(reportset, revision), revision.commit, revision_origin(rev)
    except (CheckError, RevisionError) as error:
        raise InputError(str(error)) from None


def _resolve_against(repo: str, against: str) -> str:
    """The full id of --against's REV, as the cited revision is resolved; exits 2 when git does
    not know it."""
    from evidence.revision import Revision, RevisionError

    try:
        with Revision.open(repo, against) as revision:
            return revision.commit
    except RevisionError as error:
        raise InputError(f"--against {against}: {error}") from None


@click.command()
@reviewer_option
@keymap_option
@against_option
@click.option(
    "--audit", "audit", is_flag=True, help="Open the sample audit (three systems) instead."
)
def demo(reviewer: str | None, preset: str | None, against: str | None, audit: bool) -> None:
    """Open the review app on the bundled sample repository and reports."""
    if audit:
        from tui.commands.audit_review import demo_audit

        with _paused():
            audit_app = demo_audit(reviewer, preset)
        run(audit_app)
    run(demo_app(reviewer, preset, against=against))


def run(app: AssayApp) -> NoReturn:
    """Run the app as every app command runs its app (`tui.app.run`: the shell's)."""
    from tui.app import run as run_in_shell

    run_in_shell(app)


def demo_app(
    reviewer: str | None,
    preset: str | None,
    data_dir: Path | None = None,
    *,
    against: str | None = None,
) -> AssayApp:
    """What `assay demo` runs, ready to run (the launch benchmark starts it the same way).

    ``data_dir`` holds the demo's verdicts (None: the user data directory).
    """
    with _paused():
        return _demo_app(reviewer, preset, data_dir, against)


def _demo_app(
    reviewer: str | None, preset: str | None, data_dir: Path | None, against: str | None
) -> AssayApp:
    from db import StoreError, database_check, reviewer_lookup
    from db.check import demo_db_path

    reviewer_found = reviewer_lookup(reviewer)  # git answers while the rest is imported
    # a read-only check, read while the rest is imported: the app opens the store after its
    # first frame
    checked = database_check(demo_db_path(data_dir))
    from evidence.sample import SampleError
    from tui.factory import make_demo_app

    try:
        keymap, problem = _keymap(preset)
        if against is not None:  # `--against ""` refused, not ignored
            from evidence.sample import sample_repo

            against = _resolve_against(str(sample_repo()), against)
        from screens.themes import theme_file

        checked()  # a bad database: a one-line error, no app made
        app = make_demo_app(
            data_dir,
            reviewer=reviewer_found(),
            keymap=keymap,
            against=against,
            theme_file=theme_file(),
        )
        return _warned(app, problem)
    except (SampleError, StoreError) as error:
        raise InputError(str(error)) from None
    finally:
        reviewer_found.close()  # stops git if the command failed first
