"""Binding ids, keymap presets and the loader for user overrides."""

from __future__ import annotations

from keymaps.catalog import BY_ID, GROUPS, SPECS, BindingSpec, specs_for
from keymaps.display import short_key, short_keys
from keymaps.loader import (
    PRESETS,
    UNBOUND_KEY,
    Keymap,
    KeymapError,
    load_keymap,
    load_preset,
    usable_keymap,
    user_keymap_path,
)

__all__ = [
    "BY_ID",
    "GROUPS",
    "PRESETS",
    "UNBOUND_KEY",
    "SPECS",
    "BindingSpec",
    "Keymap",
    "KeymapError",
    "load_keymap",
    "load_preset",
    "short_key",
    "short_keys",
    "specs_for",
    "usable_keymap",
    "user_keymap_path",
]
