"""Shared look of verdicts and anchors in the review panes, and short texts for line ranges."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evidence.model import FileState

if TYPE_CHECKING:
    from evidence.revision import SourceFile

VERDICT_STYLES = {
    "✓": "$text-success",
    "✗": "$text-error",
    "?": "$text-warning",
    "–": "$text-muted",
    "·": "$text-muted",
}
TIER_STYLES = {"✓": "$text-success", "≈": "$text-warning", "✗": "$text-error", "!": "$text-warning"}


def lines_text(lines: tuple[int, int] | None) -> str:
    """``231-236`` or ``231``."""
    if lines is None:
        return "?"
    return str(lines[0]) if lines[0] == lines[1] else f"{lines[0]}-{lines[1]}"


def file_message(source: SourceFile) -> str | None:
    """What to show instead of a file that has no lines to display, or None."""
    if source.state is FileState.MISSING:
        return f"{source.path} does not exist at this revision"
    if source.state is FileState.BINARY:
        return f"{source.path} is a binary file ({source.size:,} bytes)"
    if source.state is FileState.TOO_LARGE:
        return f"{source.path} is too large to show ({source.size:,} bytes)"
    if source.symlink_target is not None:
        return f"{source.path} is a symbolic link to {source.symlink_target}"
    if source.submodule is not None:
        return f"{source.path} is a submodule at commit {source.submodule}"
    return None
