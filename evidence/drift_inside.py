"""Drift of a passage inside a submodule: its history is another repository's, so its lines are
not carried through diffs; the passage is looked for in the file the newer revision pins (read
through that revision's submodule, evidence/git/submodules.py): the same lines verbatim are
unchanged, verbatim elsewhere in the file moved, alike changed (with a diff), else deleted. No
commit list: `git log -L` of the outer repository does not reach into it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evidence.anchoring.tiers import choose
from evidence.drift_model import Drift, DriftStatus, changed_drift
from evidence.git.tree import normalize_path
from evidence.model import Anchor, FileState, Tier

if TYPE_CHECKING:
    from evidence.anchoring import Anchorer
    from evidence.revision import Revision

__all__ = ["follow_inside", "inside_submodule"]


def inside_submodule(anchor: Anchor, cited: Revision) -> bool:
    """The anchor's lines are in a file of a submodule (read in its repository)."""
    if anchor.lines is None or anchor.file is not FileState.OK or anchor.match is Tier.MISSING:
        return False
    return cited.spell(anchor.quote.path).submodule is not None


def follow_inside(
    anchor: Anchor, cited: Revision, against: Revision, anchorer: Anchorer, deleted_below: float
) -> Drift:
    """Where the anchor's passage is at `against` (``anchorer`` reads `against`)."""
    assert anchor.lines is not None
    path = normalize_path(anchor.quote.path)
    after = against.read(path)
    if after.state is not FileState.OK:
        if after.unreadable or after.state is not FileState.MISSING:
            return Drift(DriftStatus.UNREADABLE, path, why=after.problem or "")
        return Drift(DriftStatus.FILE_DELETED, path)
    first, last = anchor.lines
    passage = "\n".join(cited.read(path).lines[first - 1 : last])
    found = anchorer.find_in(after, passage, anchor.lines)
    lines, _ = choose(found.spans, anchor.lines)
    if found.tier is Tier.EXACT and lines is not None:
        status = DriftStatus.UNCHANGED if lines == anchor.lines else DriftStatus.MOVED
        return Drift(status, after.path, lines, score=100.0)
    if found.tier is not Tier.MISSING and lines is not None and found.score >= deleted_below:
        now = after.lines[lines[0] - 1 : lines[1]]
        return changed_drift(
            passage.split("\n"), now, after.path, lines, found.score, found.diff or None
        )
    return Drift(DriftStatus.DELETED, after.path)
