"""The claimed range after a quoted or cited path, shared by the parser (vocabulary.py) and the
citations check (evidence/citations.py), which a launch imports without the parser's regexes."""

from __future__ import annotations

import re

__all__ = ["RANGE_RE"]

#: a claimed range after a path: ``:12``, ``:12-14``, ``:L12-L14``, ``:12..14`` (a range as
#: Rust and Ruby write it), ``:12:5`` (line and column, as compilers write it), ``#L3-L9``,
#: ``#L3C1-L9C4`` (GitHub's, columns too)
RANGE_RE = re.compile(
    r"(?::L?(\d+)(?:\s*(?:[-–]|\.\.)\s*L?(\d+))?(?::\d+)?"
    r"|#L(\d+)(?:C\d+)?(?:-L?(\d+)(?:C\d+)?)?)$"
)
