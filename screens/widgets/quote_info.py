"""The line under the source view: how the shown quote is anchored, or which file is open."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from evidence.model import Anchor, Quote, Tier
from screens.safe import visible
from screens.session import tier_symbol
from screens.widgets.badges import TIER_STYLES, lines_text


def quote_info(quote: Quote, anchor: Anchor | None) -> Content:
    """Tier, score, lines, claimed range, other occurrences and a hint at the diff."""
    parts: list[Content | str | tuple[str, str]] = [f"[{quote.index + 1}] "]
    if anchor is None:
        parts.append(("not anchored yet", "$text-muted"))
        return Content.assemble(*parts)
    symbol = tier_symbol(anchor)
    tier = f"{anchor.match.value} {anchor.score:.0f}"
    if anchor.match is Tier.LOCATED:
        tier = "located: a region without a snippet, its lines exist"
    parts += [
        (f"{symbol} {tier}", TIER_STYLES[symbol]),
        f"  lines {lines_text(anchor.lines)}" if anchor.lines else "  not found",
    ]
    if quote.claimed is not None:
        if anchor.range_ok:
            parts.append(("  as claimed", "$text-success"))
        else:
            parts.append((f"  claimed {lines_text(quote.claimed)}", "$text-warning"))
    others = [o for o in anchor.occurrences if o != anchor.lines]
    if others:
        parts.append(("  also at " + ", ".join(lines_text(o) for o in others[:4]), "$text-accent"))
    if anchor.elsewhere:
        first = anchor.elsewhere[0]
        parts.append(
            (f"  found in {visible(first.path)}:{lines_text(first.lines)}", "$text-accent")
        )
    for note in anchor.notes[:1]:
        parts.append(("  " + visible(note), "$text-muted"))
    if anchor.diff and not anchor.match.verified or anchor.match is Tier.FUZZY:
        parts.append(("  d: diff", "$text-muted"))
    return Content.assemble(*parts)


class QuoteInfo(Static):
    """One line: the anchor of the quote shown, or the path of a file opened by the finder."""

    def show(self, quote: Quote | None, anchor: Anchor | None, *, opened: str | None) -> None:
        """Describe ``quote`` (with its anchor), or ``opened`` when a file was opened instead."""
        if opened is not None:
            text = Content.assemble(
                ("file ", "$text-muted"),
                visible(opened),
                ("  (] returns to the quotes)", "$text-muted"),
            )
        elif quote is None:
            text = Content("")
        else:
            text = quote_info(quote, anchor)
        self.update(text, layout=False)
