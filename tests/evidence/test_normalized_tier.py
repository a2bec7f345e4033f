"""The normalized tier searches the translated text and skips list markers in place; it must
find the passages a search of the fully normalized text (`normalize_source`) finds.

One difference is known and accepted: a line whose marker only shows once a leading asterisk or
backtick is dropped ("* 1. x", "`- x") has that second marker skipped too."""

from __future__ import annotations

import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from evidence.anchoring.forms import LineIndex
from evidence.anchoring.normalize import TRANSLATION, normalize_source
from evidence.anchoring.tiers import spaced_find

WORDS = ["a", "b", "ab", "`x`", "**y**", "1.", "-", "+", "•", "z*", "12)", "foo(bar)", "“q”"]
MARKERS = ["", "", "- ", "  * ", "1. ", "• ", "\t+ ", "12) ", "-  "]
GAPS = [" ", "  ", "\t"]

HIDDEN_MARKER = re.compile(r"[^\S\n]*[`*][`*\s]*(?:[-+•‣◦]|\d{1,3}[.)])\s")

line = st.tuples(
    st.sampled_from(MARKERS),
    st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(GAPS)), min_size=0, max_size=5),
).map(lambda parts: parts[0] + "".join(word + gap for word, gap in parts[1]).rstrip())


def lines_of(text: str, spans: list[tuple[int, int]]) -> set[tuple[int, int]]:
    index = LineIndex(text)
    return {index.span(start, end) for start, end in spans}


@settings(max_examples=300, deadline=None)
@given(st.lists(line, min_size=1, max_size=8), st.data())
def test_marker_skipping_finds_what_normalizing_finds(
    lines: list[str], data: st.DataObject
) -> None:
    text = "\n".join(lines)
    assume(not any(HIDDEN_MARKER.match(line) for line in lines))
    normalized = normalize_source(text)
    tokens = normalized.split()
    if not tokens:
        return
    first = data.draw(st.integers(0, len(tokens) - 1))
    last = data.draw(st.integers(first, min(len(tokens) - 1, first + 4)))
    quote = tokens[first : last + 1]
    translated = text.translate(TRANSLATION)
    before = lines_of(normalized, spaced_find(quote, normalized))
    after = lines_of(translated, spaced_find(quote, translated, markers=True))
    assert before, (text, quote)  # the quote was taken from the normalized text
    assert before <= after, (text, quote)
    markerlike = any(token in ("-", "+", "•", "1.", "12)") for token in quote)
    if not markerlike:
        assert before == after, (text, quote)


def test_markers_are_skipped_across_lines() -> None:
    text = "items:\n  - first `one`\n  - second\n1. third\n"
    translated = text.translate(TRANSLATION)
    found = spaced_find(["items:", "first", "one", "second", "third"], translated, markers=True)
    assert lines_of(translated, found) == {(1, 4)}
    # without skipping markers the bullets are in the way
    assert spaced_find(["items:", "first", "one", "second", "third"], translated) == []
    # a dash inside a line is not a marker
    assert spaced_find(["a", "b"], "a - b".translate(TRANSLATION), markers=True) == []
