"""ctrl+p: the command palette, a dialog the app keeps between openings.

It lists the app's commands for the screen beneath (`App.get_system_commands`: Textual's and
the screen's own): before typing, those marked to be discovered, in the order given; typed,
every command whose title holds the query's characters in order, ranked by Textual's fuzzy
`Matcher`. A command's title and help are read as markup, as Textual's palette reads them
(whoever makes a command escapes the text it did not write), once per command.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.containers import Vertical
from textual.content import Content
from textual.fuzzy import Matcher
from textual.screen import Screen
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from keymaps.bindings import bindings_for
from screens.dialog import Dialog, back_to_top, dialog_css
from screens.widgets.dialog_lines import DialogLines
from screens.widgets.legible_options import LegibleOptionList

#: what the list says when no command's title holds the query
NO_MATCHES = Option(Content.styled("No matches found", "$text-muted"), disabled=True)
#: how matched characters of a title are drawn
MATCHED = "bold $text-accent"
#: the help under a title, as Textual's palette draws it: dimmed towards what is behind it (a
#: theme's muted text colour, ``auto 60%``, would be drawn white in an option's content)
HELP = "dim"
#: how Textual's palettes name what they search ("Search for themes…"): the status names it
SEARCH_FOR = re.compile(r"search for (?P<what>.+?)…?$", re.IGNORECASE)
#: matches listed at most: the list measures every option it is given, at every keystroke
LISTED = 50


def parsed(markup: str) -> Content:
    """A title or help as Textual's palette shows it (markup), parsed once."""
    # without a bracket there is no tag and no escape: the text is the content
    return Content.from_markup(markup) if "[" in markup else Content(markup)


class Entry:
    """One command as the palette lists it: its title and help parsed, what it is matched
    against, and its option drawn unhighlighted, each made when first needed."""

    __slots__ = ("_lower", "_option", "_title", "discover", "help", "title")

    def __init__(self, title: str, help_text: str, discover: bool) -> None:
        self.title = title  # markup, as given
        self.help = help_text
        self.discover = discover
        self._title: Content | None = None
        self._lower: str | None = None
        self._option: Option | None = None

    @property
    def content(self) -> Content:
        if self._title is None:
            self._title = parsed(self.title)
        return self._title

    @property
    def lower(self) -> str:
        """The title as it reads (its markup applied), in lower case: what a query matches."""
        if self._lower is None:
            self._lower = self.content.plain.lower()
        return self._lower

    def prompt(self, title: Content | None = None) -> Content:
        """The option's text: the title (``title``: highlighted), the help dimmer under it."""
        shown = self.content if title is None else title
        if not self.help:
            return shown
        return Content.assemble(shown, "\n", parsed(self.help).stylize_before(HELP))

    @property
    def option(self) -> Option:
        if self._option is None:
            self._option = Option(self.prompt())
        return self._option

    def highlighted(self, offsets: Sequence[int]) -> Option:
        """Its option with the title's characters at ``offsets`` marked (offsets in `lower`)."""
        title = self.content
        if len(self.lower) == len(title.plain):  # (lower case did not move the characters)
            for offset in offsets:
                if not title.plain[offset].isspace():
                    title = title.stylize(MATCHED, offset, offset + 1)
        return Option(self.prompt(title))


def in_order(query: str) -> re.Pattern[str]:
    """A pattern matching the start of every text that holds the query's characters in order:
    what the fuzzy matcher can score above nothing (it is slower, and asked only about what
    this finds). Each character is taken at its first place after the one before, without
    going back (possessive), so that a text is read once."""
    return re.compile("".join(f"[^{char}]*+{char}" for char in map(re.escape, query)))


def matches(query: str, entries: Sequence[Entry]) -> list[tuple[Entry, Sequence[int]]]:
    """Every entry whose title matches ``query`` (not empty), best first (ties in the order
    given), with the offsets matched."""
    wanted = query.lower()
    search = in_order(wanted).match
    fuzzy = Matcher(query).fuzzy_search
    scored: list[tuple[float, Entry, Sequence[int]]] = []
    for entry in entries:
        if search(entry.lower) is not None:
            score, offsets = fuzzy.match(wanted, entry.lower)
            if score > 0:
                scored.append((score, entry, offsets))
    scored.sort(key=lambda each: -each[0])  # stable: ties keep the order given
    return [(entry, offsets) for _score, entry, offsets in scored]


