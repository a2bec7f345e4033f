"""The UI-free core stays UI-free: no evidence/ or db/ module loads textual or rich.

And what runs before the review app's first frame stays light: checking the verdict database does
not import the store.
"""

from __future__ import annotations

import ast
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


DEMO_PROBE = """
import sys
from pathlib import Path
import tui.cli
from tui.commands.review import demo_app
demo_app(None, None, Path(sys.argv[1]))  # what `assay demo` runs, ready to run
lazy = set(sys.argv[2:])
print(','.join(sorted(m for m in sys.modules if m in lazy or m.split('.')[0] in lazy)))
"""
#: what the review app needs only after its first frame (anchoring, the revision, highlighting,
#: the store), or only for a key: imported where it is used, never by the command itself
AFTER_THE_FIRST_FRAME = (
    "rapidfuzz",
    "git",  # GitPython: the revision is opened in a worker
    "pygments",
    "sqlite_utils",
    "db.store",
    "evidence.anchoring.explain",
    "evidence.anchoring.diff",
    "evidence.revision",
    "screens.palette",  # the command palette: on its key
    "textual.widgets._text_area",  # the note editor's field: on its key (~5 ms to import)
    "json",  # `assay check --format json` and the exports: not the review app
    "secrets",  # an output file's temporary name (db/output.py): a write, not the launch
)


def test_the_demo_command_leaves_the_later_modules_unimported(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", DEMO_PROBE, str(tmp_path), *AFTER_THE_FIRST_FRAME],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"imported before the app ran: {result.stdout.strip()}"


# --- layers, cycles and Textual's private API (read from the sources, no import) -------------

PACKAGES = ("evidence", "db", "screens", "tui", "keymaps")
#: a package may import only the packages below it (keymaps stands apart: anyone may use it)
ALLOWED = {
    "evidence": {"evidence"},
    "db": {"evidence", "db"},
    "screens": {"evidence", "db", "screens", "keymaps"},
    "tui": {"evidence", "db", "screens", "tui", "keymaps"},
    "keymaps": {"keymaps"},
}
#: private names of Textual and Rich this code once used; none may come back
KNOWN_PRIVATE = {
    "_compositor",
    "_compositor_refresh",
    "_batch_count",
    "_layout_required",
    "_refresh_layout",
    "_size_updated",
    "_scroll_update",
    "_notifications",
    "_segments",
    "_dirty_regions",
    "_size",
    "_on_timer_update",
}


#: the public API of a NamedTuple (its names start with an underscore to leave room for fields)
NAMED_TUPLE_API = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}


def python_files(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside functions (TYPE_CHECKING included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def import_graph(*folders: str) -> dict[str, set[str]]:
    """module -> the modules of these folders it imports (a package name means its __init__)."""
    files = {module_name(path): path for path in python_files(*folders)}
    return {
        name: {imported for imported in imported_modules(path) if imported in files} - {name}
        for name, path in files.items()
    }


def test_imports_only_go_down_the_layers() -> None:
    wrong = [
        f"{name} imports {imported}"
        for name, imports in import_graph(*PACKAGES).items()
        for imported in imports
        if imported.split(".")[0] not in ALLOWED[name.split(".")[0]]
    ]
    assert wrong == []


# no import cycle between any two files: tests/test_import_cycles.py


def private_textual_names() -> set[str]:
    """Names starting with one underscore that Textual and Rich define (attributes, methods)."""
    import rich
    import textual

    names: set[str] = set()
    for package in (textual, rich):
        assert package.__file__ is not None
        for path in Path(package.__file__).parent.rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(node.name)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    names.add(node.attr)
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def test_only_the_public_api_of_textual_and_rich() -> None:
    # one walk of each file: the names assay defines (its private attributes may share
    # Textual's names) and the private-looking names it reads, sorted out after
    own: set[str] = set()
    read: list[tuple[str, int, str]] = []  # (file, line, attribute) of each `._name` read
    found = []
    this_file = Path(__file__).resolve()
    for path in python_files(*PACKAGES, "tests", "benchmarks"):
        shown = str(path.relative_to(ROOT))
        checked = path.resolve() != this_file
        in_package = path.parts[len(ROOT.parts)] in PACKAGES
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                own.add(node.name)
                if checked and in_package and node.name.startswith("_on_"):
                    # Textual's private handlers' shape, anywhere in assay
                    found.append(f"{shown}:{node.lineno} def {node.name}")
            elif isinstance(node, ast.Attribute):
                if isinstance(node.ctx, ast.Store):
                    own.add(node.attr)
                if checked and node.attr.startswith("_"):
                    read.append((shown, node.lineno, node.attr))
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                own.add(node.id)
    suspicious = private_textual_names() - own - NAMED_TUPLE_API
    found += [
        f"{shown}:{line} .{attr}"
        for shown, line, attr in read
        if attr in KNOWN_PRIVATE or attr in suspicious
    ]
    assert found == []
