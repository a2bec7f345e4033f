"""A SARIF result in one line: rule, ``file:line`` and message, cut to the width it is drawn at.

A scan's results of one rule share their message; what tells them apart is where they are, so
the message gives way first, then the path's directories, then a long rule id (to its last
part), then the file's name (its line stays). The records list draws its rows with it (without
the rule under a heading that names it), and `/` its results (`FittedRow`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from rich.cells import cell_len
from textual.content import Content
from textual.visual import Visual

from screens.widgets.cut import cut, keep_cells

if TYPE_CHECKING:
    from textual.css.styles import RulesMap
    from textual.strip import Strip
    from textual.style import Style
    from textual.visual import RenderOptions

#: the message's first words a result's line keeps before its path loses its directories
MESSAGE_ROOM = 16
#: the last part of a rule id that is a path of names (Semgrep's ``python.lang.security.x``,
#: CodeQL's ``py/sql-injection``, Sonar's ``python:S1234``): the part that names the rule
_LAST_PART = re.compile(r"[./:]([^./:\s]+)$")


def shortened(rule: str, room: int) -> str:
    """A rule id in ``room`` cells: whole when it fits, else its last part after an ellipsis
    (``…subprocess-shell-true``); even that too long, cut at its end, or at its start when it
    ends in digits (``…AWS_293``: numbered ids, CKV_AWS_293 and CKV_AWS_226, differ there).
    Words before the id (an audit's system name) are kept while it fits."""
    if cell_len(rule) <= room:
        return rule
    head, space, last = rule.rpartition(" ")
    named = _LAST_PART.search(last)
    if named is not None:
        rule = head + space + "…" + named.group(1)
        if cell_len(rule) <= room:
            return rule
    if last[-1:].isdigit():
        return "…" + keep_cells(last[::-1], max(room - 1, 1))[::-1]
    return keep_cells(rule, max(room - 1, 1)) + "…"


class ResultLine(NamedTuple):
    """What a result's line says (each already made visible: no control characters)."""

    rule: str  # "" under a heading that names it
    place: str  # ``api/server.py:63``, or the path alone ("" for a result with no location)
    message: str

    def content(self, room: int | None = None) -> Content:
        """The line in ``room`` columns (None: uncut)."""
        rule, place, message = self.rule, self.place, self.message
        if room is not None:  # measured in cells: a path or message may be in wide characters
            base = place.rsplit("/", 1)[-1]
            wanted = room - min(cell_len(message), MESSAGE_ROOM)
            for shorter in ("…/" + base, base):  # the file and line, whole, before directories
                if place == base or cell_len(rule) + cell_len(place) + 2 <= wanted:
                    break
                place = shorter
            if rule:  # a long id gives way before the file's name, to at most half the line
                rule = shortened(rule, max(room - 1 - cell_len(place), room // 2))
            name, colon, line = place.rpartition(":")
            keep = room - (cell_len(rule) + 1 if rule else 0) - len(colon + line)
            if colon and line.isdigit() and cell_len(name) > keep:  # the line before the name
                place = keep_cells(name, max(keep - 1, 1)) + "…" + colon + line
            if keep - cell_len(name) < 4:  # no room for a word of the message: none, not "U…"
                message = ""
        said = Content.assemble(
            (rule, "bold"), " " if rule else "", place, " " if message else "", message
        )
        if room is not None and said.cell_length > max(room, 8):
            said = cut(said, max(room, 8), pad=True)
        return said

    def __str__(self) -> str:
        return str(self.content())


class FittedRow(Visual):
    """An option's prompt of one line: a mark, then a result's line cut to the width drawn at
    (an OptionList draws its options again at each resize)."""

    def __init__(self, mark: Content, result: ResultLine) -> None:
        self.mark, self.result = mark, result

    def content(self, width: int | None = None) -> Content:
        """The row in ``width`` columns (None: uncut)."""
        room = None if width is None else width - self.mark.cell_length
        row = Content.assemble(self.mark, self.result.content(room))
        return row if width is None else cut(row, width)

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return self.content(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.content().cell_length

    def get_height(self, rules: RulesMap, width: int) -> int:
        return 1

    def __str__(self) -> str:
        return str(self.content())
