"""The review screen's footer: Textual's Footer, drawn in the first frame and rebuilt only when the
keys it shows change.

Textual's Footer composes nothing until the screen's bindings are first reported, then rebuilds
all its key widgets after every focus change. The review screen's keys are the same whichever pane
has focus, so that rebuild (a dozen widgets mounted and laid out again) was pure cost: after the
first frame, and on every tab between panes.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class StableFooter(Footer):
    """A Footer that shows its keys from the start and recomposes only when they change."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.set_reactive(Footer._bindings_ready, True)
        self._shown: tuple[object, ...] | None = None

    def _keys_shown(self, screen: Screen[object]) -> tuple[object, ...]:
        """What the footer draws from the screen's active bindings (and the palette key)."""
        bindings = screen.active_bindings
        shown = [
            (key, binding.description, binding.action, enabled, tooltip)
            for key, (_node, binding, enabled, tooltip) in bindings.items()
            if binding.show
        ]
        palette = bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is not None:
            shown.append(("palette", palette[1].description, palette[2], palette[3]))
        return tuple(shown)

    def compose(self):  # type: ignore[no-untyped-def]
        self._shown = self._keys_shown(self.screen)
        yield from super().compose()

    def bindings_changed(self, screen: Screen[object]) -> None:
        if self._shown is not None and self._keys_shown(screen) == self._shown:
            return
        super().bindings_changed(screen)
