"""The review screen's header line: system, revision, reviewer and progress."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from screens.safe import visible


class ReviewHeader(Static):
    """One line; the progress is right-aligned and shortened when the terminal is narrow, and
    the system, revision and reviewer are cut before it is."""

    _shown: tuple[object, ...] = ()

    def show(
        self,
        *,
        system: str,
        revision: str,
        failed: bool,
        reviewer: str,
        progress: str,
        short: str = "",
    ) -> None:
        """Show the header (``failed``: the revision could not be opened); ``short`` is the
        progress for a narrow terminal (the same counts, in fewer words)."""
        width = max(self.screen.size.width, 40)
        shown = (system, revision, failed, reviewer, progress, short, width)
        if shown == self._shown:
            return  # the screen asks again on every resize, and twice as it starts
        self._shown = shown
        if short and len(system) + len(revision) + len(reviewer) + len(progress) + 16 > width:
            progress = short
        room = width - len(system) - len(revision) - len(progress) - 16
        if len(reviewer) > max(room, 8):  # the counts before the reviewer's full name
            reviewer = reviewer[: max(room, 8) - 1] + "…"
        left = Content.assemble(
            (" assay ", "bold $text-accent"),
            " ",
            (visible(system), "bold"),
            "  ",
            (revision, "$text-warning" if failed else "$text-primary"),
            "  ",
            (visible(reviewer), "$text-secondary"),
        )
        # the counts are kept whole at any width: the names on the left give way
        room = width - len(progress) - 3
        if left.cell_length > room:
            left = left.truncate(max(0, room), ellipsis=True)
        gap = max(2, width - left.cell_length - len(progress) - 1)
        self.update(left + " " * gap + progress, layout=False)
