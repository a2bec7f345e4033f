"""The line under the source view: how the shown quote is anchored, or which file is open."""

from __future__ import annotations

from textual.app import RenderResult
from textual.content import Content
from textual.widgets import Static

from evidence.model import Anchor, Elsewhere, Quote, Tier
from screens.quote_status import tier_symbol
from screens.safe import visible
from screens.widgets.badges import TIER_STYLES, lines_phrase, lines_text
from screens.widgets.truecolor import TruecolorOnly

#: the key hints the line gives (`hints_whole` keeps each on one line)
WHAT_DIFFERS, OPEN_IT = "d: what differs", "enter: open it"
NEXT_PLACE, CITED_FILE = "enter: next place", "enter: cited file"
AS_CLAIMED = "as claimed"


def quote_info(
    quote: Quote,
    anchor: Anchor | None,
    verdict: Content | None = None,
    place: Elsewhere | None = None,
    drift: Content | None = None,
    unchecked: str | None = None,
    *,
    compact: bool = False,
) -> Content:
    """The reviewer's verdict, tier, score, lines, claimed range, other occurrences, where else
    the quote was found (``place``: the one shown instead of the cited file), a hint at the diff,
    and ``drift``: what became of the passage at a newer revision (``compact``: for a narrow
    pane, the cited path, which the source's title shows, not repeated and the hints shorter)."""
    parts: list[Content | str | tuple[str, str]] = [f"[{quote.index + 1}] "]
    if verdict is not None:
        parts += [verdict, " · "]
    if anchor is None:
        said = f"not checked: {unchecked}" if unchecked else "not anchored yet"
        parts.append((said, "$text-muted"))
        return Content.assemble(*parts)
    symbol = tier_symbol(anchor)
    tier = f"{anchor.match.value} {anchor.score:.0f}"
    if anchor.match is Tier.LOCATED:
        tier = "located: a region without a snippet, its lines exist"
    parts += [
        (f"{symbol} {tier}", TIER_STYLES[symbol]),
        f"  {lines_phrase(anchor.lines)}"
        if anchor.lines
        else "  not in the cited file"
        if compact
        else f"  not in {visible(quote.path)}",
    ]
    if anchor.elsewhere and not anchor.verified:
        parts.append(found_elsewhere(anchor, place))
    if quote.claimed is not None:
        if anchor.range_ok:
            parts.append((f"  {AS_CLAIMED}", "$text-success"))
        else:
            parts.append((f"  claimed {lines_text(quote.claimed)}", "$text-warning"))
    others = [o for o in anchor.occurrences if o != anchor.lines]
    if others:
        parts.append(("  also at " + ", ".join(lines_text(o) for o in others[:4]), "$text-accent"))
    if anchor.elsewhere and anchor.verified:
        first = anchor.elsewhere[0]
        more = f" and {len(anchor.elsewhere) - 1} more" if len(anchor.elsewhere) > 1 else ""
        parts.append(
            (f"  also in {visible(first.path)}:{lines_text(first.lines)}{more}", "$text-accent")
        )
    for note in anchor.notes[:1]:
        parts.append(("  " + visible(note), "$text-muted"))
    if anchor.diff and not anchor.match.verified or anchor.match is Tier.FUZZY:
        parts.append(("  d: diff", "$text-muted"))
    elif anchor.match is Tier.NORMALIZED or (anchor.elsewhere and not anchor.verified):
        parts.append(("  d: diff" if compact else f"  {WHAT_DIFFERS}", "$text-muted"))
    if drift is not None:
        parts.append(drift)
    return Content.assemble(*parts)


def found_elsewhere(anchor: Anchor, place: Elsewhere | None) -> Content:
    """Where a quote missing from its cited file was found, and which place is shown."""
    places = anchor.elsewhere
    if place is not None:
        n = places.index(place) + 1 if place in places else 1
        shown = f"  shown where found: {visible(place.path)}:{lines_text(place.lines)}"
        shown += f" ({place.match.value}"
        shown += f", {n} of {len(places)})" if len(places) > 1 else ")"
        hint = f"  {NEXT_PLACE}" if n < len(places) else f"  {CITED_FILE}"
        return Content.assemble((shown, "$text-accent"), (hint, "$text-muted"))
    first = places[0]
    more = f" and {len(places) - 1} more" if len(places) > 1 else ""
    return Content.assemble(
        (
            f"  found in {visible(first.path)}:{lines_text(first.lines)}{more}",
            "$text-accent",
        ),
        (f"  {OPEN_IT}", "$text-muted"),
    )


