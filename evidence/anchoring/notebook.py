"""A Jupyter notebook read as its cells' text, line for line (see read_as.py).

A notebook is JSON: Jupyter writes each line of a cell's source as one string of an array, one
to a line (``    "df = df[df[\\"status\\"] == \\"ok\\"]\\n",``), so code quoted as the notebook
shows it is in no line of the file as written, and a fuzzy match diffs the escapes.
"""

from __future__ import annotations

import json
import re

__all__ = ["NOTEBOOK_NOTE", "notebook_text"]

#: how the note of a quote found in a notebook's cells starts
NOTEBOOK_NOTE = "notebook:"
#: a line holding one JSON string alone, an array's element: a line of a cell (or an output)
_STRING_LINE = re.compile(r'^\s*("(?:[^"\\]|\\.)*")\s*,?\s*$')


def notebook_text(text: str) -> str | None:
    """The strings of a notebook written one to a line, as text at their lines (a string's
    final newline dropped), every other line blank; None when no line holds a string alone."""
    read: list[str] = []
    strings = 0
    for line in text.split("\n"):
        found = _STRING_LINE.match(line)
        value = ""
        if found is not None:
            try:
                value = json.loads(found.group(1))
            except ValueError:
                value = ""
            value = value.removesuffix("\n")
            if "\n" in value or "\r" in value:  # a string of several lines: not its lines
                value = ""
        strings += bool(value)
        read.append(value)
    return "\n".join(read) if strings else None
