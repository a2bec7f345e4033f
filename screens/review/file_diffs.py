"""`d` at REV on a file shown whole: its lines at the cited revision against REV's, as a unified
diff computed in a worker (difflib on a large file rewritten throughout takes a fifth of a
second) and kept per pair of blobs, for the source pane."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cachetools import LRUCache
from textual.content import Content

from screens.review.messages import FileDiffReady
from screens.safe import visible

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from evidence.revision import SourceFile
    from screens.review.drift import DriftPart
    from screens.review.state import Part

#: (cited blob, REV's blob) -> the diff
Key = tuple[str | None, str | None]


class FileDiffs:
    """The whole-file diffs of one source pane (its part receives `FileDiffReady`)."""

    def __init__(
        self,
        part: Part,
        drift: DriftPart,
        kept: Mapping[str, SourceFile],
        keep: Callable[[str], None],
    ) -> None:
        """``part``: the source pane's (it gets `FileDiffReady`), ``kept``: the files it has read
        at the cited revision, ``keep``: reads one to keep (its `SourceLoaded` comes back)."""
        self.part, self.drift, self.kept, self.keep_cited = part, drift, kept, keep
        self._done: LRUCache[Key, Content] = LRUCache(8)

    def whole(self, said: str, opened: str | None, now: SourceFile | None, request: int) -> Content:
        """The diff of the file ``opened`` shown at REV (``now``) against the cited revision's,
        if computed; else ``said`` alone, and the cited file read or the diff computed."""
        if self.drift.source_at_against() is None:  # gone at REV: nothing to compare
            return Content.styled(visible(said), "$text-accent")
        cited = self.kept.get(opened) if opened else None
        if opened and cited is None:
            self.keep_cited(opened)  # its `SourceLoaded` refreshes the diff
        if cited is None or now is None:
            return Content.styled(visible(said), "$text-accent")
        return self.content(said, cited, now, request)

    def content(self, said: str, cited: SourceFile, now: SourceFile, request: int) -> Content:
        """The diff, if computed; else ``said`` while a worker computes it (``request``: the
        source pane's read it is for)."""
        key = (cited.oid, now.oid)  # blobs read from git have theirs
        done = self._done.get(key) if None not in key else None
        if done is not None:
            return done
        cited_lines, now_lines, part = cited.lines, now.lines, self.part

        def compare() -> None:
            from screens.widgets.drift_rows import file_diff_content

            content = file_diff_content(said, cited_lines, now_lines)
            part.post_message(FileDiffReady(request, key, content))

        part.screen.run_worker(
            compare, thread=True, exclusive=True, group="file-diff", exit_on_error=False
        )
        return Content.styled(visible(said) + " (comparing…)", "$text-accent")

    def keep(self, message: FileDiffReady) -> None:
        if None not in message.key:
            self._done[message.key] = message.content
