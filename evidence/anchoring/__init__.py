"""Where a quote really is at a revision: tier, lines, every occurrence, and where else it occurs.

One module per reason to change:

- normalize.py: what a quote is once Markdown damage is undone (also used by db/keys.py)
- forms.py: the forms of a quote and the views of a file that the tiers compare
- tiers.py: the verified tiers (exact, whitespace, normalized)
- fuzzy.py: the fuzzy tier; diff.py: what differs between a quote and its passage
- index.py: the corpus of a revision and the index of its words
- workers.py: the worker processes of `anchor_many` on a large revision
- cited.py: the cited files of `anchor_many` without workers: read ahead, or anchored as read
- anchorer.py: `Anchorer` and `anchor_all`

The names below are imported from their modules on first use, so that importing
`evidence.anchoring.normalize` (db/keys.py does) loads neither rapidfuzz nor the revision reader.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evidence.anchoring.anchorer import (
        DEFAULT_CLOSE,
        DEFAULT_FLOOR,
        PARALLEL_FROM,
        PREPARE_FROM,
        Anchorer,
        anchor_all,
    )
    from evidence.anchoring.diff import char_diff, diff_markup
    from evidence.anchoring.fuzzy import MAX_WINDOWS
    from evidence.anchoring.index import RevisionIndex, index_words
    from evidence.anchoring.normalize import normalize_quote, normalize_source
    from evidence.anchoring.tiers import MAX_ELSEWHERE

_MODULES = {
    "Anchorer": "anchorer",
    "anchor_all": "anchorer",
    "DEFAULT_CLOSE": "anchorer",
    "DEFAULT_FLOOR": "anchorer",
    "PARALLEL_FROM": "anchorer",
    "PREPARE_FROM": "anchorer",
    "char_diff": "diff",
    "diff_markup": "diff",
    "MAX_WINDOWS": "fuzzy",
    "RevisionIndex": "index",
    "index_words": "index",
    "normalize_quote": "normalize",
    "normalize_source": "normalize",
    "MAX_ELSEWHERE": "tiers",
}

__all__ = [
    "DEFAULT_CLOSE",
    "DEFAULT_FLOOR",
    "MAX_ELSEWHERE",
    "MAX_WINDOWS",
    "PARALLEL_FROM",
    "PREPARE_FROM",
    "Anchorer",
    "RevisionIndex",
    "anchor_all",
    "char_diff",
    "diff_markup",
    "index_words",
    "normalize_quote",
    "normalize_source",
]


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
