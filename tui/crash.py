"""What happens when assay hits a bug in itself: a crash file, one line, a non-zero exit.

Textual prints an unhandled exception as a traceback with the local variables of every frame
(report and source text included) and `App.run()` returns normally. Instead an app command runs
its app with `run_app`: the terminal is restored as Textual always does, the traceback goes to
`crash-<time>-<pid>.txt` in the user cache directory without local variables, stderr gets one
line naming that file, and the command exits with the app's return code.
"""

from __future__ import annotations

import io
import os
import platform
import sys
import traceback
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.interrupt import sigint_exits

if TYPE_CHECKING:
    from textual.app import App

    _AppBase = App[Any]
else:
    _AppBase = object

#: crash files kept; older ones are deleted when a new one is written
KEEP = 20


class CrashWatch(_AppBase):
    """Mixed in ahead of `App`: remembers the exception that ended the app (`crash`).

    Textual 8 has no public hook for an unhandled exception. While it handles one it sets the
    return code to 1 and rings the bell, inside its ``except`` block: there `sys.exception()` is
    the error. tests/tui/test_crash.py fails if a Textual release stops doing that.
    """

    crash: BaseException | None = None

    def bell(self) -> None:
        if self.crash is None and self.return_code:
            self.crash = sys.exception()
        super().bell()


def crash_directory() -> Path:
    """Where crash files go: the user cache directory of assay."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("assay"))


def report_text(error: BaseException) -> str:
    """The crash file's text: versions, command line and the traceback, never local variables."""
    from importlib.metadata import PackageNotFoundError, version

    versions = []
    for package in ("assay", "textual", "rich"):
        try:
            versions.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            versions.append(f"{package} (not installed)")
    written = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    lines = [
        f"assay crashed at {written}",
        f"python {platform.python_version()} on {platform.platform()}",
        ", ".join(versions),
        "command: " + " ".join(sys.argv),
        "",
    ]
    trace = traceback.format_exception(type(error), error, error.__traceback__)
    return "\n".join(lines) + "\n" + "".join(trace)


def write_report(error: BaseException, directory: Path | None = None) -> Path:
    """Write the crash file for ``error`` and return its path (OSError when it cannot be)."""
    directory = directory if directory is not None else crash_directory()
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    path = directory / f"crash-{stamp}-{os.getpid()}.txt"
    path.write_text(report_text(error), encoding="utf-8", errors="replace")
    try:
        for old in sorted(directory.glob("crash-*.txt"))[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # an old file that stays is harmless
    return path


def report(error: BaseException) -> str:
    """Write the crash file; the one line that tells the user where it is (or why it is not)."""
    from evidence.text import visible

    name = type(error).__name__
    try:
        path = write_report(error)
    except OSError as problem:
        return f"assay: internal error: {name}: {visible(str(error))} (no crash file: {problem})"
    return f"assay: internal error ({name}); please report it with {visible(str(path))}"


def run_app(app: App[Any]) -> int:
    """Run ``app`` in the terminal; its return code, after reporting a crash as described above.

    What Textual would print on exit (an exit message, an error that renders itself) is printed
    as before unless the app crashed; its traceback with local variables is never printed.
    """
    from rich.console import Console

    shown = io.StringIO()
    app.error_console = Console(
        file=shown,
        markup=False,
        highlight=False,
        force_terminal=sys.stderr.isatty(),
        width=app.error_console.width,
    )
    with sigint_exits(app):
        app.run()
    code = app.return_code or 0
    crash = app.crash if isinstance(app, CrashWatch) else None
    if code and crash is not None:
        print(report(crash), file=sys.stderr, flush=True)
    elif shown.getvalue():
        sys.stderr.write(shown.getvalue())
        sys.stderr.flush()
    return code
