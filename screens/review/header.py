"""The review screen's header line: the systems reviewed, the revision, the reviewer and the
progress (with the drift's REV in front, when drift is shown)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from screens.progress import header_progress
from screens.widgets.review_header import ReviewHeader, revision_label

if TYPE_CHECKING:
    from screens.review.drift import DriftPart
    from screens.review.state import ReviewState


class Header:
    """Fills the header from the review's state and the drift."""

    def __init__(
        self,
        state: ReviewState,
        drift: DriftPart,
        rev: str | None,
        rev_origin: str | None,
    ) -> None:
        self.widget = ReviewHeader(id="review-header")
        self.state, self.drift = state, drift
        self.rev, self.rev_origin = rev, rev_origin  # as the command named the revision
        #: an audit's system: named first, as its scanner runs do not name it
        self.system: str | None = None

    def refresh(self, anchoring: tuple[int, int] | None = None) -> None:
        """Show the header again (``anchoring``: quotes anchored so far, of all)."""
        state, session = self.state, self.state.session
        reports = session.reportset.reports
        forms = header_progress(
            session,
            revision_open=state.revision is not None,
            anchoring=anchoring,
            reading=state.store_error is None and not state.verdicts_read,
            stale=len(state.stale),
            store_error=state.store_error,
            waiting=len(state.waiting),
        )
        progress, *shorter = decorate(forms, self.drift.header_label())
        # every system (a tool, for SARIF runs) loaded, each once: "ruff + Bandit"
        loaded = " + ".join(dict.fromkeys(r.system for r in reports))
        if self.system is not None and loaded != self.system:
            loaded = f"{self.system} · {loaded}" if loaded else self.system
        self.widget.show(
            system=loaded or "no reports",
            revision=revision_label(
                state.revision, state.revision_error, self.rev, self.rev_origin
            ),
            failed=bool(state.revision_error),
            reviewer=session.reviewer,
            progress=progress,
            shorter=tuple(shorter),
            commit=state.commit,
        )


def decorate(forms: tuple[str, ...], drift: str) -> tuple[str, ...]:
    """The header's progress texts (longest first) with the drift's REV in front (``drift``:
    `DriftPart.header_label`, empty when no drift is shown)."""
    if not drift:
        return forms
    # kept whole with the counts: the names on the left give way first; at 80 columns the
    # cited id stays whole
    short = drift.replace("drift vs ", "Δ ")
    return tuple(f"{drift if n == 0 else short} · {form}" for n, form in enumerate(forms))
