"""The files of a commit that start with a byte order mark, found by one ``git grep`` over its
tree: the UTF-16 and UTF-32 texts git counts binary (their NULs), and the UTF-8 texts whose mark
stands before line 1's text in git's lines (``^`` misses it there)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from evidence.git.grep import NO_ATTRIBUTES
from evidence.git.process import run_git
from evidence.git.tree import decode_path

__all__ = ["UTF8_MARK", "Marked", "marked_paths"]

#: the UTF-8 byte order mark, as a Windows editor writes it before a text
UTF8_MARK = b"\xef\xbb\xbf"

#: a line starting as a UTF-16 (or UTF-32-LE), a UTF-32-BE or a UTF-8 text's mark does; no NUL
#: can be written in a pattern: UTF-32-BE's two are "neither 1 nor 127", and the caller checks
_MARKED_START = os.fsdecode(b"^(\xff\xfe|\xfe\xff|[^\x01-\x7f]{2}\xfe\xff|" + UTF8_MARK + b")")


class Marked(NamedTuple):
    """The paths of a commit with a line that starts as a byte order mark."""

    wide: list[str]  # as UTF-16 or UTF-32 do, on any line (binary files too: read and checked)
    utf8: list[str]  # as UTF-8 does, on line 1


def marked_paths(git_dir: Path, commit: str, paths: Iterable[str]) -> Marked:
    """The files at ``commit`` (under ``paths``) that start as a text with a byte order mark
    does; git reads every one of them (seconds on a large tree)."""
    args = [*NO_ATTRIBUTES, "grep", "-o", "-n", "-z", "--text", "--full-name", "--no-textconv"]
    args += ["--no-recurse-submodules", "-E", "-e", _MARKED_START, commit, "--"]
    args += [f":(literal){path}" for path in paths if path not in ("", ".")]
    with tempfile.TemporaryDirectory() as nowhere:
        found = run_git(git_dir, Path(nowhere), *args).stdout
    prefix = commit.encode("ascii") + b":"
    wide: dict[str, None] = {}
    utf8: dict[str, None] = {}
    start = 0
    # each hit is path NUL line NUL mark LF: a mark may hold NULs, never a LF; a path may hold both
    while (ends_path := found.find(b"\0", start)) >= 0:
        ends_line = found.find(b"\0", ends_path + 1)
        ends_hit = found.find(b"\n", ends_line + 1)
        if ends_line < 0 or ends_hit < 0:
            break
        path = decode_path(found[start:ends_path].removeprefix(prefix))
        line, mark = found[ends_path + 1 : ends_line], found[ends_line + 1 : ends_hit]
        if mark != UTF8_MARK:
            wide[path] = None
        elif line == b"1":
            utf8[path] = None
        start = ends_hit + 1
    return Marked(list(wide), list(utf8))
