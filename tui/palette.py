"""The command palette as the app opens it (ctrl+p), in a module of its own: the dialogs' code it
mixes in is loaded when the palette first opens, not before the app's first frame."""

from __future__ import annotations

from textual.command import CommandPalette

from screens.dialog import TintedOnce


class Palette(TintedOnce, CommandPalette):
    """Textual's command palette over the screen beneath drawn once per change of it."""
