"""What the product imports is what pyproject.toml declares: a module that only arrives through
another dependency breaks the day that dependency stops bringing it."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("evidence", "db", "screens", "tui", "keymaps")


def imported_top_names() -> set[str]:
    names: set[str] = set()
    for layer in LAYERS:
        for path in (ROOT / layer).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module.split(".")[0])
    return names - set(LAYERS) - set(sys.stdlib_module_names) - {"__future__"}


def test_every_imported_distribution_is_declared() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {re.split(r"[<>=!~;\[ ]", line)[0].lower() for line in project["dependencies"]}
    owners = packages_distributions()
    undeclared = {
        name: owners.get(name, ["?"])
        for name in imported_top_names()
        if not {owner.lower() for owner in owners.get(name, [])} & declared
    }
    assert not undeclared, f"imported but not declared in pyproject.toml: {undeclared}"
