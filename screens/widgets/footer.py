"""The review screen's footer: the keys of the screen's shown bindings, in one widget.

Textual's Footer is a grid of one widget per key, each styled, laid out and rendered on its own,
and composed again after every focus change. KeysBar draws the same line as one piece of content,
in the Footer's colours, and again only when the keys it shows change. A click on a key presses
that key, as on the Footer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget

from keymaps import UNBOUND_KEY, short_key

if TYPE_CHECKING:
    from collections.abc import Iterable

    from textual.binding import ActiveBinding

#: what one key shows: (key, key as displayed, description, enabled)
Shown = tuple[str, str, str, bool]

#: binding ids shown at any width: a reviewer can always find help and the way out
PINNED = frozenset({"help", "quit"})


class KeysBar(Widget):
    """One line: ``key description`` per shown binding, the command palette key on the right."""

    ALLOW_SELECT = False
    DEFAULT_CSS = """
    KeysBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
        text-wrap: nowrap;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:  # Textual's name
        super().__init__(id=id)
        self._keys: tuple[Shown, ...] = ()
        self._palette: Shown | None = None
        self._spans: list[tuple[int, int, str]] = []  # (first cell, end cell, key) for clicks
        self._pinned: frozenset[str] = frozenset()  # the keys of the PINNED bindings

    def on_mount(self) -> None:
        self._bindings_changed(self.screen)
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _shown(
        self, screen: Screen[object], active: Iterable[tuple[str, ActiveBinding]]
    ) -> tuple[tuple[Shown, ...], Shown | None]:
        keys: list[Shown] = []
        actions: set[str] = set()
        palette: Shown | None = None
        app = self.app
        # in the order the screen declares them: a binding the keymap moved to another key comes
        # last in Textual's map
        declared = [b for b in type(screen).BINDINGS if isinstance(b, Binding) and b.id]
        order = {binding.id: n for n, binding in enumerate(declared)}
        ordered = sorted(active, key=lambda item: order.get(item[1].binding.id or "", len(order)))
        for key, (_node, binding, enabled, _tooltip) in ordered:
            if key == app.COMMAND_PALETTE_BINDING and app.ENABLE_COMMAND_PALETTE:
                palette = (key, self.key_display(key, binding), binding.description, enabled)
            elif key == UNBOUND_KEY:
                continue  # the reviewer's keymap leaves it unbound
            elif binding.show and binding.action not in actions:  # one key per action
                actions.add(binding.action)
                keys.append((key, self.key_display(key, binding), binding.description, enabled))
        return tuple(keys), palette

    @staticmethod
    def key_display(key: str, binding: Binding) -> str:
        """The key in its short form (``ctrl+p``, ``]``), as the help screen shows it."""
        return binding.key_display or short_key(key)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        # Textual builds `active_bindings` anew at each read (the focus chain's maps merged):
        # read once for both, at launch and at each focus change
        active = screen.active_bindings.items()
        shown = self._shown(screen, active)
        self._pinned = frozenset(key for key, bound in active if bound.binding.id in PINNED)
        if shown != (self._keys, self._palette):
            self._keys, self._palette = shown
            self.refresh()

    def _item(self, shown: Shown, *, compact: bool = False) -> Content:
        _key, display, description, enabled = shown
        key = display if compact else f" {display} "
        item = Content.assemble(
            (key, "bold $footer-key-foreground on $footer-key-background"),
            (f" {description} " if compact else f"{description} ", "$footer-description-foreground")
            if description
            else "",
        )
        return item if enabled else item.stylize("dim")

    def render(self) -> Content:
        width = self.size.width
        right = Content("")
        if self._palette is not None:
            right = Content.assemble(("▏", "$footer-description-foreground 60%"))
            right += self._item(self._palette)
        every = sum(self._item(shown).cell_length for shown in self._keys)
        # narrower: the palette's key (ctrl+p) goes first, then the spaces around the keys
        compact = every > width
        if every + right.cell_length > width:
            right = Content("")
        items = [(shown, self._item(shown, compact=compact)) for shown in self._keys]
        # the pinned keys (help, quit) are always shown; the others in order, as long as they fit
        room = max(0, width - right.cell_length)
        others = room - sum(item.cell_length for shown, item in items if shown[0] in self._pinned)
        left = Content("")
        self._spans = []
        fitting = True
        for shown, item in items:
            if shown[0] not in self._pinned:
                fitting = fitting and item.cell_length <= others
                if not fitting:
                    continue
                others -= item.cell_length
            start = left.cell_length
            self._spans.append((start, start + item.cell_length, shown[0]))
            left += item
        if self._palette is not None and right.cell_length:
            start = width - right.cell_length + 1
            self._spans.append((start, width, self._palette[0]))
        return (left + " " * max(0, room - left.cell_length) + right).truncate(width)

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