class Palette(Dialog[None]):
    """Type to find a command; enter (or a click) closes the palette, then runs it; escape
    closes. The screen beneath is the one whose commands it lists."""

    DEFAULT_CSS = dialog_css(__file__)
    BINDINGS = [
        *bindings_for("dialog"),
        Binding("down", "list('cursor_down')", "Next", show=False, id="palette_next"),
        Binding("up", "list('cursor_up')", "Previous", show=False, id="palette_previous"),
        Binding("pagedown", "list('page_down')", "Page down", show=False, id="palette_page_down"),
        Binding("pageup", "list('page_up')", "Page up", show=False, id="palette_page_up"),
        # above the field's own home and end (its ctrl+a and ctrl+e still move its cursor)
        Binding("home", "list('first')", "First", show=False, id="palette_first", priority=True),
        Binding("end", "list('last')", "Last", show=False, id="palette_last", priority=True),
    ]

    def __init__(self, beneath: Screen[Any]) -> None:
        super().__init__()
        self.beneath = beneath
        self.entries: list[Entry] = []
        self.callbacks: list[Callable[[], object]] = []  # each entry's, from the last gathering
        self.shown: list[int] = []  # the entries listed, by index
        self._listed: tuple[tuple[str, str, bool], ...] = ()  # what the entries were made of
        self._query = ""  # the query the list shows

    def compose(self) -> ComposeResult:
        with Vertical(classes="lookup-dialog") as box:
            box.border_title = "Commands"
            yield Input(placeholder="Search for commands…", id="palette-input")
            yield LegibleOptionList(id="palette-list")

    def on_mount(self) -> None:
        self._gather()
        self.query_one(Input).focus()
        self._show("")

    def reopen(self, beneath: Screen[Any]) -> None:
        self.beneath = beneath
        changed = self._gather()
        field, results = self.query_one(Input), self.query_one(OptionList)
        if not changed and not self._query:
            back_to_top(field, results, "", bool(self.shown))
            return
        self._query = ""
        field.value = ""  # (its Changed asks for the list shown below: ignored, as listed)
        self._show("")
        results.scroll_home(animate=False, immediate=True)
        field.focus()

    def _gather(self) -> bool:
        """Ask for the commands again (they can depend on the screen's state); True when their
        titles, help or discovery changed, and the entries were made again."""
        commands: list[SystemCommand] = list(self.app.get_system_commands(self.beneath))
        self.callbacks = [command.callback for command in commands]
        listed = tuple((command.title, command.help, command.discover) for command in commands)
        if listed == self._listed:
            return False
        known = {(entry.title, entry.help, entry.discover): entry for entry in self.entries}
        self.entries = [known.get(each) or Entry(*each) for each in listed]
        self._listed = listed
        return True

    def _show(self, query: str) -> None:
        self._query = query
        results = self.query_one(OptionList)
        wanted = query.strip()
        subtitle = ""
        if not wanted:
            self.shown = [n for n, entry in enumerate(self.entries) if entry.discover]
            results.set_options(self.entries[n].option for n in self.shown)
        else:
            index = {id(entry): n for n, entry in enumerate(self.entries)}
            found = matches(wanted, self.entries)
            self.shown = [index[id(entry)] for entry, _offsets in found[:LISTED]]
            results.set_options(
                [entry.highlighted(offsets) for entry, offsets in found[:LISTED]] or [NO_MATCHES]
            )
            if len(found) > LISTED:
                subtitle = f"best {LISTED} of {len(found):,}: type more"
        results.highlighted = 0 if self.shown else None
        self.query_one(".lookup-dialog").border_subtitle = subtitle

    @on(Input.Changed, "#palette-input")
    def _changed(self, event: Input.Changed) -> None:
        if event.value != self._query:  # not what the list shows already (a reopening's "")
            self._show(event.value)

    @on(Input.Submitted, "#palette-input")
    def _submitted(self) -> None:
        highlighted = self.query_one(OptionList).highlighted
        if highlighted is not None and highlighted < len(self.shown):
            self._run(self.shown[highlighted])

    @on(OptionList.OptionSelected, "#palette-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_index < len(self.shown):
            self._run(self.shown[event.option_index])

    def _run(self, entry: int) -> None:
        # as Textual's palette: the command runs once the palette is gone, so that one opening
        # another dialog opens it over the screen beneath
        callback = self.callbacks[entry]
        self.dismiss()
        self.app.call_later(callback)

    def action_list(self, action: str) -> None:
        """Move in the list (an OptionList action) while the field keeps the focus."""
        if self.shown:
            getattr(self.query_one(OptionList), f"action_{action}")()

    def action_close(self) -> None:
        self.dismiss()


class ThemePicker(CommandPalette):
    """Textual's theme picker, its `esc` named as every dialog of assay's names it (Textual's
    says "Exit the command palette" though this palette only picks a theme)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "escape", "Close")]

    def __init__(self) -> None:
        from textual.theme import ThemeProvider

        super().__init__(providers=[ThemeProvider], placeholder="Search for themes…")


def textual_palette_status(palette: CommandPalette) -> Content:
    """What typing acts on in one of Textual's own palettes (the theme picker): what it
    searches, named by its field's placeholder as `Dialog.status` names a dialog by its title."""
    fields = palette.query(Input)
    placeholder = fields.first().placeholder if fields else ""
    said = SEARCH_FOR.match(placeholder.strip())
    named = said["what"].capitalize() if said is not None else "the command palette"
    return Content.assemble("typing → ", named)


def cover_lines(palette: CommandPalette) -> None:
    """Give one of Textual's own palettes the lines a `Dialog` has (`DialogLines`): beneath it,
    the review's status line and keys say `c` confirms, while `c` types into its search."""
    if palette.is_attached and not palette.query(DialogLines):
        palette.mount(DialogLines(textual_palette_status(palette)))
