"""What a quote is once Markdown damage is undone: the one normalization of quote text.

Reports lose backticks and asterisks, add or change list markers at line starts, turn quotes
typographic and collapse newlines. `normalize_quote` undoes that for a quote; the verdict keys
(db/keys.py) hash its result and the normalized tier compares it (with accents composed, NFC:
anchoring/forms.py), so a key and an anchor agree on what a quote is. `normalize_source` does
the same to a source file but keeps every newline, so line numbers carry over. This module
imports only `re`, so that db/keys.py (loaded before the review app starts) stays light.
"""

from __future__ import annotations

import re

# A list marker at a line start (bullets, dashes, asterisks, "1." and "1)"), matched after the
# newline that starts the line: a literal first character lets the regex engine skip ahead
# between newlines instead of trying `^` at every position.
_MARKER_AFTER_NEWLINE = re.compile(r"\n[^\S\n]*(?:[-*+•‣◦]|\d{1,3}[.)])[^\S\n]+")
# Reports also put bullets mid-line once newlines are collapsed; only these are unambiguous there.
_BULLET = re.compile(r"(?<!\S)[•‣◦](?!\S)")

#: `str.translate` table: backticks and asterisks dropped, typographic quotes, ellipsis and
#: no-break spaces made plain
TRANSLATION = str.maketrans(
    {
        "`": None,
        "*": None,
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u2026": "...",
        "\u00a0": " ",
    }
)

#: a list marker as `normalize_source` removes it at a line start, with the blanks around it
#: ("*" is gone already once the text is translated)
MARKER_LINE = re.compile(r"[^\S\n]*(?:[-+•‣◦]|\d{1,3}[.)])[^\S\n]+")
#: the list marker alone
MARKER_ONLY = re.compile(r"[-+•‣◦]|\d{1,3}[.)]")


def normalize_source(text: str) -> str:
    """Undo Markdown formatting damage; keeps every newline so line numbers are unchanged."""
    # a constant replacement keeps `sub` on its fast path; the indentation is whitespace anyway
    # (a newline put in front makes the first line start like every other one)
    return _MARKER_AFTER_NEWLINE.sub("\n ", "\n" + text)[1:].translate(TRANSLATION)


def normalize_quote(text: str) -> str:
    """The quote with formatting damage undone and whitespace collapsed to single spaces."""
    return " ".join(normalize_source(_BULLET.sub(" ", text)).split())
