"""The audit app: the audit screen on an audit's systems (screens/audit/), made here for the CLI
and the tests as `tui.factory` makes the review app."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from keymaps import Keymap, load_keymap
from screens.audit.screen import AuditScreen
from screens.audit.systems import AuditEntry, AuditState
from screens.review.screen import ReviewScreen
from screens.review.writer import StoreHandle
from screens.themes import DARK
from tui import startup
from tui.app import AssayApp

if TYPE_CHECKING:
    from db import VerdictStore
    from evidence.audit.file import Audit


def load_state(audit: Audit, *, cache: Path | None = None) -> AuditState:
    """Every system's reports (from the parsed-report cache when given); a system whose reports
    cannot be read or used carries the reason."""
    from evidence.audit.loading import claims, system_reports
    from evidence.inputs import CheckError, refuse_unusable
    from evidence.reports.loading import ReportError

    entries = []
    for system in audit.systems:
        try:
            reportset = system_reports(system, cache=cache)
        except ReportError as error:
            entries.append(AuditEntry(system, None, str(error)))
            continue
        problem = None
        try:
            refuse_unusable(reportset)
        except CheckError as error:
            problem = str(error).split("\n", 1)[0]
        entries.append(AuditEntry(system, reportset, problem))
    for entry, claim in zip(entries, claims([(e.name, e.reportset) for e in entries]), strict=True):
        entry.error = entry.error or claim.shared
    return AuditState(audit, entries)


def make_audit_app(
    state: AuditState,
    db: VerdictStore | Path | str | None,
    reviewer: str,
    keymap: Keymap | None = None,
    *,
    theme: str = DARK,
    against: str | None = None,
    anchor_cache: Path | None = None,
    theme_file: Path | None = None,
) -> AssayApp:
    """The app on the audit screen; ``db`` is the audit's one database (a path is opened by
    the first screen that needs it; ``app.close()`` closes it). Anchors are kept in
    ``anchor_cache`` (None: the user cache directory's `anchors/`); the theme as `make_app`
    keeps it in ``theme_file``."""
    from evidence.anchor_cache import default_directory

    anchors = anchor_cache or default_directory()
    if db is None or isinstance(db, (str, Path)):
        store = StoreHandle(path=Path(db) if db is not None else None)
    else:
        store = StoreHandle(db)
    keymap = keymap or load_keymap()

    def screen() -> AuditScreen:
        return AuditScreen(
            state, store, reviewer=reviewer, keymap=keymap, against=against, anchor_cache=anchors
        )

    return AssayApp(
        screen,
        keymap=keymap,
        theme=theme,
        closers=[store.close],
        # the collector paused (since the command started, when it did) until the first frame
        resume_collector=startup.take(),
        screen_css=[AuditScreen.CSS_PATH, ReviewScreen.CSS_PATH],
        theme_file=theme_file,
    )


def make_demo_audit_app(
    tmp: Path | None = None,
    *,
    reviewer: str | None = None,
    keymap: Keymap | None = None,
    theme: str = DARK,
    cache_dir: Path | None = None,
    anchor_cache: Path | None = None,
    against: str | None = None,
    theme_file: Path | None = None,
) -> AssayApp:
    """The audit app on the sample audit (evidence/sample_audit.py); verdicts in ``tmp``'s
    demo database (else the user data directory's), as `assay demo` keeps them."""
    from db import reviewer_name
    from db.check import demo_db_path
    from evidence.audit.file import AUDIT_NAME, load_audit
    from evidence.reports.cache import default_directory
    from evidence.sample_audit import sample_audit

    audit = load_audit(sample_audit(cache_dir) / AUDIT_NAME)
    db = demo_db_path(tmp)
    db.parent.mkdir(parents=True, exist_ok=True)
    state = load_state(audit, cache=default_directory())
    return make_audit_app(
        state,
        db,
        reviewer_name(reviewer),
        keymap,
        theme=theme,
        anchor_cache=anchor_cache,
        against=against,
        theme_file=theme_file,
    )
