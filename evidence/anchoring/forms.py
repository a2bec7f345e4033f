"""The forms of a quote and of a source file that the tiers compare, each built when first asked.

A quote's forms (`QuoteForms`: stripped, collapsed, normalized, tokens, words) and a file's view
(`FileView`: text, translated text, line index) are kept by the anchorer between quotes.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from functools import cached_property, lru_cache
from itertools import accumulate, compress

from evidence.anchoring.index import index_words
from evidence.anchoring.normalize import TRANSLATION, normalize_quote
from evidence.model import LineRange

_WORD = re.compile(r"\w{3,}")
_BLANKS = re.compile(r"[^\S\n]+")
_ELLIPSIS = frozenset({"...", "..", "…"})


class LineIndex:
    """Line numbers of offsets: newlines counted from the last offset asked about (answers for
    one quote's occurrences come in order), line starts built only for files asked about many
    times."""

    __slots__ = ("text", "starts", "asked", "_offset", "_line")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] | None = None
        self.asked = 0
        self._offset = 0
        self._line = 1

    def line(self, offset: int) -> int:
        """The 1-based line holding `offset`."""
        self.asked += 1
        if self.starts is None:
            if self.asked < 16:
                text, known = self.text, self._offset
                if offset >= known:
                    line = self._line + text.count("\n", known, offset)
                elif offset > known // 2:
                    line = self._line - text.count("\n", offset, known)
                else:
                    line = text.count("\n", 0, offset) + 1
                self._offset, self._line = offset, line
                return line
            # each line starts one past the end of the previous one (the last start, past
            # the end of the text, is dropped)
            lengths = map((1).__add__, map(len, self.text.split("\n")))
            self.starts = list(accumulate(lengths, initial=0))[:-1]
        return bisect_right(self.starts, offset)

    def span(self, start: int, end: int) -> LineRange:
        """Full lines from the first to the last character of [start, end)."""
        return (self.line(start), self.line(max(start, end - 1)))


class FileView:
    """One source text with the lazily built helpers the tiers need."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = LineIndex(text)

    @cached_property
    def crlf(self) -> bool:
        """Its lines end in CRLF (a file committed from Windows): a quote's LF lines are the
        same text (the exact tier looks for them so)."""
        return "\r\n" in self.text

    @cached_property
    def translated(self) -> str:
        """The text with backticks and asterisks dropped and typographic quotes made plain:
        `normalize_source` but for the list markers, which the normalized tier skips in place
        (cheaper than removing them with a regex on a file of many lines)."""
        return self.text.translate(TRANSLATION)

    @cached_property
    def translated_lines(self) -> LineIndex:
        """Line numbers of offsets in `translated`."""
        return LineIndex(self.translated)

    @cached_property
    def line_starts(self) -> list[int]:
        """The offset in `text` where each line starts (line n at index n - 1)."""
        lengths = map((1).__add__, map(len, self.text.split("\n")))
        return list(accumulate(lengths, initial=0))[:-1]

    @cached_property
    def line_count(self) -> int:
        """How many lines the text has, as `SourceFile.lines` splits it (a final newline ends
        the last line)."""
        if not self.text:
            return 0
        return len(self.line_starts) - (1 if self.text.endswith("\n") else 0)

    def text_of(self, first: int, last: int) -> str:
        """Lines ``first`` to ``last`` (1-based, inclusive) as the text has them."""
        starts = self.line_starts
        return self.text[starts[first - 1] : starts[last] if last < len(starts) else None]

    def line_width(self, number: int) -> int:
        """The length of line ``number`` (1-based, at most `line_count`) without its "\r\n"."""
        starts = self.line_starts
        start = starts[number - 1]
        end = starts[number] - 1 if number < len(starts) else len(self.text)
        return end - start - (1 if end > start and self.text[end - 1] == "\r" else 0)

    @cached_property
    def indent_sums(self) -> list[int]:
        """How much indentation lines 1 to n hold together (at index n - 1)."""
        lines = self.text.split("\n")
        return list(accumulate(map(int.__sub__, map(len, lines), map(len, map(str.lstrip, lines)))))

    def unindented(self, offset: int) -> int:
        """`offset` less the indentation of its line and every line before (nearly where it is
        in the quote-like, collapsed text: words of one passage stay as far apart as quoted)."""
        return offset - self.indent_sums[self.lines.line(offset) - 1]

    @cached_property
    def flat(self) -> tuple[str, list[int], list[int]]:
        """The non-blank lines translated and collapsed, joined by single spaces; where each of
        them starts in that text, and where it starts in `text` (for the fuzzy tier's scan)."""
        # whole-text operations and comprehensions: a per-line loop costs several times more;
        # newlines marked by a non-blank character, one split collapses the other blank runs
        # (half the time of a regex substitution)
        text = self.translated
        if "\x00" in text:
            lines = [line.strip() for line in _BLANKS.sub(" ", text).split("\n")]
        else:
            marked = " ".join(" \x00 ".join(text.split("\n")).split())
            lines = [line.strip() for line in marked.split("\x00")]
        kept = [bool(line) for line in lines]
        pieces = list(compress(lines, kept))
        lengths = map((1).__add__, map(len, pieces))
        flat_starts = list(accumulate(lengths, initial=0))[:-1]
        return " ".join(pieces), flat_starts, list(compress(self.line_starts, kept))


class QuoteForms:
    """The forms of a quote each tier compares, each computed the first time a tier asks.

    Most quotes are verbatim: their anchoring needs only `exact`, so the normalized forms, the
    words and the index words are not computed for them at all.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.exact = text.strip()

    @cached_property
    def collapsed(self) -> str:
        """Whitespace runs collapsed to single spaces."""
        return " ".join(self.text.split())

    @cached_property
    def normalized(self) -> str:
        """Formatting damage undone, whitespace collapsed, accents composed (NFC: a quote
        copied from a macOS file name, a PDF or a terminal may hold them as separate marks)."""
        text = normalize_quote(self.text)
        return text if text.isascii() else unicodedata.normalize("NFC", text)

    @cached_property
    def decomposed(self) -> bool:
        """The quote holds letters that NFC composes (`normalized` differs from it for that)."""
        return not self.exact.isascii() and not unicodedata.is_normalized("NFC", self.exact)

    @cached_property
    def tokens(self) -> tuple[str, ...]:
        """Normalized tokens for fuzzy alignment (ellipses at the edges dropped)."""
        return self._trimmed[1]

    @cached_property
    def joined(self) -> str:
        """The tokens joined by single spaces (what fuzzy scores compare)."""
        return " ".join(self.tokens)

    @cached_property
    def edge_ellipses(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The ellipses dropped before the first and after the last token, nearest first: an
        elision to the reader, or the source's own "..." (a doctest's continuation lines)."""
        head, _, tail = self._trimmed
        return head, tail

    @cached_property
    def _trimmed(self) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        tokens = self.normalized.split(" ") if self.normalized else []
        head: list[str] = []
        tail: list[str] = []
        while tokens and tokens[0] in _ELLIPSIS:
            head.insert(0, tokens.pop(0))
        while tokens and tokens[-1] in _ELLIPSIS:
            tail.append(tokens.pop())
        return tuple(head), tuple(tokens), tuple(tail)

    @cached_property
    def words(self) -> tuple[str, ...]:
        """Distinct words (3+ characters) of the normalized quote."""
        return tuple(dict.fromkeys(_WORD.findall(self.normalized)))

    @cached_property
    def index_words(self) -> frozenset[bytes]:
        """The words of the normalized quote as the revision index records them."""
        return frozenset(index_words(self.normalized.encode("utf-8", "surrogateescape")))

    @cached_property
    def longest(self) -> str:
        """The longest token of the normalized quote (in any file holding the quote verbatim,
        up to whitespace, or normalized with nothing dropped by translation)."""
        return max(self.normalized.split(" "), key=len)

    @cached_property
    def telltale(self) -> tuple[str, ...]:
        """The longest few words, all needed verbatim too."""
        return tuple(sorted(self.words, key=len, reverse=True)[:4])


@lru_cache(maxsize=16384)
def quote_forms(text: str) -> QuoteForms:
    """The forms of a quote text, shared by every quote with that text."""
    return QuoteForms(text)
