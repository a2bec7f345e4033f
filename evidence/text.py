"""Untrusted text made safe for a terminal, without any UI library.

Report text, source lines, notes and paths are data: before they are shown, control characters
(ESC, BEL, CR, C0 and C1), bidi overrides and zero-width characters are replaced so that they can
neither drive the terminal nor reorder what the reviewer reads.
"""

from __future__ import annotations

import unicodedata

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


def visible(text: str, *, multiline: bool = False) -> str:
    """Text with every control character replaced by a visible symbol (tabs kept).

    With ``multiline`` newlines are kept too; CR, ESC, BEL, C1 and bidi controls never are.
    """
    return text.translate(_TABLE_WITH_NEWLINES if multiline else _LINE_TABLE)


def escaped(text: str) -> str:
    """Text for plain command output: control and format characters written as ``\\uXXXX``."""
    if text.isprintable():
        return text
    return "".join(
        char
        if char == " " or unicodedata.category(char) not in ("Cc", "Cf", "Zl", "Zp")
        else f"\\u{ord(char):04x}"
        for char in text
    )
