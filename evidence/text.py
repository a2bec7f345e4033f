"""Untrusted text made safe for a terminal, without any UI library.

Report text, source lines, notes and paths are data: before they are shown, control characters
(ESC, BEL, CR, C0 and C1), bidi overrides and zero-width characters are replaced so that they can
neither drive the terminal nor reorder what the reviewer reads.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable
from typing import Any, TypeVar

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
    if text.isprintable():  # nothing unsafe (most cells of a csv of 270,000 rows)
        return text
    return _rest(text, _escape, "".join(char for char in keep if char in "\n\t"))


def shown_path(path: str | os.PathLike[str]) -> str:
    """A path as a message names it: `escaped`, so that a newline in a folder's name does not
    cut the message in two (a command prints each line of its message as a message of its own)."""
    return escaped(os.fspath(path))


def _json_escape(code: int) -> str:
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


#: a JSON escape of a UTF-16 surrogate: json.loads turns a lone one into a str no UTF-8 can hold
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LOW_ESCAPE = re.compile(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}")
#: the same in the bytes of UTF-8 JSON, where an escape is the same ASCII
_ESCAPED_SURROGATE_BYTES = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LOW_ESCAPE_BYTES = re.compile(rb"\\u[dD][c-fC-F][0-9a-fA-F]{2}")
#: a surrogate encoded in UTF-8 (ED A0-BF ..), which strict UTF-8 refuses and json.loads's
#: own decoding of bytes ("surrogatepass") would let through
_ENCODED_SURROGATE = re.compile(rb"\xed[\xa0-\xbf]")

T = TypeVar("T", str, bytes)


def json_without_surrogates(text: T) -> T:
    """JSON ``text`` (a str, or UTF-8 bytes) with every escape of a lone surrogate (in a string
    or a key) written as U+FFFD's, so that its strings decode to text that can be written as
    UTF-8, stored and shown (json.loads would make a str no UTF-8 can hold). Done on the text
    before parsing: walking the decoded value took four times as long as parsing a 190 MB scan
    (ruff over pygments, whose messages quote surrogates). Unchanged when ``text`` escapes none."""
    if isinstance(text, bytes):
        found, low, backslash, highs, fffd = (
            _ESCAPED_SURROGATE_BYTES,
            _LOW_ESCAPE_BYTES,
            ord("\\"),
            b"89abAB",
            b"\\ufffd",
        )
    else:
        found, low, backslash, highs, fffd = (
            _ESCAPED_SURROGATE,
            _LOW_ESCAPE,
            "\\",
            "89abAB",
            "\\ufffd",
        )
    pieces: list[T] = []
    copied = 0  # text[:copied] is in pieces
    pair_end = -1  # the low half of the last pair ends here
    for match in found.finditer(text):
        start = match.start()
        if start < pair_end:
            continue
        before = start
        while before > 0 and text[before - 1] == backslash:
            before -= 1
        if (start - before) % 2:  # an escaped backslash, then a plain "u"
            continue
        if text[start + 3 : start + 4] in highs and low.match(text, start + 6):
            pair_end = start + 12  # a high surrogate and the low one after it: a pair
            continue
        pieces += (text[copied:start], fffd)
        copied = start + 6
    if not pieces:
        return text
    pieces.append(text[copied:])
    return text[:0].join(pieces)


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

    # parsed from the bytes: one character past U+FFFF makes a decoded str 4 bytes a character
    # (a 190 MB scan: 735 MB), and it was copied once more where a surrogate was escaped
    if json.detect_encoding(data) not in ("utf-8", "utf-8-sig"):  # NULs: UTF-16 or 32, or none
        return json.loads(json_without_surrogates(data.decode("utf-8-sig")))
    surrogate = _ENCODED_SURROGATE.search(data)  # json.loads decodes with "surrogatepass"
    if surrogate is not None:
        where = surrogate.start()
        raise UnicodeDecodeError("utf-8", data, where, where + 1, "a surrogate is not UTF-8")
    return json.loads(json_without_surrogates(_ascii_json(data)))


#: non-ASCII bytes, which valid JSON holds inside its strings only
_NON_ASCII = re.compile(rb"[\x80-\xff]+")
#: past this many runs of them, escaping costs more time than the memory it saves
_MOST_RUNS = 200_000


def _ascii_json(data: bytes) -> bytes:
    """UTF-8 JSON with its non-ASCII characters written as JSON escapes: the same value, but
    decoded by json.loads to a str of 1 byte a character, where one emoji made the whole
    document's str 4 (a 190 MB scan: 735 MB at its peak, 185 MB now). UnicodeDecodeError
    where it is not UTF-8; ``data`` itself when it is ASCII, or holds too many runs of
    non-ASCII bytes to be worth it."""
    import json

    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    runs = _non_ascii_runs(data, start)
    if not runs:
        return data
    pieces: list[bytes] = []
    copied = start
    for first, last in runs:
        text = data[first:last].decode("utf-8")  # whole characters: ASCII bytes end a run
        before = first
        while before > start and data[before - 1] == 0x5C:  # backslashes
            before -= 1
        if (first - before) % 2:  # `\é`, no JSON escape: kept, for json.loads to refuse
            continue
        pieces += (data[copied:first], json.dumps(text)[1:-1].encode("ascii"))
        copied = last
    pieces.append(data[copied:])
    return b"".join(pieces)


def json_input(data: bytes, shown: str, error: Callable[[str], Exception], kind: str) -> Any:
    """`json_value` of an input file, ``error`` (a one-line message naming ``shown``) where it is
    not UTF-8 or UTF-16/32 (``kind``, e.g. "a SARIF file", must be), not JSON, or JSON nested
    too deeply."""
    try:
        return json_value(_utf8(data))
    except UnicodeDecodeError:
        raise error(f"{shown}: {kind} must be UTF-8 (or UTF-16 or UTF-32)") from None
    except ValueError as problem:
        raise error(f"{shown}: not valid JSON ({problem})") from None
    except RecursionError:
        raise error(f"{shown}: JSON nested too deeply") from None


def _utf8(data: bytes) -> bytes:
    """JSON written in UTF-16 or UTF-32 (PowerShell 5's ``>`` writes UTF-16) as UTF-8, told as
    json.loads tells it (a byte order mark, else where the zero bytes are); UTF-8 as it is.
    UnicodeDecodeError where the bytes are not that encoding."""
    if not data.startswith((b"\xff\xfe", b"\xfe\xff")) and (len(data) < 2 or all(data[:2])):
        return data  # UTF-8 (or not JSON): JSON's first character is ASCII, not a zero byte
    import json

    encoding = json.detect_encoding(data)
    if not encoding.startswith(("utf-16", "utf-32")):
        return data
    return data.decode(encoding).encode("utf-8")


def json_escaped(encoded: str) -> str:
    """Encoded JSON (``ensure_ascii=False``) with the same unsafe characters written as JSON
    escapes: the same JSON value, inert in a terminal. Its newlines (between lines, or of
    indentation) are kept; JSON escapes the ones inside strings itself."""
    return _rest(encoded, _json_escape, "\n")


#: bytes looked at a block at a time: bytes.isascii() passes over an ASCII block in C, where the
#: regular expression alone took 1.5 s over a 190 MB scan
_BLOCK = 4096


def _non_ascii_runs(data: bytes, start: int) -> list[tuple[int, int]]:
    """The spans of the runs of non-ASCII bytes in ``data`` from ``start``; none when there are
    more than `_MOST_RUNS`."""
    runs: list[tuple[int, int]] = []
    position, size = start, len(data)
    while position < size:
        end = min(position + _BLOCK, size)
        if data[position:end].isascii():
            position = end
            continue
        while position < end:
            run = _NON_ASCII.search(data, position, end)
            if run is None:
                position = end
                break
            first, last = run.span()
            if last == end and (more := _NON_ASCII.match(data, last)) is not None:
                last = more.end()  # the run goes on past the block
            runs.append((first, last))
            if len(runs) > _MOST_RUNS:
                return []
            position = last
    return runs
