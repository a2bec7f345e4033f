"""Textual `Binding` objects built from the catalog, with the default preset's keys."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from keymaps.catalog import specs_for
from keymaps.loader import load_preset


def bindings_for(context: str) -> list[BindingType]:
    """The bindings of one screen; the app's keymap (App.set_keymap) remaps them by id."""
    keys = load_preset("default")
    return [
        Binding(
            keys[spec.id],
            spec.action,
            spec.description,
            show=spec.show,
            id=spec.id,
            tooltip=spec.description,
        )
        for spec in specs_for(context)
    ]
