"""The review screen's header line: system, revision and its commit, reviewer and progress."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.content import Content
from textual.widgets import Static

from evidence.model import short_revision
from screens.safe import visible
from screens.widgets.cut import cut, cut_text

if TYPE_CHECKING:
    from evidence.revision import CommitSummary, Revision

#: the commit's subject is left out rather than cut shorter than this
MIN_SUBJECT = 12
#: the reviewer's name is left out rather than cut to fewer cells (with its ellipsis)
MIN_REVIEWER = 6


def commit_content(commit: CommitSummary, room: int) -> Content:
    """The commit's subject, author and date in at most ``room`` cells: the subject is cut
    first, then the author left out, then the subject; empty when not even the date fits.
    Untrusted text: controls made visible, never markup."""
    subject = Content(visible(commit.subject)).stylize("$text")
    author = visible(commit.author)
    date = f"{commit.date:%Y-%m-%d}"
    for tail in (f"{author}, {date}", date):
        rest = Content(" — ").append(Content(tail).stylize("$text-muted"))
        if subject.cell_length + rest.cell_length <= room:
            return subject + rest
        if room - rest.cell_length >= MIN_SUBJECT:
            return cut(subject, room - rest.cell_length) + rest
    for tail in (f"{author}, {date}", date):
        if cell_len(tail) <= room:
            return Content(tail).stylize("$text-muted")
    return Content("")


def revision_label(
    revision: Revision | None, error: str | None, rev: str | None, origin: str | None = None
) -> str:
    """The header's revision: its short id, or what is known while it opens or when it failed,
    then where it came from (``stated`` by the reports, ``--rev HEAD`` ...)."""
    if revision is not None:
        label = f"@{revision.short}"
    else:
        label = "@(revision unavailable)" if error else f"@{short_revision(rev or 'HEAD')}…"
    if origin:
        label += f" ({cut_text(origin, 24)})"
    return label


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
        shorter: tuple[str, ...] = (),
        commit: CommitSummary | None = None,
    ) -> None:
        """Show the header (``failed``: the revision could not be opened); ``shorter`` are the
        progress for narrower terminals, longest first (the same counts, in fewer words; the
        last one is used when none fits); ``commit``'s subject,
        author and date follow the revision in the room the rest leaves (never wrapped: the
        counts and names come first)."""
        width = max(self.screen.size.width, 40)
        shown = (system, revision, failed, reviewer, progress, shorter, commit, width)
        if shown == self._shown:
            return  # the screen asks again on every resize, and twice as it starts
        self._shown = shown
        # measured as drawn: controls made visible, in cells (a name may be in wide characters)
        system, reviewer = visible(system), visible(reviewer)
        names = cell_len(system) + cell_len(revision)
        for form in shorter:
            if names + cell_len(reviewer) + len(progress) + 16 <= width:
                break
            progress = form
        if names + len(progress) + 13 > width and " (" in revision:
            revision = revision.split(" (", 1)[0]  # where it came from before a cut revision
            names = cell_len(system) + cell_len(revision)
        room = width - names - len(progress) - 16
        if cell_len(reviewer) > room:  # the counts before the reviewer's full name
            reviewer = cut_text(reviewer, room) if room >= MIN_REVIEWER else ""
        about = Content("")
        if commit is not None:
            spare = width - names - cell_len(reviewer) - len(progress) - 18
            about = commit_content(commit, spare)
        left = Content.assemble(
            (" assay ", "bold $text-accent"),
            " ",
            (system, "bold"),
            "  ",
            (revision, "$text-warning" if failed else "$text-primary"),
            "  " if about.cell_length else "",
            about,
            "  " if reviewer else "",
            (reviewer, "$text-secondary"),
        )
        # the counts are kept whole at any width: the names on the left give way
        room = width - len(progress) - 3
        if left.cell_length > room:
            left = cut(left, max(0, room), pad=True)
        gap = max(2, width - left.cell_length - len(progress) - 1)
        self.update(left + " " * gap + progress, layout=False)
