"""Which Pygments lexer reads a file, by its name (shared by the source pane and `assay show`)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pygments.lexer import Lexer


@lru_cache(maxsize=256)
def lexer_for(path: str) -> Lexer:
    """The lexer for a file name (plain text when Pygments knows none); lines kept as given."""
    from pygments.lexers import get_lexer_for_filename
    from pygments.lexers.special import TextLexer
    from pygments.util import ClassNotFound

    try:
        return get_lexer_for_filename(path, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)
