"""No two files of assay import each other, directly or through others, even inside a function.

Every import statement counts (module level, in functions, under TYPE_CHECKING): a cycle between
files is a cycle of reasons to change, whenever it runs.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("evidence", "db", "tui", "screens", "keymaps")


def module_files() -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by its own name); a compiled
    module by its stub (it imports none of assay's)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in [*(ROOT / package).rglob("*.py"), *(ROOT / package).rglob("*.pyi")]:
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found.setdefault(name.removesuffix(".__init__"), path)
    return found


def imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules that ``path`` imports (a name inside a module counts as the module)."""
    targets: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".")
                keep = len(parts) - node.level + (path.name == "__init__.py")
                base = ".".join([*parts[:keep], *([base] if base else [])])
            targets += [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
    found = set()
    for target in targets:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def test_no_import_cycle_between_files() -> None:
    modules = module_files()
    graph = {name: imports(name, path, modules) for name, path in modules.items()}
    assert "evidence.reports.loading" in graph
    cycles = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []
