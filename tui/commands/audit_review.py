"""`assay review` on an audit (no REPORT with ./assay.toml, or --audit FILE) and `assay demo
--audit`: the audit screen."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tui.commands.audit import audit_database, resolve_audit
from tui.commands.errors import InputError

if TYPE_CHECKING:
    from evidence.audit.file import Audit
    from tui.app import AssayApp


def review_audit(
    audit_file: str | None,
    *,
    db: str | None,
    reviewer: str | None,
    preset: str | None,
    against: str | None,
    repo: str | None,
    rev: str | None,
) -> AssayApp:
    """The audit app on the audit, ready to run (exit 2 on a bad audit file or database)."""
    if repo is not None or rev is not None:
        raise InputError("an audit names each system's repository and revision: drop --repo/--rev")
    found = resolve_audit("review", audit_file, ())
    assert found is not None
    return audit_app(
        found, db=Path(db) if db else None, reviewer=reviewer, preset=preset, against=against
    )


def audit_app(
    found: Audit,
    *,
    db: Path | None,
    reviewer: str | None,
    preset: str | None,
    against: str | None = None,
) -> AssayApp:
    """The audit app, ready to run; exits 2 when the keymap or the database cannot be used."""
    from db import StoreError, database_check, reviewer_name

    checked = database_check(audit_database(found, db))  # read while the app is imported
    from evidence.reports.cache import default_directory
    from keymaps import usable_keymap
    from tui.audit_app import load_state, make_audit_app

    keymap, problem = usable_keymap(preset)
    try:
        db_path = checked()
    except StoreError as error:
        raise InputError(str(error)) from None
    from screens.themes import theme_file

    state = load_state(found, cache=default_directory())
    app = make_audit_app(
        state,
        db_path,
        reviewer_name(reviewer),
        keymap,
        against=against,
        theme_file=theme_file(),
    )
    if problem is not None:
        app.warn_on_start(problem)
    return app


def demo_audit(reviewer: str | None, preset: str | None) -> AssayApp:
    """What `assay demo --audit` runs: the audit screen on the sample audit."""
    from db import StoreError, database_check
    from db.check import demo_db_path

    checked = database_check(demo_db_path())  # read while the app is imported
    from evidence.sample import SampleError
    from keymaps import usable_keymap
    from tui.audit_app import make_demo_audit_app

    keymap, problem = usable_keymap(preset)
    try:
        from screens.themes import theme_file

        checked()  # a bad database: a one-line error, no app made
        app = make_demo_audit_app(reviewer=reviewer, keymap=keymap, theme_file=theme_file())
    except (SampleError, StoreError, OSError) as error:
        raise InputError(str(error)) from None
    if problem is not None:
        app.warn_on_start(problem)
    return app
