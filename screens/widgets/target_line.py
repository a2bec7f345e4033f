"""The status line above the keys: what a verdict key acts on now, before it is pressed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from rich.cells import cell_len
from textual.content import Content
from textual.widgets import Static

from evidence.model import Quote, Record
from evidence.sarif.triage import only_location
from screens.safe import visible
from screens.session import ReviewSession
from screens.widgets.badges import lines_text
from screens.widgets.cut import cut_path
from screens.widgets.record_pane import verdict_word
from screens.widgets.records_pane import cut_id
from screens.widgets.truecolor import TruecolorOnly

#: the columns a name (the quote's path, the record id) keeps before the hint after the
#: verdict gives way; below it the names are cut further, to keep the verdict in view
NAME_FLOOR = 16
#: the fewest columns a name is cut to: its first and last characters around the ellipsis
NAME_LEAST = 5
#: the columns the line's short beginning (``→ ``) saves over ``verdict keys → ``
SHORT_SAVES = 13


class TargetName(NamedTuple):
    """What verdict keys act on, as the status line names it, in parts: on a narrow line the
    names (the quote's path and lines, the record id) are cut in the middle before the verdict
    after them is cut off (`fitted`): the panes' titles show them whole, the verdict is the
    line's own."""

    what: Content  # ``quote [2] `` (and that it is a result's only location) or ``record ``
    where: str  # the quote's path and lines ("" on the record), made visible
    record_id: str  # made visible
    verdict: Content
    noted: bool


def target_name(
    session: ReviewSession,
    record: Record | None,
    quote: Quote | None,
    waiting: Mapping[str, str] | None = None,
) -> TargetName | None:
    """The quote (when selected) or the record that verdict keys act on; None: no record.
    ``waiting``: item keys whose change (a verdict word, "note") the store has not taken yet,
    said after the verdict stored."""
    if record is None:
        return None
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
        )
    else:
        item = session.record_item(record)
        what, where = Content.styled("record ", "bold"), ""
    verdict = verdict_word(session.verdict(item))
    if waiting and item.key in waiting:
        verdict += Content.styled(f" → {waiting[item.key]}: not saved yet", "$text-warning")
    return TargetName(what, visible(where), visible(record.id), verdict, bool(session.note(item)))


def target_text(
    name: TargetName, room: tuple[int, int] | None = None, *, short: bool = False
) -> Content:
    """``verdict keys → quote [2] worker/src/retry.js:3-4 of KS-… · refuted ✎ note`` or
    ``→ record KS-…``; ``room``: the columns the path and the record id are cut to; ``short``:
    the line begins with the arrow alone (a line too narrow for the words)."""
    where, record_id = name.where, name.record_id
    if room is not None:
        where, record_id = cut_path(where, room[0]), cut_id(record_id, room[1])
    if name.where:
        named = Content.assemble((where, "$text-primary"), (f" of {record_id}", "$text-muted"))
    else:
        named = Content.styled(record_id, "bold $text-primary")
    return Content.assemble(
        ("→ " if short else "verdict keys → ", "$text-muted"),
        name.what,
        named,
        " · ",
        name.verdict,
        (" ✎ note" if name.noted else "", "$text-warning"),
    )


def names_room(name: TargetName, over: int) -> tuple[int, int]:
    """The columns of the path and the record id once ``over`` columns are taken from them,
    from the longer first (neither below `NAME_LEAST`)."""
    where = cell_len(name.where) if name.where else 0
    record_id = cell_len(name.record_id)
    for _ in range(over):
        if where >= record_id and where > NAME_LEAST:
            where -= 1
        elif record_id > NAME_LEAST:
            record_id -= 1
        else:
            break
    return where, record_id


def fitted(name: TargetName, hint: Content, width: int) -> Content:
    """The status line in ``width`` columns: the names cut in the middle, down to `NAME_FLOOR`,
    to keep the hint after the verdict; then the hint left out and the names cut further; the
    verdict is the last to go."""
    whole = target_text(name)
    over = whole.cell_length + hint.cell_length - width
    if not width or over <= 0:
        return whole + hint
    room, full = names_room(name, over), names_room(name, 0)
    if all(cut >= min(NAME_FLOOR, was) for cut, was in zip(room, full, strict=True)):
        return target_text(name, room) + hint
    over = whole.cell_length - width
    if over <= 0:
        return whole
    cut = target_text(name, names_room(name, over))
    if cut.cell_length <= width:
        return cut
    # the names at their least and still too long (40 columns): the words before the arrow go
    # before the verdict does
    return target_text(name, names_room(name, over - SHORT_SAVES), short=True)


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

    _said: TargetName | Content = Content("")
    _hint = Content("")

    def show(self, said: TargetName | Content | None, hint: Content | None = None) -> None:
        """Show what the keys act on (a text said as it is: nothing), and ``hint`` after it
        when the line has room for both (rather than cut to an ellipsis)."""
        self._said, self._hint = said if said is not None else Content(""), hint or Content("")
        self.update(self._fitted(), layout=False)

    def _fitted(self) -> Content:
        width = self.content_region.width
        said, hint = self._said, self._hint
        if isinstance(said, TargetName):
            return fitted(said, hint, width)
        fits = not width or said.cell_length + hint.cell_length <= width
        return said + hint if fits else said

    def on_resize(self) -> None:
        self.update(self._fitted(), layout=False)
