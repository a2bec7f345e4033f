"""A record's row in a few symbols: its verdict, how its quotes are anchored and what its
searches found."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from db.keys import Verdict
from evidence.model import Anchor, Quote, Tier

if TYPE_CHECKING:
    from evidence.revision import GrepHit


#: a verdict's symbol (None: none given)
BADGES: dict[Verdict | None, str] = {
    Verdict.CONFIRMED: "✓",
    Verdict.REFUTED: "✗",
    Verdict.UNCLEAR: "?",
    Verdict.SKIP: "–",
    None: "·",
}


def tier_symbol(anchor: Anchor | None) -> str:
    """One character for a quote's anchor: ✓ verified, ≈ fuzzy, ✗ missing, ◦ located (a SARIF
    region without a snippet), … not yet known."""
    if anchor is None:
        return "…"
    if anchor.match is Tier.LOCATED:
        return "◦"
    if anchor.match.verified:
        return "✓" if anchor.range_ok is not False else "!"
    return "≈" if anchor.match is Tier.FUZZY else "✗"


def quote_numbers(quotes: list[Quote]) -> str:
    """``[2]`` or ``[1,3]``: the numbers the record pane gives these quotes."""
    return "[" + ",".join(str(quote.index + 1) for quote in quotes) + "]"


def quote_status(
    quotes: int,
    anchors: Sequence[Anchor | None] | None,
    hits: Sequence[Sequence[GrepHit] | None],
    *,
    unchecked: bool = False,
    files_missing: int = 0,
) -> str:
    """``✓3 ≈1 ✗0 ⌕ 3`` for ``quotes`` quotes with these ``anchors`` (None: not anchored yet;
    ``∅3`` when they cannot be: ``unchecked``) and searches with these ``hits`` (None: not
    replayed yet); ``⊘2``: two files the record cites or names are not at the revision."""
    parts: list[str] = []
    if quotes:
        if anchors is None:
            parts.append(f"∅{quotes}" if unchecked else f"…{quotes}")
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
    if files_missing:
        parts.append(f"⊘{files_missing}")
    for found in hits:
        parts.append(f"⌕ {len(found)}" if found is not None else "⌕ …")
    return " ".join(parts)


def claimed_place(quote: Quote) -> str:
    """``api/server.py:63``: the quote's path at the first line it claims (alone without one)."""
    return f"{quote.path}:{quote.claimed[0]}" if quote.claimed else quote.path


def found_label(record_id: str, quote: Quote, width: int) -> str:
    """``KS-RTE-x [2] api/server.py:63: if not token:`` (``width`` characters of the quote's
    first line at most): a quote as `/` lists it, at its claimed line when it claims one (a
    scanner's region without a snippet has nothing else to say)."""
    text = quote.text.strip()
    first = text.splitlines()[0][:width] if text else ""
    where = claimed_place(quote)
    return f"{record_id} [{quote.index + 1}] {where}" + (f": {first}" if first else "")
