"""The status line above the keys: what a verdict key acts on now, before it is pressed."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from evidence.model import Quote, Record
from evidence.sarif.triage import only_location
from screens.safe import visible
from screens.session import ReviewSession
from screens.widgets.badges import lines_text
from screens.widgets.record_pane import verdict_word
from screens.widgets.truecolor import TruecolorOnly


def target_text(session: ReviewSession, record: Record | None, quote: Quote | None) -> Content:
    """``verdict keys → quote [2] worker/src/retry.js:3-4 · refuted ✎`` or ``→ record KS-…``."""
    if record is None:
        return Content("")
    if quote is not None:
        item = session.quote_item(record, quote)
        anchor = session.anchor(quote)
        lines = anchor.lines if anchor is not None and anchor.lines else quote.claimed
        where = f"{quote.path}:{lines_text(lines)}" if lines else quote.path
        what = Content.assemble(
            (f"quote [{quote.index + 1}] ", "bold"),
            # said first: the line is cut on a narrow terminal
            ("(the result's only location: its verdict) ", "$text-muted")
            if only_location(record) is quote
            else "",
            (visible(where), "$text-primary"),
            (f" of {visible(record.id)}", "$text-muted"),
        )
    else:
        item = session.record_item(record)
        what = Content.assemble(("record ", "bold"), (visible(record.id), "bold $text-primary"))
    return Content.assemble(
        ("verdict keys → ", "$text-muted"),
        what,
        " · ",
        verdict_word(session.verdict(item)),
        (" ✎ note" if session.note(item) else "", "$text-warning"),
    )


def no_target_text(filter_name: str) -> Content:
    """``verdict keys → nothing: no records match "refuted"``: the filter lists no record."""
    return Content.assemble(
        ("verdict keys → ", "$text-muted"),
        ("nothing", "bold"),
        (f': no records match "{visible(filter_name)}"', "$text-muted"),
    )


def record_hint(quote: Quote | None, key: str) -> Content:
    """On a quote, ``  (esc: the record)``: the key that turns the verdict keys to the record."""
    if quote is None or not key:
        return Content("")
    return Content.styled(f"  ({key}: the record)", "$text-muted")


class TargetLine(TruecolorOnly, Static):
    """One line naming the record or quote that `c` `r` `u` `s` and `e` act on."""

    _text = Content("")
    _hint = Content("")

    def show(self, text: Content, hint: Content | None = None) -> None:
        """Show what the keys act on, and ``hint`` after it when the line has room for both
        (rather than cut to an ellipsis)."""
        self._text, self._hint = text, hint or Content("")
        width = self.content_region.width
        fits = not width or text.cell_length + self._hint.cell_length <= width
        self.update(text + self._hint if fits else text, layout=False)

    def on_resize(self) -> None:
        self.show(self._text, self._hint)
