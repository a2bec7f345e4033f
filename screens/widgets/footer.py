"""The review screen's footer: the keys of the screen's shown bindings, in one widget.

Textual's Footer is a grid of one widget per key, each styled, laid out and rendered on its own,
and composed again after every focus change. KeysBar draws the same line as one piece of content,
in the Footer's colours, and again only when the keys it shows change. A click on a key presses
that key, as on the Footer.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget

from keymaps import UNBOUND_KEY

#: what one key shows: (key, key as displayed, description, enabled)
Shown = tuple[str, str, str, bool]


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

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._keys: tuple[Shown, ...] = ()
        self._palette: Shown | None = None
        self._spans: list[tuple[int, int, str]] = []  # (first cell, end cell, key) for clicks

    def on_mount(self) -> None:
        self._keys, self._palette = self._shown(self.screen)
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _shown(self, screen: Screen[object]) -> tuple[tuple[Shown, ...], Shown | None]:
        keys: list[Shown] = []
        actions: set[str] = set()
        palette: Shown | None = None
        app = self.app
        active = screen.active_bindings.items()
        # in the order the screen declares them: a binding the keymap moved to another key comes
        # last in Textual's map
        declared = [b for b in type(screen).BINDINGS if isinstance(b, Binding) and b.id]
        order = {binding.id: n for n, binding in enumerate(declared)}
        ordered = sorted(active, key=lambda item: order.get(item[1].binding.id or "", len(order)))
        for key, (_node, binding, enabled, _tooltip) in ordered:
            if key == app.COMMAND_PALETTE_BINDING and app.ENABLE_COMMAND_PALETTE:
                palette = (key, app.get_key_display(binding), binding.description, enabled)
            elif key == UNBOUND_KEY:
                continue  # the reviewer's keymap leaves it unbound
            elif binding.show and binding.action not in actions:  # one key per action
                actions.add(binding.action)
                keys.append((key, app.get_key_display(binding), binding.description, enabled))
        return tuple(keys), palette

    def _bindings_changed(self, screen: Screen[object]) -> None:
        shown = self._shown(screen)
        if shown != (self._keys, self._palette):
            self._keys, self._palette = shown
            self.refresh()

    def _item(self, shown: Shown) -> Content:
        _key, display, description, enabled = shown
        item = Content.assemble(
            (f" {display} ", "bold $footer-key-foreground on $footer-key-background"),
            (f"{description} " if description else "", "$footer-description-foreground"),
        )
        return item if enabled else item.stylize("dim")

    def render(self) -> Content:
        width = self.size.width
        right = Content("")
        if self._palette is not None:
            right = Content.assemble(("▏", "$footer-description-foreground 40%"))
            right += self._item(self._palette)
        room = max(0, width - right.cell_length)
        left = Content("")
        self._spans = []
        for shown in self._keys:
            item = self._item(shown)
            if left.cell_length + item.cell_length > room:
                break
            start = left.cell_length
            self._spans.append((start, start + item.cell_length, shown[0]))
            left += item
        if self._palette is not None:
            start = width - right.cell_length + 1
            self._spans.append((start, width, self._palette[0]))
        return left + " " * max(0, room - left.cell_length) + right

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
