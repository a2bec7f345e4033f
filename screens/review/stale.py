"""The review's stale verdicts: listed (screens/stale.py) on a key, gone to, cleared.

Made at the key's first press (nothing of it before the first frame). A verdict cleared is a
change of the session like a verdict given: an event on the writer thread, undone by `z`.
`state.restale` keeps the list true as events come back (a clear, its undo, a verdict carried).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from keymaps import Keymap, short_keys
from screens.dialog import kept
from screens.review.history import Location
from screens.review.replies import Noted, Target
from screens.safe import visible
from screens.stale import Stale, StaleScreen

if TYPE_CHECKING:
    from textual.screen import Screen

    from screens.review.navigation import Navigation
    from screens.review.state import ReviewState
    from screens.review.verdicts import Verdicts


class StaleList:
    """The stale verdicts' dialog, for the review screen."""

    def __init__(
        self,
        state: ReviewState,
        screen: Screen[None],
        verdicts: Verdicts,
        moves: Navigation,
        keymap: Keymap,
    ) -> None:
        self.state, self.session, self.screen = state, state.session, screen
        self.verdicts, self.moves = verdicts, moves
        self.undo_keys = short_keys(keymap.keys_for("undo"))

    def rows(self) -> list[Stale]:
        """The stale verdicts as the dialog lists them, each with its record if still here."""
        rows = []
        for stale in self.state.stale:
            event = stale.event
            was = self.state.gone.get(event.item, (stale.reason, None))[1]
            here = self.session.records_with_key(event.ref.record_key)
            index = here[0] if here else None
            quote = None  # the quote at the old one's place, where the record still has one
            if index is not None and was is not None and was.quote_index is not None:
                quotes = self.session.records[index].quotes
                quote = min(was.quote_index, len(quotes) - 1) if quotes else None
            what = was.what if was is not None else ""
            rows.append(Stale(event, stale.reason, what, index, quote))
        return rows

    def open(self) -> None:
        """List the stale verdicts; go to the record of the one chosen."""
        if not self.state.verdicts_read:
            self.screen.notify("the verdicts are still being read", timeout=3)
            return

        def chosen(stale: Stale | None) -> None:
            if stale is not None and stale.here is not None:
                # the edited quote selected, as after `]`: a verdict on it is one key away
                self.moves.reach(Location(stale.here, stale.quote))

        self.screen.app.push_screen(
            kept(self.screen.app, StaleScreen, self.rows(), self.clear), chosen
        )

    def clear(self, stale: Stale) -> bool:
        """Leave a stale verdict's item unreviewed (a change `z` undoes); False when it cannot
        be saved (the store unusable: said)."""
        revision = self.verdicts.revision_id()
        if self.verdicts.refuse_unusable_store():
            return False
        event, reviewer = stale.event, self.session.reviewer
        where = Location(stale.here, None) if stale.here is not None else self.state.location
        what = stale.what or ("a quote" if event.quote is not None else "the record")
        target = Target(event.ref, f"{event.record}, {what}", where)
        item = event.ref
        if not self.verdicts.write(
            lambda store: store.clear(item, reviewer=reviewer, revision=revision), Noted(target)
        ):
            return False
        back = f"{self.undo_keys} brings it back" if self.undo_keys else "undo brings it back"
        was = event.verdict.value if event.verdict else "a note"
        said = f"stale verdict cleared: {target.label}, {was} (its history keeps it; {back})"
        self.screen.notify(visible(said), markup=False, timeout=5)
        return True
