"""Textual `Binding` objects built from the catalog, with the default preset's keys."""

from __future__ import annotations

from functools import cache

from textual.binding import Binding, BindingType

from keymaps.catalog import specs_for
from keymaps.loader import load_preset


@cache
def _default_keys() -> dict[str, str]:
    return load_preset("default")


def bindings_for(context: str) -> list[BindingType]:
    """The bindings of one screen; the app's keymap (App.set_keymap) remaps them by id."""
    keys = _default_keys()
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
