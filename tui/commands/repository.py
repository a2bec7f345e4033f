"""``--repo``: the option every command that reads a repository takes, and its default.

Without ``--repo`` a command reads the repository containing the current directory, found as git
finds it (searching parent directories; evidence/git/repo.py `find_repository`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

from evidence.git.process import RevisionError

__all__ = ["REPO_HELP", "repo_option", "repository"]

F = TypeVar("F", bound=Callable[..., object])

REPO_HELP = (
    "The git repository to read (work tree or bare; default: the repository containing the "
    "current directory)."
)


def repo_option(help: str = REPO_HELP) -> Callable[[F], F]:  # click's word
    """The ``--repo PATH`` option (None when not given: `repository` finds the default)."""
    return click.option("--repo", "repo", default=None, type=click.Path(), help=help)


def repository(repo: str | None) -> str:
    """``--repo`` as given, else the top of the repository containing the current directory;
    RevisionError (saying to pass --repo) when there is none."""
    if repo is not None:
        return repo
    from evidence.git.repo import find_repository

    here = Path.cwd()
    try:
        return str(find_repository(here))
    except RevisionError:
        raise RevisionError(
            f"no --repo given and {here} is not inside a git repository "
            "(its parent directories searched too): pass --repo PATH"
        ) from None
