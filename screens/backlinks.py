"""Backlinks: the records that quote (or cite) the open file, and where; enter jumps to one."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from evidence.backlinks import Backlink
from screens.dialog import Dialog, dialog_css
from screens.safe import visible
from screens.widgets.legible_options import LegibleOptionList


def _cites(source: str) -> str:
    # a file a Markdown report names in its prose is cited with no source
    return f"cites it ({source})" if source else "names it"


def backlink_content(link: Backlink) -> Content:
    """One row: lines, record id, label and how the quote matched, all as data."""
    if link.quote is None:  # cites the file without quoting it
        return Content.assemble(
            (f"{'cited':>9}", "$text-accent"),
            "  ",
            (visible(link.record), "bold $accent"),
            *(["  ", visible(link.label)] if link.label else []),
            (
                "  [" + visible(f"{_cites(link.source)}, quotes nothing from it") + "]",
                "$text-muted",
            ),
        )
    if link.lines is None:
        where = ("not found", "$text-error")
    else:
        first, last = link.lines
        where = (f"{first}" if first == last else f"{first}-{last}", "$success")
    how = link.match.value if link.cited else f"{link.match.value}, cites {link.quote.path}"
    pieces: list[tuple[str, str] | str] = [
        (f"{where[0]:>9}", where[1]),
        "  ",
        (visible(link.record), "bold $accent"),
    ]
    if link.label:
        pieces += ["  ", visible(link.label)]
    pieces += ["  ", (f"[{visible(how)}]", "$text-muted")]
    return Content.assemble(*pieces)


class BacklinksScreen(Dialog[Backlink | None]):
    """The quotes of loaded records that cite (or are found in) one file."""

    DEFAULT_CSS = dialog_css(__file__, "backlinks.tcss")
    BINDINGS = [Binding("escape,q", "close", "Close", id="close_dialog", tooltip="Close")]

    def __init__(self, links: Sequence[Backlink], *, path: str) -> None:
        super().__init__()
        self.links = list(links)
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical(id="backlinks-box") as box:
            box.border_title = Content(f"Backlinks · {visible(self.path)}")
            if self.links:
                yield LegibleOptionList(
                    *(Option(backlink_content(link)) for link in self.links),
                    id="backlinks-list",
                )
            else:
                yield Label(
                    Content("no loaded record quotes or cites this file"), id="backlinks-empty"
                )

    def on_mount(self) -> None:
        if self.links:
            options = self.query_one("#backlinks-list", OptionList)
            options.highlighted = 0
            options.focus()

    @on(OptionList.OptionSelected, "#backlinks-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.links[event.option_index])

    def action_close(self) -> None:
        self.dismiss(None)
