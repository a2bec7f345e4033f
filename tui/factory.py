"""The one app factory, used by the CLI, the Pilot tests, the snapshot tests and the benchmark."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from db.check import demo_db_path
from evidence.inputs import revision_origin
from evidence.model import ReportSet
from keymaps import Keymap, load_keymap
from screens.review.writer import StoreHandle
from screens.session import ReviewSession
from screens.themes import DARK
from tui import startup
from tui.app import AssayApp

if TYPE_CHECKING:
    from db import VerdictStore
    from evidence.revision import Revision


def make_app(
    reports: ReportSet,
    repo: str | Path,
    rev: str | None,
    db: VerdictStore | Path | str | None,
    reviewer: str,
    keymap: Keymap | None = None,
    *,
    revision: Revision | None = None,
    theme: str = DARK,
    rev_origin: str | None = None,
    against: str | None = None,
    theme_file: Path | None = None,
    anchor_cache: Path | None = None,
) -> AssayApp:
    """The review app on loaded reports; the revision is opened (and anchored) in workers.

    ``rev_origin`` says where ``rev`` came from, for the header (`evidence.inputs.revision_origin`;
    None: ``stated`` when the reports state ``rev``, else ``--rev <rev or HEAD>``).

    ``theme_file``: the theme kept there is used (else ``theme``), and a change is kept there.

    ``anchor_cache``: anchors kept on disk there (evidence/anchor_cache.py): a relaunch on the
    same quotes at the same commit anchors nothing again.

    ``db`` is an open store (left open), or a path (None: the default database) that the review
    screen opens after its first frame (on its writer thread) and ``app.close()`` closes. A path
    is not checked here: a database that cannot be used is reported inside the app; commands
    check it first with `db.check_database` for a one-line error.
    """
    from screens.review.screen import ReviewScreen

    # No cycle collection until the first frame is painted (`AssayApp.startup_done`): building
    # the screen creates many long-lived objects and almost no garbage. A command
    # may have paused it already, before its imports (`tui.startup`): the app resumes it.
    collector = startup.take()
    if db is None or isinstance(db, (str, Path)):  # not importing the store: opened later
        store = StoreHandle(path=Path(db) if db is not None else None)
    else:
        store = StoreHandle(db)
    keymap = keymap or load_keymap()
    session = ReviewSession(reports, reviewer)
    if rev_origin is None:
        rev_origin = revision_origin(None if rev in reports.revision_ids() else rev or "HEAD")
    repo_path = Path(repo)

    def screen() -> ReviewScreen:
        return ReviewScreen(
            session,
            store,
            repo=repo_path,
            rev=rev,
            keymap=keymap,
            revision=revision,
            rev_origin=rev_origin,
            against=against,
            anchor_cache=anchor_cache,
        )

    app = AssayApp(
        screen,
        keymap=keymap,
        theme=theme,
        closers=[store.close],
        resume_collector=collector,
        screen_css=[ReviewScreen.CSS_PATH],
        theme_file=theme_file,
    )
    return app


def make_browse_app(
    revision: Revision,
    *,
    path: str | None = None,
    line: int | None = None,
    keymap: Keymap | None = None,
    theme: str = DARK,
    theme_file: Path | None = None,
) -> AssayApp:
    """`assay browse`'s app: one revision, no reports, in the browse screen (at ``path`` and
    ``line`` when given). ``app.close()`` closes the revision."""
    from screens.browse import BrowseScreen

    keymap = keymap or load_keymap()
    app = AssayApp(
        lambda: BrowseScreen(revision, path=path, line=line, keymap=keymap),
        keymap=keymap,
        theme=theme,
        closers=[revision.close],
        screen_css=[BrowseScreen.CSS_PATH],
        theme_file=theme_file,
    )
    app.title = "assay browse"
    return app


def make_demo_app(
    tmp: Path | None = None,
    *,
    reviewer: str | None = None,
    keymap: Keymap | None = None,
    theme: str = DARK,
    against: str | None = None,
    theme_file: Path | None = None,
) -> AssayApp:
    """The review app on the sample repository and reports; verdicts in ``tmp`` (else user dir)."""
    from db import reviewer_name
    from evidence.reports.cache import default_directory
    from evidence.reports.loading import load_reports  # not the parser: cache hits skip it
    from evidence.sample import CITED_REVISION, SAMPLE_REPORTS, sample_repo

    repo = sample_repo()
    reports = load_reports([SAMPLE_REPORTS], cache=default_directory())
    db = demo_db_path(tmp)
    db.parent.mkdir(parents=True, exist_ok=True)
    return make_app(
        reports,
        repo,
        CITED_REVISION,
        db,
        reviewer_name(reviewer),
        keymap,
        theme=theme,
        against=against,
        theme_file=theme_file,
    )