#: what a key does, and that the lines are the claimed ones: wrapped whole, never "d: what" /
#: "differs" or "as" / "claimed"
HINTS = (WHAT_DIFFERS, OPEN_IT, NEXT_PLACE, CITED_FILE, AS_CLAIMED)


def hints_whole(text: Content, width: int) -> Content:
    """``text`` with each key hint that its wrapping at ``width`` would split begun on a line
    of its own (the spaces before it made a line break)."""
    for hint in HINTS:
        at = text.plain.find("  " + hint)
        if at < 0 or not width or text.cell_length <= width or len(hint) > width:
            continue
        before = text[: at + 2].wrap(width)[-1].cell_length  # where the hint would start
        if before + len(hint) > width:
            text = Content.assemble(text[:at], "\n", text[at + 2 :])
    return text


class QuoteInfo(TruecolorOnly, Static):
    """Under the source: the anchor of the quote shown, or the path of a file opened by the
    finder (two lines kept, three when the text needs them)."""

    _lines = 1  # the lines the text shown takes (it wraps rather than being cut)

    def show(
        self,
        quote: Quote | None,
        anchor: Anchor | None,
        *,
        opened: str | None,
        verdict: Content | None = None,
        place: Elsewhere | None = None,
        back_to_quotes: str = "",
        drift: Content | None = None,
        unchecked: str | None = None,
    ) -> None:
        """Describe ``quote`` (the reviewer's verdict on it, its anchor; ``place``: shown where it
        was found instead of its cited file), or ``opened`` when a file was opened instead
        (``back_to_quotes``: the key that shows the record's quotes again, if it has any;
        ``drift``: the quote's, or the opened file's when the record cites it)."""
        if opened is not None:
            hint = f"  ({back_to_quotes} returns to the quotes)" if back_to_quotes else ""
            text = Content.assemble(
                ("file ", "$text-muted"),
                visible(opened),
                drift or "",  # a cited file's drift at REV
                (hint, "$text-muted"),
            )
        elif quote is None:
            text = Content("")
        else:
            text = quote_info(quote, anchor, verdict, place, drift, unchecked)
        width = self.content_region.width
        lines = self._wrapped(hints_whole(text, width), width)
        if quote is not None and opened is None and lines > self._clamp(lines):
            # more than it may show: the shorter words, rather than losing its last ones
            text = quote_info(quote, anchor, verdict, place, drift, unchecked, compact=True)
            lines = self._wrapped(hints_whole(text, width), width)
            if lines > self._clamp(lines):
                text = self._cut(hints_whole(text, width), width, self._clamp(lines))
        # laid out again only when its height changes: most quotes take one or two lines, and
        # it keeps two (min-height), so moving between them lays nothing out
        self.update(text, layout=self._clamp(lines) != self._clamp(self._lines))
        self._lines = lines

    def render(self) -> RenderResult:
        # the hints kept whole at the width drawn now: the pane may have widened since `show`
        shown = super().render()
        width = self.content_region.width
        return hints_whole(shown, width) if isinstance(shown, Content) else shown

    @staticmethod
    def _wrapped(text: Content, width: int) -> int:
        """The lines ``text`` wraps to at ``width``."""
        return len(text.wrap(width)) if width and text.cell_length > width else 1

    @staticmethod
    def _cut(text: Content, width: int, most: int) -> Content:
        """``text`` wrapped at ``width`` and cut to its first ``most`` lines, the last one ending
        with an ellipsis: a cut says so."""
        wrapped = text.wrap(width)[:most]
        last = wrapped[-1].rstrip()
        if last.cell_length >= width:
            last = last.truncate(width - 1)
        return Content("\n").join([*wrapped[:-1], last + "…"])

    def _clamp(self, lines: int) -> int:
        """The height ``lines`` of text take: within its least and most height."""
        least, most = self.styles.min_height, self.styles.max_height
        if least is not None and least.is_cells:
            lines = max(lines, int(least.value))
        if most is not None and most.is_cells:
            lines = min(lines, int(most.value))
        return lines

    def growth(self) -> int:
        """How many lines taller (or, negative, shorter) the next layout makes it: its text
        wraps to more or fewer lines than it is high now (within its least and most height)."""
        if not self.size.height:
            return 0
        return self._clamp(self._lines) - self.size.height
