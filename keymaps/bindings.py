"""Textual `Binding` objects built from the catalog, with the default preset's keys."""

from __future__ import annotations

from collections.abc import Iterable

from textual.binding import Binding, BindingType

from keymaps.catalog import BY_ID, specs_for
from keymaps.loader import UNBOUND_KEY, load_preset


def bindings(
    ids: Iterable[str],
    *,
    shown: bool | None = None,
    descriptions: dict[str, str] | None = None,
    actions: dict[str, str] | None = None,
) -> list[BindingType]:
    """Bindings of catalog ids; the app's keymap (App.set_keymap) remaps them by id.

    ``shown`` overrides the catalog's choice of what the footer shows; ``descriptions`` replace
    the catalog's descriptions of some ids, ``actions`` their actions (a screen that runs them
    through actions of its own).
    """
    keys = load_preset("default")
    made: list[BindingType] = []
    for binding_id in ids:
        spec = BY_ID[binding_id]
        description = (descriptions or {}).get(binding_id, spec.description)
        made.append(
            Binding(
                keys[binding_id] or UNBOUND_KEY,  # left unbound by default (vim's `gg`)
                (actions or {}).get(binding_id, spec.action),
                description,
                show=spec.show if shown is None else shown,
                id=binding_id,
                tooltip=description,
            )
        )
    return made


def bindings_for(context: str, actions: dict[str, str] | None = None) -> list[BindingType]:
    """The bindings of one screen (the catalog's ids for that context)."""
    return bindings((spec.id for spec in specs_for(context)), actions=actions)
