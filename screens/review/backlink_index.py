"""What cites each file of the revision, for the source pane's marks and the backlinks dialog."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evidence.backlinks import Backlink
    from screens.review.state import ReviewState


class BacklinkIndex:
    """The quotes that cite each path, every path's worked out at once and kept until the
    anchors change (the source pane asks on every record it shows)."""

    def __init__(self, state: ReviewState) -> None:
        self.state, self.session = state, state.session
        #: (the anchors they were worked out from, what cites each normalized path)
        self.kept: tuple[object, dict[str, list[Backlink]]] | None = None

    def of(self, path: str) -> list[Backlink]:
        """The quotes that cite ``path``."""
        from evidence.backlinks import backlinks_by_path, normalize
        from evidence.citations import files_matching

        anchors = self.session.anchors
        cache = self.kept
        if cache is None or cache[0] is not anchors:
            revision = self.state.revision
            expand = None
            if revision is not None:  # a cited wildcard links to each file it matches
                expand = partial(files_matching, files=revision.paths(), root=revision.root)
            index = backlinks_by_path(anchors, self.session.reportset, expand)
            cache = self.kept = (anchors, index)
        return cache[1].get(normalize(path), [])
