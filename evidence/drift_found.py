"""Quotes not anchored at the cited revision (their file not there, or their text not in it),
looked for at the newer one as anchoring looks at the cited one: a report written against a
later revision than it states quotes code that is there (`Drift.found`)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace

from evidence.drift_model import Drift, DriftStatus
from evidence.model import Anchor, Elsewhere, Quote, Tier
from evidence.revision import Revision

__all__ = ["found_place", "look_at_newer"]


def found_place(quote: Quote, anchor: Anchor) -> Elsewhere | None:
    """Where ``anchor`` (``quote``'s at a revision) puts the quote: its own file when verbatim
    there (or but for whitespace or formatting), else another file's verbatim copy, else the
    closest guess (its own file's fuzzy match, another's); None when it is nowhere."""
    own = None
    if anchor.lines is not None and anchor.match is not Tier.MISSING:
        own = Elsewhere(quote.path, anchor.lines, anchor.match)
    other = anchor.elsewhere[0] if anchor.elsewhere else None
    if own is not None and anchor.verified:
        return own
    if other is not None and other.match.verified:
        return other
    return own or other


def look_at_newer(
    quotes: Sequence[Quote],
    drifts: Sequence[Drift | None],
    against: Revision,
    *,
    cancel: threading.Event | None = None,
) -> list[Drift | None]:
    """``drifts`` (one per quote), the ``not_anchored`` ones with `Drift.found` where the quote
    is at ``against`` (the word index over it is built only when one is not in its own file)."""
    from evidence.anchoring import Anchorer

    wanted = [
        n for n, drift in enumerate(drifts) if drift and drift.status is DriftStatus.NOT_ANCHORED
    ]
    if not wanted:
        return list(drifts)
    anchors = Anchorer(against).anchor_many([quotes[n] for n in wanted], cancel=cancel)
    out = list(drifts)
    if cancel is not None and cancel.is_set():
        return out
    for n, anchor in zip(wanted, anchors, strict=True):
        drift = out[n]
        assert drift is not None
        out[n] = replace(drift, found=found_place(quotes[n], anchor))
    return out
