"""The quote/source diff shown under the source view on `d`, for quotes not matched exactly."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from evidence.model import Anchor, Quote
from screens.safe import visible
from screens.session import tier_symbol
from screens.widgets.badges import lines_text

LEGEND = "underlined red: only in the quote · underlined green: only in the source"
#: characters of unchanged text shown before each difference in the list of differences
CONTEXT = 16
#: differences listed one per line; more are counted
MAX_LISTED = 6


def _quoted(text: str) -> str:
    """A difference's text in visible quotes; an empty side reads as 'nothing'."""
    return f"«{visible(text, multiline=False)}»" if text else "nothing"


def differences(anchor: Anchor) -> list[str]:
    """One line per difference, readable without colour: context, then quote versus source."""
    listed: list[str] = []
    before = ""
    changed = [part for part in anchor.diff if part.op != "equal"]
    for part in anchor.diff:
        if part.op == "equal":
            before = part.quote
            continue
        if len(listed) == MAX_LISTED:
            break
        context = visible(" ".join(before.split())[-CONTEXT:], multiline=False)
        listed.append(
            f"  after “…{context}”: quote {_quoted(part.quote)}, source {_quoted(part.source)}"
        )
        before = ""
    if len(changed) > len(listed):
        listed.append(f"  … and {len(changed) - len(listed)} more")
    return listed


def quote_diff(quote: Quote | None, anchor: Anchor | None) -> Content:
    """The quote and the source side by side (one line each), differences underlined."""
    if quote is None or anchor is None:
        return Content.styled("no quote to compare", "$text-muted")
    if not anchor.diff:
        text = (
            "the quote matches the source"
            if anchor.match.verified
            else "the quote was not found in the source"
        )
        return Content.styled(text, "$text-muted")
    quote_side: list[Content] = [Content.styled("quote   ", "bold")]
    source_side: list[Content] = [Content.styled("source  ", "bold")]
    for part in anchor.diff:
        if part.op == "equal":
            quote_side.append(Content(visible(part.quote, multiline=True)))
            source_side.append(Content(visible(part.source, multiline=True)))
            continue
        if part.quote:
            quote_side.append(
                Content.styled(visible(part.quote, multiline=True), "bold underline $text-error")
            )
        if part.source:
            source_side.append(
                Content.styled(visible(part.source, multiline=True), "bold underline $text-success")
            )
    header = Content.styled(
        f"[{quote.index + 1}] {tier_symbol(anchor)} {anchor.match.value} "
        f"{anchor.score:.0f}  {visible(quote.path)}:{lines_text(anchor.lines)}",
        "$text-accent",
    )
    lines = [
        header,
        Content("").join(quote_side),
        Content("").join(source_side),
        Content.styled(LEGEND, "$text-muted"),
        *(Content(line) for line in differences(anchor)),
    ]
    candidates = [
        f"{lines_text(candidate.lines)} ({candidate.score:.0f})"
        for candidate in anchor.candidates[:5]
    ]
    if candidates:
        lines.append(Content.styled("other candidates: " + ", ".join(candidates), "$text-muted"))
    return Content("\n").join(lines)


class QuoteDiff(Static):
    """The diff of one quote against the source it was matched to."""

    def show(self, quote: Quote | None, anchor: Anchor | None) -> None:
        """Compare ``quote`` with the source at its anchor (a short message when there is none)."""
        self.update(quote_diff(quote, anchor))
