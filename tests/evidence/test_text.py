"""One rule of what is unsafe to show, two renderings: symbols for the UI, escapes for output."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from evidence.text import UNSAFE_CATEGORIES, escaped, json_without_surrogates, visible


def test_format_characters_no_table_names_are_shown_too() -> None:
    # tag characters can hide text in a report; a soft hyphen is invisible
    assert visible("a\U000e0041b\u00adc") == "a<U+E0041>b<U+00AD>c"
    assert escaped("a\U000e0041b\u00adc") == "a\\U000e0041b\\u00adc"


def test_tabs_and_newlines_follow_the_mode() -> None:
    assert visible("a\tb") == "a\tb"
    assert visible("a\nb") == "a␊b"
    assert visible("a\nb", multiline=True) == "a\nb"
    assert escaped("a\tb\nc") == "a\\u0009b\\u000ac"


def test_a_file_names_undecodable_bytes_are_shown_escaped() -> None:
    # os.fsdecode(b"f\xff\x9b") holds lone surrogates: encoded raw (0x9b is CSI) or not at all
    name = os.fsdecode(b"f\xff\x9b.txt")
    assert escaped(name) == "f\\udcff\\udc9b.txt"
    assert visible(name) == "f<U+DCFF><U+DC9B>.txt"


@given(st.text())
def test_both_renderings_leave_no_unsafe_character(text: str) -> None:
    for shown, keep in ((visible(text), "\t"), (escaped(text), "")):
        assert not [
            char
            for char in shown
            if char not in keep and unicodedata.category(char) in UNSAFE_CATEGORIES
        ]


_SURROGATES = re.compile("[\ud800-\udfff]")


def _walked(value: Any) -> Any:
    """Every lone surrogate in the decoded value's strings replaced: what the text must give."""
    if isinstance(value, str):
        return _SURROGATES.sub("\ufffd", value)
    if isinstance(value, list):
        return [_walked(item) for item in value]
    if isinstance(value, dict):
        return {_walked(key): _walked(item) for key, item in value.items()}
    return value


PIECES = ["a", "u", "\\", "d800", "\\ud800", "\\u", "\ud800", "\udbff", "\udc00", "\udfff", "😀"]


@given(st.lists(st.sampled_from(PIECES), max_size=8).map("".join), st.booleans())
def test_lone_surrogates_are_replaced_in_the_text_as_in_the_value(text: str, upper: bool) -> None:
    # escaped as JSON writes them (pairs, lone ones, backslashes before a plain "u"), in either
    # case of hex digits
    encoded = json.dumps({text: [text, {"k": text}]})
    if upper:
        encoded = re.sub(r"\\u([0-9a-f]{4})", lambda m: "\\u" + m.group(1).upper(), encoded)
    assert json.loads(json_without_surrogates(encoded)) == _walked(json.loads(encoded))
