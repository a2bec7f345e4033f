"""`t` on a quote not anchored at the cited revision (its file not there, or its text not in it):
the quote looked for at REV, in a worker, as anchoring looks at the cited revision (its file
first, then every other file). A report written at a later revision than it states shows itself
so: its quotes are at REV."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from screens.review.messages import QuoteAtRev

if TYPE_CHECKING:
    from evidence.anchoring.anchorer import Anchorer
    from evidence.model import Anchor, LineRange, Quote
    from evidence.revision import Revision
    from screens.review.state import Part


class RevQuotes:
    """The quotes not anchored at the cited revision, each looked for at REV once asked for
    (the part given gets `QuoteAtRev` back)."""

    def __init__(self, part: Part) -> None:
        self.part = part
        self.anchors: dict[Quote, Anchor | None] = {}  # None: it could not be looked for
        self._looking: Quote | None = None
        # REV's anchorer, kept for the next quote: its word index over REV is built once
        self._anchorer: Anchorer | None = None

    def clear(self) -> None:
        """Another REV: nothing looked for there yet."""
        self.anchors, self._looking, self._anchorer = {}, None, None

    def _anchorer_at(self, against: Revision) -> Anchorer:
        """REV's anchorer (in the worker: one quote is looked for at a time)."""
        from evidence.anchoring.anchorer import Anchorer

        if self._anchorer is None or self._anchorer.revision is not against:
            self._anchorer = Anchorer(against, workers=1)
        return self._anchorer

    def look(self, quote: Quote, against: Revision) -> str | None:
        """What the source pane says at REV of ``quote`` until it is shown (looked for in a
        worker, once); None when it was found (where: `place`)."""
        if quote in self.anchors:
            if self.place(quote) is not None:
                return None
            return "the quote is not here either (nor at the cited revision)"
        if self._looking is None:
            self._looking = quote

            def work() -> None:
                try:
                    anchor: Anchor | None = self._anchorer_at(against).anchor(quote)
                except Exception:  # said as not found: the pane never shows a traceback
                    anchor = None
                self.part.post_message(QuoteAtRev(against.commit, quote, anchor))

            self.part.screen.run_worker(work, thread=True, group="follow", exit_on_error=False)
        return "looking for the quote here…"

    def keep(self, message: QuoteAtRev) -> None:
        self._looking = None
        self.anchors[message.quote] = message.anchor

    def place(self, quote: Quote) -> tuple[str, LineRange, str] | None:
        """Where ``quote`` is at REV, if found (`found_place`): path, lines and how (``exact``,
        ``fuzzy 87``, ``exact in another file``)."""
        from evidence.drift_found import found_place

        anchor = self.anchors.get(quote)
        found = found_place(quote, anchor) if anchor is not None else None
        if anchor is None or found is None:
            return None
        how = found.match.value
        if anchor.elsewhere and found == anchor.elsewhere[0]:
            how += " in another file"
        elif how == "fuzzy":
            how += f" {anchor.score:.0f}"
        return found.path, found.lines, how

    def phrase(self, quote: Quote, short: str) -> str:
        """The line under the source: what is known of ``quote`` at REV (``short``); empty
        before it is looked for."""
        place = self.place(quote)
        if place is not None:
            return f"  + at {short}: {place[2]}"
        return f"  not at {short} either" if quote in self.anchors else ""


def rev_phrase(said: str, key: str, at_rev: bool) -> Content:
    """The line under the source for what is known at REV only: ``said`` (in the colour of
    what is there when it begins ``  +``) and what ``key`` (`t`) does from here."""
    hint = (f", {key}: back" if at_rev else f", {key}: see it") if key else ""
    style = "$text-success" if said.startswith("  +") else "$text-muted"
    return Content.assemble((said, style), (hint, "$text-muted"))
