"""Untrusted text made safe for a terminal, without any UI library.

Report text, source lines, notes and paths are data: before they are shown, control characters
(ESC, BEL, CR, C0 and C1), bidi overrides and zero-width characters are replaced so that they can
neither drive the terminal nor reorder what the reviewer reads.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

_BIDI = {
    0x202A: "LRE",
    0x202B: "RLE",
    0x202C: "PDF",
    0x202D: "LRO",
    0x202E: "RLO",
    0x2066: "LRI",
    0x2067: "RLI",
    0x2068: "FSI",
    0x2069: "PDI",
    0x200E: "LRM",
    0x200F: "RLM",
    0x061C: "ALM",
}
_ZERO_WIDTH = {0x200B: "ZWSP", 0x200C: "ZWNJ", 0x200D: "ZWJ", 0x2060: "WJ", 0xFEFF: "BOM"}


#: the one rule of what is unsafe to show: these categories (controls, format characters, line
#: and paragraph separators, and lone surrogates: a file name's undecodable bytes, which a
#: strict UTF-8 stdout cannot encode and a lax one writes raw, 0x9b being CSI); the table below
#: names the common ones, the rest become <U+XXXX>
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def _build_table(keep_tab: bool) -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0x20):
        if code == 0x09 and keep_tab:
            continue
        table[code] = chr(0x2400 + code)  # ␀ ... ␟ (␛ for ESC, ␇ for BEL, ␍ for CR)
    table[0x7F] = "\u2421"  # ␡
    for code in range(0x80, 0xA0):
        table[code] = f"\\x{code:02x}"
    for code, name in {**_BIDI, **_ZERO_WIDTH}.items():
        table[code] = f"<{name}>"
    table[0x2028] = "\u2424"  # line separator shown as ␤
    table[0x2029] = "\u2424"
    return table


_LINE_TABLE = _build_table(keep_tab=True)
_TABLE_WITH_NEWLINES = dict(_LINE_TABLE)
del _TABLE_WITH_NEWLINES[0x0A]


def _rest(text: str, render: Callable[[int], str], keep: str) -> str:
    """Characters of an unsafe category that no table entry covered, rendered by ``render``."""
    rest = text
    for char in keep:
        rest = rest.replace(char, "")
    if rest.isprintable():
        return text
    return "".join(
        render(ord(char))
        if char not in keep and unicodedata.category(char) in UNSAFE_CATEGORIES
        else char
        for char in text
    )


def _symbol(code: int) -> str:
    return f"<U+{code:04X}>"


def _escape(code: int) -> str:
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible(text: str, *, multiline: bool = False) -> str:
    """Text for the terminal UI: every unsafe character replaced by a visible symbol (tabs kept).

    With ``multiline`` newlines are kept too; CR, ESC, BEL, C1 and bidi controls never are.
    """
    shown = text.translate(_TABLE_WITH_NEWLINES if multiline else _LINE_TABLE)
    return _rest(shown, _symbol, "\t\n" if multiline else "\t")


def clipped(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the last one an ellipsis when it was longer."""
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def escaped(text: str, *, keep: str = "") -> str:
    """Text for plain command output: the same unsafe characters written as ``\\uXXXX``.

    Escapes rather than symbols, so that the output pasted into a file or a shell reads back as
    what the report held. ``keep``: characters left as they are where the output has lines
    (``"\\n"``) or cells (``"\\n\\t"``: csv, the write-up); never CR, ESC or a bidi control.
    """
    return _rest(text, _escape, "".join(char for char in keep if char in "\n\t"))


def _json_escape(code: int) -> str:
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


#: a JSON escape of a UTF-16 surrogate: json.loads turns a lone one into a str no UTF-8 can hold
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


_LOW_ESCAPE = re.compile(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def json_without_surrogates(text: str) -> str:
    """JSON ``text`` with every escape of a lone surrogate (in a string or a key) written as
    U+FFFD's, so that its strings decode to text that can be written as UTF-8, stored and shown
    (json.loads would make a str no UTF-8 can hold). Done on the text before parsing: walking
    the decoded value took four times as long as parsing a 190 MB scan (ruff over pygments,
    whose messages quote surrogates). Unchanged when ``text`` escapes none."""
    pieces: list[str] = []
    copied = 0  # text[:copied] is in pieces
    pair_end = -1  # the low half of the last pair ends here
    for match in _ESCAPED_SURROGATE.finditer(text):
        start = match.start()
        if start < pair_end:
            continue
        before = start
        while before > 0 and text[before - 1] == "\\":
            before -= 1
        if (start - before) % 2:  # an escaped backslash, then a plain "u"
            continue
        if text[start + 3] in "89abAB" and _LOW_ESCAPE.match(text, start + 6):
            pair_end = start + 12  # a high surrogate and the low one after it: a pair
            continue
        pieces += (text[copied:start], "\\ufffd")
        copied = start + 6
    if not pieces:
        return text
    pieces.append(text[copied:])
    return "".join(pieces)


def unreadable(error: OSError) -> str:
    """Why a file could not be read, as input errors say it after the file's name."""
    if isinstance(error, FileNotFoundError):
        return "no such file or directory"
    if isinstance(error, IsADirectoryError):
        return "is a directory"
    if isinstance(error, PermissionError):
        return "permission denied"
    return f"cannot read ({error.strerror or error})"


def json_value(data: bytes) -> Any:
    """The JSON value in ``data`` (UTF-8, a BOM allowed) without lone surrogates
    (`json_without_surrogates`); UnicodeDecodeError, ValueError (not JSON) or RecursionError."""
    import json  # here: only JSON inputs need it

    return json.loads(json_without_surrogates(data.decode("utf-8-sig")))


def json_input(data: bytes, shown: str, error: Callable[[str], Exception], kind: str) -> Any:
    """`json_value` of an input file, ``error`` (a one-line message naming ``shown``) where it is
    not UTF-8 (``kind``, e.g. "a SARIF file", must be), not JSON, or JSON nested too deeply."""
    try:
        return json_value(data)
    except UnicodeDecodeError:
        raise error(f"{shown}: {kind} must be UTF-8") from None
    except ValueError as problem:
        raise error(f"{shown}: not valid JSON ({problem})") from None
    except RecursionError:
        raise error(f"{shown}: JSON nested too deeply") from None


def json_escaped(encoded: str) -> str:
    """Encoded JSON (``ensure_ascii=False``) with the same unsafe characters written as JSON
    escapes: the same JSON value, inert in a terminal. Its newlines (between lines, or of
    indentation) are kept; JSON escapes the ones inside strings itself."""
    return _rest(encoded, _json_escape, "\n")
