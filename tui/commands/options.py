"""Options several commands share, written once (``--repo`` is in repository.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

F = TypeVar("F", bound=Callable[..., object])


def keymap_option(function: F) -> F:
    """``--keymap PRESET`` (None when not given: keymap.toml's preset, else default)."""
    from keymaps.loader import PRESETS  # here: a command without the option does not load keymaps

    return click.option(
        "--keymap",
        "preset",
        type=click.Choice(PRESETS),
        default=None,
        help="Key preset (default: keymap.toml in the config directory, else default).",
    )(function)


def audit_option(function: F) -> F:
    """``--audit FILE``: the audit file (default: assay.toml here, when no REPORT is given)."""
    return click.option(
        "--audit",
        "audit_file",
        default=None,
        type=click.Path(dir_okay=False),
        help="The audit file naming the systems (default, without REPORT: ./assay.toml).",
    )(function)


def system_option(function: F) -> F:
    """``--system NAME`` (repeatable): only these of the audit's systems (default: all)."""
    return click.option(
        "--system",
        "system_names",
        multiple=True,
        metavar="NAME",
        help="With --audit: only this system (repeatable; default: every system).",
    )(function)


def reviewer_option(function: F) -> F:
    """``--reviewer NAME``."""
    return click.option(
        "--reviewer", default=None, help="Reviewer name (default: git user.name, login)."
    )(function)


def against_option(function: F) -> F:
    """``--against REV``: drift of every quote to a newer revision."""
    return click.option(
        "--against",
        default=None,
        metavar="REV",
        help="Show what became of each quote at REV (commit, tag, branch): drift badges, a filter.",
    )(function)


def db_option(function: F) -> F:
    """``--db FILE``: the verdict database (None when not given: the default one)."""
    from db.check import default_path  # here: a command without the option does not load db/

    return click.option(
        "--db",
        "db_path",
        # a directory is refused by the store, with its own message
        type=click.Path(dir_okay=True, path_type=Path),
        default=None,
        help=f"verdict database file [default: {default_path()}]",
    )(function)


def text_or_json_option(*names: str, help: str | None = None) -> Callable[[F], F]:
    """``--format text|json`` (default text), under the parameter name in ``names`` (and a
    short option, if one is given there)."""
    return click.option(
        "--format",
        *names,
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help=help,
    )
