"""The one app factory, used by the CLI, the Pilot tests, the snapshot tests and the benchmark."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from db import VerdictStore
from evidence.model import ReportSet
from keymaps import Keymap, load_keymap
from tui.app import AssayApp
from tui.session import ReviewSession

if TYPE_CHECKING:
    from evidence.revision import Revision

DEMO_DB_NAME = "demo.db"


def make_app(
    reports: ReportSet,
    repo: str | Path,
    rev: str | None,
    db: VerdictStore | Path | str | None,
    reviewer: str,
    keymap: Keymap | None = None,
    *,
    revision: Revision | None = None,
    theme: str = "textual-dark",
) -> AssayApp:
    """The review app on loaded reports; the revision is opened (and anchored) in workers.

    ``db`` is an open store (left open), or a path (None: the default database) opened here and
    closed by ``app.close()``.
    """
    from screens.review import ReviewScreen

    closers = []
    if isinstance(db, VerdictStore):
        store = db
    else:
        store = VerdictStore.open(Path(db) if db is not None else None)
        closers.append(store.close)
    keymap = keymap or load_keymap()
    session = ReviewSession(reports, reviewer)
    repo_path = Path(repo)

    def screen() -> ReviewScreen:
        return ReviewScreen(
            session, store, repo=repo_path, rev=rev, keymap=keymap, revision=revision
        )

    app = AssayApp(screen, keymap=keymap, theme=theme, closers=closers)
    app.store = store  # type: ignore[attr-defined]
    app.session = session  # type: ignore[attr-defined]
    return app


def demo_db_path() -> Path:
    """Where `assay demo` keeps its verdicts (the user data directory)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("assay")) / DEMO_DB_NAME


def make_demo_app(
    tmp: Path | None = None,
    *,
    reviewer: str | None = None,
    keymap: Keymap | None = None,
    theme: str = "textual-dark",
) -> AssayApp:
    """The review app on the sample repository and reports; verdicts in ``tmp`` (else user dir)."""
    from db import reviewer_name
    from evidence.reports import load_reports
    from evidence.sample import CITED_REVISION, SAMPLE_REPORTS, sample_repo

    repo = sample_repo()
    reports = load_reports([SAMPLE_REPORTS])
    db = (tmp / DEMO_DB_NAME) if tmp is not None else demo_db_path()
    db.parent.mkdir(parents=True, exist_ok=True)
    return make_app(
        reports,
        repo,
        CITED_REVISION,
        db,
        reviewer or reviewer_name(None),
        keymap,
        theme=theme,
    )
