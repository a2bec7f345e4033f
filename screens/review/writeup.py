"""The write-up saved from the app (`x`): its file name, and the file written atomically."""

from __future__ import annotations

import re
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
    identities) alone when given; the notice to show (naming the file as ``shown``)."""
    from db.writeup import markdown

    text = markdown(store, reports=reports)
    try:
        write_atomically(path, lambda handle: handle.write(text))
    except OSError as error:
        return f"write-up not saved: {error.strerror or error} ({shown})"
    return f"write-up saved to {shown} ({len(text.splitlines())} lines)"
