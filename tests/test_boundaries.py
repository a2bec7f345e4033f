"""The UI-free core stays UI-free: no evidence/ or db/ module loads textual or rich.

And what runs before the review app's first frame stays light: checking the verdict database does
not import the store.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from db.store import VerdictStore

ROOT = Path(__file__).resolve().parent.parent
CORE_MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for package in ("evidence", "db")
    for path in (ROOT / package).rglob("*.py")
)

PROBE = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))
print(','.join(loaded))
"""


def test_core_modules_found() -> None:
    assert "evidence.model" in CORE_MODULES


def ui_modules_loaded(*modules: str) -> str:
    """The textual and rich modules a fresh interpreter holds after importing ``modules``."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *modules],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_does_not_load_ui(module: str) -> None:
    loaded = ui_modules_loaded(module)
    assert loaded == "", f"{module} loaded UI modules: {loaded}"


def test_screens_never_import_the_app() -> None:
    for path in (ROOT / "screens").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "tui.app" not in text, f"{path.name} imports tui.app"


CHECK_PROBE = """
import sys
from db import StoreError, check_database
check_database(sys.argv[1])
heavy = ('db.store', 'db.schema', 'sqlite_utils')
print(','.join(sorted(m for m in sys.modules if m in heavy)))
"""


def test_checking_the_database_does_not_import_the_store(tmp_path: Path) -> None:
    path = tmp_path / "verdicts.sqlite3"
    VerdictStore.open(path).close()  # a real one: check_database runs every check on it
    result = subprocess.run(
        [sys.executable, "-c", CHECK_PROBE, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"check_database loaded {result.stdout.strip()}"


def test_the_review_commands_import_textual_only_after_pausing_the_collector() -> None:
    # `assay review`/`demo` pause the cycle collector first thing (tui.startup), then import the
    # app: importing their module (and the CLI) must not import textual already.
    loaded = ui_modules_loaded("tui.cli", "tui.commands.review")
    assert loaded == "", f"imported before the pause: {loaded}"
