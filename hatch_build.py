"""The installed layout: assay's layers live under one package, ``assay``.

In the repository the layers are top-level folders (evidence/, db/, screens/, tui/, keymaps/) and
import each other by those names. A site-packages must not hold packages called ``db`` or ``tui``
(any other distribution may own those names), so the wheel maps every file of a layer under
``assay/`` and rewrites the layers' absolute imports to match (``from db.keys import ...`` becomes
``from assay.db.keys import ...``); code that names modules at run time names them relatively.

An editable install (``pip install -e .``, what `make` does) keeps the checkout's names on the path
and adds only an ``assay`` package that hands out the checkout's modules under their installed
names, so that the ``assay`` command's entry point, ``assay.tui.cli:main``, is the same in both.

Both also compile the revision index's scan (evidence/anchoring/_wordscan.c) with the C compiler
Python was built with: into the wheel, or beside its source for an editable install. Without a
compiler the build goes on and assay uses the same scan written in Python (wordset.py), slower.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

LAYERS = ("evidence", "db", "screens", "tui", "keymaps")

#: an import statement of a layer, at the start of a line (indented under TYPE_CHECKING too)
LAYER_IMPORT = re.compile(rf"^(\s*)(from|import)(\s+)({'|'.join(LAYERS)})(?=[.\s])", re.MULTILINE)

#: files the build leaves out (an editable checkout's compiled files)
LEFT_OUT = {"__pycache__"}
#: compiled modules: a checkout's were built for its own Python, the wheel's are built afresh
COMPILED_SUFFIXES = {".so", ".pyd"}

#: the C extension's source: its module is built beside it, or at the same place in the wheel
EXTENSION = "evidence/anchoring/_wordscan.c"

PACKAGE_INIT = '"""assay: review written evidence reports against the git revision they cite."""\n'

#: the editable install's ``assay`` package: ``assay.tui.cli`` is the checkout's ``tui.cli``, the
#: same module object (never a second copy under another name)
EDITABLE_INIT = '''"""assay for development: the checkout's layers are its subpackages."""

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

_LAYERS = {LAYERS!r}


class _Layer(importlib.abc.Loader):
    def __init__(self, layer: str) -> None:
        self.layer = layer

    def exec_module(self, module: ModuleType) -> None:
        # the import system returns what sys.modules holds after this: the checkout's module,
        # left as it is (its __spec__ and __name__ untouched)
        sys.modules[module.__name__] = importlib.import_module(self.layer)


class _Layers(importlib.abc.MetaPathFinder):
    def find_spec(
        self, name: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        parts = name.split(".")
        if len(parts) < 2 or parts[0] != __name__ or parts[1] not in _LAYERS:
            return None
        layer = ".".join(parts[1:])
        module = importlib.import_module(layer)
        return importlib.machinery.ModuleSpec(
            name, _Layer(layer), is_package=hasattr(module, "__path__")
        )


sys.meta_path.insert(0, _Layers())
'''


class InstalledLayout(BuildHookInterface):
    """Maps the layers under ``assay/`` in a wheel; adds the alias package to an editable one."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        self.staging = Path(tempfile.mkdtemp(prefix="assay-build-"))
        include: dict[str, str] = build_data["force_include"]
        init = self.staging / "__init__.py"
        if version == "editable":
            init.write_text(EDITABLE_INIT.replace("{LAYERS!r}", repr(LAYERS)), encoding="utf-8")
            include[str(init)] = "assay/__init__.py"
            self.compile(Path(self.root) / EXTENSION, build_data, None)
            return
        init.write_text(PACKAGE_INIT, encoding="utf-8")
        include[str(init)] = "assay/__init__.py"
        root = Path(self.root)
        for layer in LAYERS:
            for path in sorted((root / layer).rglob("*")):
                relative = path.relative_to(root)
                if (
                    not path.is_file()
                    or LEFT_OUT & set(relative.parts)
                    or path.suffix == ".pyc"
                    or path.suffix in COMPILED_SUFFIXES
                ):
                    continue
                target = f"assay/{relative.as_posix()}"
                if path.suffix == ".py":
                    staged = self.staging / relative
                    staged.parent.mkdir(parents=True, exist_ok=True)
                    text = path.read_text(encoding="utf-8")
                    staged.write_text(LAYER_IMPORT.sub(r"\1\2\3assay.\4", text), encoding="utf-8")
                    include[str(staged)] = target
                else:
                    include[str(path)] = target
        self.compile(root / EXTENSION, build_data, include)

    def compile(
        self, source: Path, build_data: dict[str, Any], include: dict[str, str] | None
    ) -> None:
        """Compile `source` beside itself (`include` None: editable) or into the wheel."""
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        module = source.with_suffix("").name + suffix
        target = source.parent / module if include is None else self.staging / module
        target.unlink(missing_ok=True)  # a failed build leaves no module of an older source
        error = compile_extension(source, target)
        if error is not None:
            self.app.display_warning(
                f"assay: {source.name} not compiled, the index scan runs in Python: {error}"
            )
            return
        if include is not None:
            relative = source.parent.relative_to(Path(self.root)).as_posix()
            include[str(target)] = f"assay/{relative}/{module}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        staging = getattr(self, "staging", None)
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)


def compile_extension(source: Path, target: Path) -> str | None:
    """Build one C file into a Python extension module as Python's own build settings say
    (LDSHARED and CFLAGS from the environment first, as setuptools takes them); the error,
    or None when built."""
    config = sysconfig.get_config_vars()
    link = os.environ.get("LDSHARED") or config.get("LDSHARED") or ""
    flags = f"{config.get('CFLAGS') or ''} {os.environ.get('CFLAGS', '')}"
    if not link:
        return "this Python names no compiler (sysconfig LDSHARED)"
    command = [
        *shlex.split(link),
        *shlex.split(flags),
        *shlex.split(config.get("CCSHARED") or ""),
        f"-I{sysconfig.get_paths()['include']}",
        str(source),
        "-o",
        str(target),
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    return None
