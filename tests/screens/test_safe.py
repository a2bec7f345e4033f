"""Untrusted text is shown as data: controls visible, markup literal."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from textual.content import Content

from screens.safe import as_markup, safe_content, safe_line, visible

DANGEROUS = (
    "\x1b[31mred\x1b[0m",
    "ring\x07",
    "over\rwrite",
    "csi\x9b2J",
    "abc\u202edcba",
    "iso\u2066late\u2069",
    "zero\u200bwidth",
    "del\x7f",
)


def test_escape_sequences_become_symbols() -> None:
    assert visible("\x1b[31mred") == "␛[31mred"
    assert visible("a\x07b\rc") == "a␇b␍c"
    assert visible("x\x9by") == "x\\x9by"
    assert visible("a\u202eb") == "a<RLO>b"
    assert visible("a\u2066b\u2069") == "a<LRI>b<PDI>"
    assert visible("a\u200bb") == "a<ZWSP>b"
    assert visible("a\x7f") == "a␡"


def test_newlines_only_kept_when_asked() -> None:
    assert visible("a\nb") == "a␊b"
    assert visible("a\nb\r\n", multiline=True) == "a\nb␍\n"


def test_tabs_expanded_in_source_lines() -> None:
    assert safe_line("\tx\x1b") == "    x␛"


def test_markup_is_literal() -> None:
    text = "[bold red]not bold[/] [@click=app.quit]quit[/] $var"
    content = safe_content(text)
    assert content.plain == text
    assert not content.spans


@given(st.text())
def test_no_control_character_survives(text: str) -> None:
    shown = visible(text, multiline=True)
    for char in shown:
        category = unicodedata.category(char)
        assert char == "\n" or char == "\t" or category not in ("Cc",), repr(char)
        assert char not in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b"


def test_rendered_output_has_no_raw_escape() -> None:
    console = Console(width=80, force_terminal=True, color_system=None, record=True)
    for text in DANGEROUS:
        with console.capture() as capture:
            console.print(safe_content(text))
        out = capture.get()
        assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out
        assert "\u202e" not in out and "\r" not in out


@given(st.text("ab[]/\\=x \t\x1b", max_size=24))
def test_text_made_markup_reads_back_as_itself(text: str) -> None:
    # a record id like `KS-1\[b]` or a path ending in a backslash, in a palette title
    assert Content.from_markup(as_markup(text)).plain == visible(text)


def test_a_backslash_before_a_bracket_is_shown_once() -> None:
    assert Content.from_markup(as_markup("Go to a\\[b] c\\")).plain == "Go to a\\[b] c\\"
