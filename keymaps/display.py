"""Keys as every part of assay shows them: the short form, ``ctrl+]`` for Textual's
``ctrl+right_square_bracket``, ``⏎`` for ``enter``, ``/`` for ``slash``."""

from __future__ import annotations

from collections.abc import Iterable

#: shown for a binding id the keymap leaves unbound
UNBOUND_TEXT = "(unbound)"


def short_key(key: str) -> str:
    """One Textual key name in its short form: modifiers kept as words, the key as its symbol."""
    # here: `keymaps` is imported by commands before they may import textual (tui.startup)
    from textual.keys import format_key

    *modifiers, name = key.split("+")
    return "+".join([*modifiers, format_key(name)])


def short_keys(keys: Iterable[str], separator: str = " / ") -> str:
    """Several keys in their short form, e.g. ``⏎ / ctrl+]``."""
    return separator.join(short_key(key) for key in keys)
