"""One rule of what is unsafe to show, two renderings: symbols for the UI, escapes for output."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from evidence.text import UNSAFE_CATEGORIES, escaped, visible


def test_format_characters_no_table_names_are_shown_too() -> None:
    # tag characters can hide text in a report; a soft hyphen is invisible
    assert visible("a\U000e0041b\u00adc") == "a<U+E0041>b<U+00AD>c"
    assert escaped("a\U000e0041b\u00adc") == "a\\U000e0041b\\u00adc"


def test_tabs_and_newlines_follow_the_mode() -> None:
    assert visible("a\tb") == "a\tb"
    assert visible("a\nb") == "a␊b"
    assert visible("a\nb", multiline=True) == "a\nb"
    assert escaped("a\tb\nc") == "a\\u0009b\\u000ac"


@given(st.text())
def test_both_renderings_leave_no_unsafe_character(text: str) -> None:
    for shown, keep in ((visible(text), "\t"), (escaped(text), "")):
        assert not [
            char
            for char in shown
            if char not in keep and unicodedata.category(char) in UNSAFE_CATEGORIES
        ]
