"""One rule of what is unsafe to show, two renderings: symbols for the UI, escapes for output."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evidence.text import (
    UNSAFE_CATEGORIES,
    escaped,
    json_value,
    json_without_surrogates,
    visible,
)


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


@given(st.lists(st.sampled_from(PIECES), max_size=8).map("".join), st.booleans())
def test_the_bytes_give_what_the_text_gives(text: str, upper: bool) -> None:
    encoded = json.dumps({text: [text, {"k": text}]})
    if upper:
        encoded = re.sub(r"\\u([0-9a-f]{4})", lambda m: "\\u" + m.group(1).upper(), encoded)
    assert json_without_surrogates(encoded.encode("ascii")).decode("ascii") == (
        json_without_surrogates(encoded)
    )


@settings(max_examples=300)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=12,
    ),
    st.integers(1, 9),
    st.booleans(),
)
def test_a_json_file_reads_as_its_decoded_text_would(value: Any, block: int, bom: bool) -> None:
    # the bytes are parsed with their non-ASCII characters escaped (an emoji made the whole
    # document's str 4 bytes a character); blocks of a few bytes cut runs and characters apart
    import evidence.text as text_module

    data = (b"\xef\xbb\xbf" if bom else b"") + json.dumps(value, ensure_ascii=False).encode(
        "utf-8", "surrogatepass"
    )
    try:
        expected: Any = _walked(json.loads(data.decode("utf-8-sig")))
    except UnicodeDecodeError:
        expected = UnicodeDecodeError
    before = text_module._BLOCK
    text_module._BLOCK = block
    try:
        got: Any = json_value(data)
    except UnicodeDecodeError:
        got = UnicodeDecodeError
    finally:
        text_module._BLOCK = before
    assert got == expected


def test_a_json_file_that_is_not_utf8_is_refused_as_before() -> None:
    for data in (
        b'"\xff"',
        b'"\xed\xa0\x80"',
        b'["\xe2\x82"]',
        b'"\xe2\x82',
        b'"\xf4\x90\x80\x80"',
    ):
        try:
            json.loads(data.decode("utf-8-sig"))
        except UnicodeDecodeError:
            pass
        else:
            raise AssertionError(data)
        try:
            json_value(data)
        except UnicodeDecodeError:
            continue
        raise AssertionError(data)


def test_past_so_many_runs_the_bytes_are_parsed_as_they_are() -> None:
    import evidence.text as text_module

    data = json.dumps(["é"] * (text_module._MOST_RUNS + 1), ensure_ascii=False).encode()
    assert text_module._ascii_json(data) is data
    assert json_value(data) == ["é"] * (text_module._MOST_RUNS + 1)


RAW = ["\\", '"', "é", "😀", "a", "u", "00e9", "d800", "[", "]", ",", " "]


@settings(max_examples=500)
@given(st.lists(st.sampled_from(RAW), max_size=10).map("".join), st.integers(1, 9))
def test_text_that_may_not_be_json_reads_as_json_loads_reads_it(raw: str, block: int) -> None:
    # `"\é"` is no JSON; escaped as `"\\u00e9"` it read as a backslash and "u00e9"
    import evidence.text as text_module

    data = f'["{raw}"]'.encode()

    def outcome(read: Any) -> Any:
        try:
            return ("value", read())
        except ValueError as error:  # JSONDecodeError and UnicodeDecodeError alike
            return ("refused", type(error).__name__)

    before = text_module._BLOCK
    text_module._BLOCK = block
    try:
        got = outcome(lambda: json_value(data))
    finally:
        text_module._BLOCK = before
    expected = outcome(lambda: _walked(json.loads(data.decode("utf-8"))))
    assert got == expected
