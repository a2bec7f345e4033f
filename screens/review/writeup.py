"""The write-up saved from the app (`x`): its file name, and the file written atomically."""

from __future__ import annotations

import hashlib
import itertools
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from db.output import write_atomically

if TYPE_CHECKING:
    from collections.abc import Collection

    from db import VerdictStore


def writeup_name(system: str, commit: str | None) -> str:
    """The file name of a write-up saved from the app: system and revision, as a file name."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", system).strip("-.")[:40] or "review"
    return f"assay-writeup-{slug}-{(commit or 'unresolved')[:7]}.md"


def save_writeup(
    store: VerdictStore, path: Path, shown: str, reports: Collection[str] | None = None
) -> str:
    """Write the md write-up of ``store`` to ``path`` atomically, of the ``reports`` (their
    identities) alone when given; the notice to show (naming the file as ``shown``).

    A file there that this did not write as it is (a reviewer edited the write-up, or it is
    another file of that name) is kept under a name of its own first, never overwritten.
    """
    from db.writeup import markdown

    text = marked(markdown(store, reports=reports))
    kept = None
    try:
        if edited(path):  # copied, not moved: the file replaced keeps its mode (a 0600 one)
            kept = _free_name(path)
            shutil.copy2(path, kept)
        write_atomically(path, lambda handle: handle.write(text))
    except OSError as error:
        also = f"; the earlier one is kept as {kept.name}" if kept is not None else ""
        return f"write-up not saved: {error.strerror or error} ({shown}){also}"
    saved = f"write-up saved to {shown} ({len(text.splitlines())} lines)"
    if kept is not None:
        saved += f"; the file it replaces, changed since assay wrote it, is kept as ./{kept.name}"
    return saved


#: the last line of a write-up `x` saves: the digest of the text above it, which tells a file
#: `x` wrote from one a reviewer edited since
_MARK = re.compile(r"<!-- written by assay; sha256 ([0-9a-f]{64}) -->\n\Z")


def marked(text: str) -> str:
    """``text`` (ending in a newline) with its digest on a last line, an HTML comment."""
    return f"{text}<!-- written by assay; sha256 {_digest(text)} -->\n"


def edited(path: Path) -> bool:
    """Whether a file at ``path`` holds anything but a write-up `marked` as it was written (not
    a file there, a folder say: the write fails and says so)."""
    if path.is_symlink() or not path.is_file():  # a link planted there is replaced, as ever
        return False
    try:
        with path.open("rb") as handle:
            data = handle.read(_MOST + 1)
    except FileNotFoundError:
        return False
    except OSError:
        return True  # unreadable: not to be replaced unseen
    text = data.decode("utf-8", "replace")
    found = _MARK.search(text)
    return len(data) > _MOST or found is None or _digest(text[: found.start()]) != found[1]


#: bytes of an existing file read to tell whether it was edited (a larger one is kept)
_MOST = 64 * 1024 * 1024


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _free_name(path: Path) -> Path:
    """``name.edited-N.md`` beside ``path``, the first N not taken."""
    for number in itertools.count(1):
        candidate = path.with_name(f"{path.stem}.edited-{number}{path.suffix}")
        if not candidate.exists():
            return candidate
    raise AssertionError("unreachable")
