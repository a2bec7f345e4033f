"""The review screen's header line: system, revision, reviewer and progress."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from screens.safe import visible


class ReviewHeader(Static):
    """One line; the progress is right-aligned and shortened when the terminal is narrow."""

    _shown: tuple[object, ...] = ()

    def show(
        self, *, system: str, revision: str, failed: bool, reviewer: str, progress: str
    ) -> None:
        """Show the header (``failed``: the revision could not be opened)."""
        width = max(self.screen.size.width, 40)
        shown = (system, revision, failed, reviewer, progress, width)
        if shown == self._shown:
            return  # the screen asks again on every resize, and twice as it starts
        self._shown = shown
        if len(system) + len(revision) + len(reviewer) + len(progress) + 16 > width:
            progress = progress.replace(" quotes failing", " failing").replace(
                " quote failing", " failing"
            )
        left = Content.assemble(
            (" assay ", "bold $text-accent"),
            " ",
            (visible(system), "bold"),
            "  ",
            (revision, "$text-warning" if failed else "$text-primary"),
            "  ",
            (visible(reviewer), "$text-secondary"),
        )
        gap = max(2, width - left.cell_length - len(progress) - 1)
        self.update(left + " " * gap + progress, layout=False)
