"""Whether a repository holds an object, told from its object files (loose, packed, alternates)
through gitdb, GitPython's pure-Python object database: no git process, nothing of the
repository's config read. True only when the object is found; anything this cannot tell (no
repository, another user's, a damaged pack, a SHA-256 repository, an id not in full) is False,
and the caller asks git (`Revision.open`), which says why.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from evidence.git.submodules import common_directory

__all__ = ["holds_object"]

_FULL_ID = re.compile(r"[0-9a-f]{40}")


def holds_object(path: str | Path, object_id: str) -> bool:
    """Whether the repository at ``path`` (a work tree, a directory inside one, a bare
    repository or a linked worktree) holds ``object_id`` (40 hex digits)."""
    if not _FULL_ID.fullmatch(object_id):
        return False
    git_dir = _git_directory(Path(path))
    if git_dir is None:
        return False
    from gitdb.db import GitDB

    try:
        return bool(
            GitDB(str(common_directory(git_dir) / "objects")).has_object(bytes.fromhex(object_id))
        )
    except Exception:  # a damaged or unusual object store: git is asked instead
        return False


def _git_directory(path: Path) -> Path | None:
    """The git directory of the repository at or above ``path``, as git finds it, when the
    user owns it (git refuses another user's unless safe.directory names it: git is asked)."""
    try:
        here = path.resolve()
        if (here / "HEAD").is_file() and (here / "objects").is_dir():
            found: Path | None = here
        else:
            found = None
            for directory in (here, *here.parents):
                dot = directory / ".git"
                if dot.is_dir():
                    found = dot
                elif dot.is_file():
                    named = dot.read_text(encoding="utf-8").strip()
                    if not named.startswith("gitdir:"):
                        return None
                    found = (directory / named.removeprefix("gitdir:").strip()).resolve()
                if dot.exists():
                    break
        euid = getattr(os, "geteuid", None)
        if found is None or euid is None or found.stat().st_uid != euid():
            return None
        return found
    except (OSError, UnicodeDecodeError, ValueError):
        return None
