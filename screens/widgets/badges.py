"""Shared look of verdicts and anchors in the review panes, and short texts for line ranges."""

from __future__ import annotations

VERDICT_STYLES = {
    "✓": "$text-success",
    "✗": "$text-error",
    "?": "$text-warning",
    "–": "$text-muted",
    "·": "$text-muted",
}
TIER_STYLES = {
    "✓": "$text-success",
    "≈": "$text-warning",
    "✗": "$text-error",
    "!": "$text-warning",
    "◦": "$text-muted",  # a located SARIF region: nothing to compare
}


def lines_text(lines: tuple[int, int] | None) -> str:
    """``231-236`` or ``231``."""
    if lines is None:
        return "?"
    return str(lines[0]) if lines[0] == lines[1] else f"{lines[0]}-{lines[1]}"


def lines_phrase(lines: tuple[int, int]) -> str:
    """``line 24`` or ``lines 231-236``."""
    return f"line {lines[0]}" if lines[0] == lines[1] else f"lines {lines[0]}-{lines[1]}"
