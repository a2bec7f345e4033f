"""A record's row in a few symbols: how its quotes are anchored and what its searches found."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from evidence.model import Anchor, Tier

if TYPE_CHECKING:
    from evidence.revision import GrepHit


def quote_status(
    quotes: int,
    anchors: Sequence[Anchor | None] | None,
    hits: Sequence[Sequence[GrepHit] | None],
) -> str:
    """``✓3 ≈1 ✗0 ⌕ 3`` for ``quotes`` quotes with these ``anchors`` (None: not anchored yet)
    and searches with these ``hits`` (None: not replayed yet)."""
    parts: list[str] = []
    if quotes:
        if anchors is None:
            parts.append(f"…{quotes}")
        else:
            verified = sum(1 for a in anchors if a is not None and a.match.verified)
            fuzzy = sum(1 for a in anchors if a is not None and a.match is Tier.FUZZY)
            located = sum(1 for a in anchors if a is not None and a.match is Tier.LOCATED)
            missing = len(anchors) - verified - fuzzy - located
            moved = sum(
                1 for a in anchors if a is not None and a.match.verified and a.range_ok is False
            )
            parts.append(f"✓{verified - moved}")
            if moved:  # found, but not at the lines the report claims
                parts.append(f"!{moved}")
            if fuzzy:
                parts.append(f"≈{fuzzy}")
            if located:
                parts.append(f"◦{located}")
            if missing:
                parts.append(f"✗{missing}")
    for found in hits:
        parts.append(f"⌕ {len(found)}" if found is not None else "⌕ …")
    return " ".join(parts)
