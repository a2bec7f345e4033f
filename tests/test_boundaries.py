"""The UI-free core stays UI-free: no evidence/ or db/ module loads textual or rich."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE_MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for package in ("evidence", "db")
    for path in (ROOT / package).rglob("*.py")
)

PROBE = """
import importlib, sys
importlib.import_module(sys.argv[1])
loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))
print(','.join(loaded))
"""


def test_core_modules_found() -> None:
    assert "evidence.model" in CORE_MODULES


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_does_not_load_ui(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, module],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"{module} loaded UI modules: {result.stdout.strip()}"


def test_screens_never_import_the_app() -> None:
    for path in (ROOT / "screens").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "tui.app" not in text, f"{path.name} imports tui.app"
