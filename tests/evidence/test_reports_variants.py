"""Report text as teams really write it: the same quote, citation or record written a little
differently (spacing, escapes, wrapping, case) is read as the writer meant, or said."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from evidencekit import RUNTIME

from evidence.model import Report
from evidence.reports.loading import load_reports
from evidence.reports.parser import parse_report


def account(lines: str) -> Report:
    """A report whose one narrative section holds ``lines``."""
    return parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{lines}", "v.txt")


@pytest.mark.parametrize(
    ("marker", "path", "claimed"),
    [
        ("worker/retry.py:14 - 15", "worker/retry.py", (14, 15)),  # spaces around the dash
        ("worker/retry.py:14 – 15", "worker/retry.py", (14, 15)),  # an en dash, spaced
        ("worker/retry.py:14 -15.", "worker/retry.py", (14, 15)),
        ("worker/my%20retry.py:14", "worker/my retry.py", (14, 14)),  # copied from a link
        ("worker/retry%2Dloop.py", "worker/retry-loop.py", None),
        ("worker/my\\ retry.py:14-15", "worker/my retry.py", (14, 15)),  # a shell's escape
    ],
)
def test_marker_ranges_and_paths_as_written_by_hand(
    marker: str, path: str, claimed: tuple[int, int] | None
) -> None:
    report = account(f"delay = base * 2 ** attempt --- {marker}\n")
    (quote,) = report.records[0].quotes
    assert (quote.text, quote.path, quote.claimed) == ("delay = base * 2 ** attempt", path, claimed)
    assert not [d for d in report.diagnostics if "quote" in d.message]


@pytest.mark.parametrize(
    ("line", "paths"),
    [
        ("(SRC-1, docs/my\\ notes.md, b.py).", ("docs/my notes.md", "b.py")),
        ("(SRC-1, docs/my%20notes.md, b.py).", ("docs/my notes.md", "b.py")),
    ],
)
def test_cited_paths_escaped_or_encoded_are_read_as_meant(
    line: str, paths: tuple[str, ...]
) -> None:
    (citation,) = account(f"The queue drains {line}\n").records[0].citations
    assert citation.paths == paths


def test_an_escaped_path_followed_by_words_is_no_marker() -> None:
    report = account("delay = base * 2 ** attempt --- worker/my\\ retry.py and more words\n")
    assert report.records[0].quotes == ()


@pytest.mark.parametrize(
    "text",
    [
        "The queue drains in order (SRC-1, worker/queue.py,\nworker/drain.py).",
        "The queue drains in order (SRC-1,\nworker/queue.py, worker/drain.py).",
        "The queue drains in order; see SRC-1, worker/queue.py\nand worker/drain.py.",
        "The queue drains in order [SRC-1: worker/queue.py;\nworker/drain.py].",
    ],
)
def test_a_citation_wrapped_onto_the_next_line_keeps_its_paths(text: str) -> None:
    (citation,) = (
        account(f"{text}\nThe next sentence (SRC-2, docs/a.md).\n").records[0].citations[:1]
    )
    assert (citation.source, citation.paths, citation.line) == (
        "SRC-1",
        ("worker/queue.py", "worker/drain.py"),
        9,
    )


def test_a_wrapped_citation_takes_nothing_past_its_end_nor_another_citation() -> None:
    text = (
        "The queue drains (SRC-1, worker/queue.py)\nworker/drain.py is left out.\n"
        "It stops here (SRC-1, worker/stop.py,\nSRC-2, docs/stop.md).\n"
    )
    citations = account(text).records[0].citations
    assert [(c.source, c.paths, c.line) for c in citations] == [
        ("SRC-1", ("worker/queue.py",), 9),
        ("SRC-1", ("worker/stop.py",), 11),
        ("SRC-2", ("docs/stop.md",), 12),
    ]


RECORDS = """\
Wren runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Shared records

Routes

{first}

Label: Drain route

{second}

Label: Second route

Annotations

{on}

The drain runs after each batch.
"""


@pytest.mark.parametrize(
    ("first", "second", "on"),
    [
        ("WR-RTE-drain.", "WR-RTE-flush:", "On WR-RTE-drain."),  # the sentence's full stop
        ("**WR-RTE-drain**", "`WR-RTE-flush`", "On `WR-RTE-drain`:"),  # Markdown around the id
        ("WR-RTE-drain", "WR-RTE-flush", "On **WR-RTE-drain**"),
        ("WR-RTE-drain", "WR-RTE-flush", "On WR-RTE-drain (as the worker sees it):"),
        ("WR-RTE-drain", "WR-RTE-flush", "On `WR-RTE-drain` (batch side)"),
    ],
)
def test_record_ids_with_punctuation_or_markdown_around_them(
    first: str, second: str, on: str
) -> None:
    report = parse_report(RECORDS.format(first=first, second=second, on=on), "w.txt")
    assert [(r.id, r.label, r.annotates) for r in report.records] == [
        ("WR-RTE-drain", "Drain route", None),
        ("WR-RTE-flush", "Second route", None),
        ("On WR-RTE-drain", "On WR-RTE-drain", "WR-RTE-drain"),
    ]
    assert report.diagnostics == ()


def test_two_ids_that_differ_only_in_case_are_said() -> None:
    text = RECORDS.format(first="WR-RTE-drain", second="WR-RTE-Drain", on="On WR-RTE-drain")
    report = parse_report(text, "w.txt")
    assert [(d.line, d.message) for d in report.diagnostics] == [
        (13, "WR-RTE-Drain differs from WR-RTE-drain only in case: two records, or one?"),
    ]


def test_an_id_named_in_another_case_than_declared_is_said_with_the_declared_one(
    tmp_path: Path,
) -> None:
    text = RECORDS.format(first="WR-RTE-drain", second="WR-RTE-flush", on="On WR-RTE-Drain")
    (tmp_path / "w.txt").write_text(text.replace("batch.", "batch (see WR-RTE-FLUSH)."))
    messages = [d.message for _, d in load_reports([tmp_path / "w.txt"]).diagnostics]
    assert messages == [
        "On WR-RTE-Drain annotates WR-RTE-Drain; no loaded report declares it "
        "(WR-RTE-drain is declared: ids differ in case)",
        "On WR-RTE-Drain mentions WR-RTE-FLUSH; no loaded report declares it "
        "(WR-RTE-flush is declared: ids differ in case)",
    ]


def test_a_marker_wrapped_after_its_dashes_is_read() -> None:
    report = account(
        "total = sum(parts); count = len(parts) ---\nworker/stats.py:3-4\n\nThe mean follows.\n"
    )
    (quote,) = report.records[0].quotes
    assert (quote.text, quote.path, quote.claimed) == (
        "total = sum(parts); count = len(parts)",
        "worker/stats.py",
        (3, 4),
    )
    assert (quote.text_line, quote.report_line) == (9, 10)
    assert report.records[0].citations == ()
    assert [d.message for d in report.diagnostics] == ["no 'Shared records' section"]


def test_dashes_ending_a_sentence_before_a_line_of_prose_are_no_marker() -> None:
    report = account("The rule is simple ---\nworker/stats.py holds it, as the tests show.\n")
    assert report.records[0].quotes == ()


def test_an_inline_quote_wrapped_over_lines_keeps_its_first_lines() -> None:
    report = account(
        "The mean is taken once:\n"
        "const mean = parts.reduce((a, b) => a + b, 0)\n"
        "/ parts.length; --- worker/stats.js:7-8\n"
    )
    (quote,) = report.records[0].quotes
    assert quote.text == "const mean = parts.reduce((a, b) => a + b, 0)\n/ parts.length;"
    assert (quote.text_line, quote.report_line) == (10, 11)
    assert not [d for d in report.diagnostics if "unattributed" in d.message]


@pytest.mark.parametrize(
    "ends",
    [
        lambda n: "\r\n",
        lambda n: "\r",
        lambda n: "\r\n" if n % 3 else "\n",  # lines pasted in from another editor
        lambda n: "\r\r\n",  # CRLF converted to CRLF again (an editor, then git's autocrlf)
    ],
)
def test_line_ends_of_every_kind_read_as_the_same_report(ends: Callable[[int], str]) -> None:
    plain = parse_report(RUNTIME, "heron-runtime.txt")
    text = "".join(line + ends(n) for n, line in enumerate(RUNTIME.split("\n")[:-1]))
    assert parse_report(text.encode(), "heron-runtime.txt") == plain


def test_invalid_utf8_after_doubled_carriage_returns_is_said_on_its_line() -> None:
    # an é in UTF-8, then a stray byte on line 6
    text = b"T report\r\r\nType: t\r\r\n\r\r\nA account\r\r\n\r\r\nPart \xc3\xa9 \xff\r\r\n"
    report = parse_report(text, "d.txt")
    assert [(d.line, d.message[:13]) for d in report.diagnostics][:1] == [(6, "invalid UTF-8")]


@pytest.mark.parametrize(
    "cited",
    [
        "worker/queue.py: 12-18",
        "worker/queue.py:12 - 18",
        "worker/queue.py:12–18",
        "worker/queue.py lines 12-18",
        "worker/queue.py, lines 12 to 18",
        "worker/queue.py (lines 12-18)",
    ],
)
def test_a_cited_path_with_its_lines_as_written_keeps_the_paths_after_it(cited: str) -> None:
    (citation,) = (
        account(f"The queue drains (SRC-1, {cited}, docs/queue.md).\n").records[0].citations
    )
    assert citation.paths == ("worker/queue.py:12-18", "docs/queue.md")


def test_a_sentence_beginning_with_on_and_an_id_is_no_annotation_heading() -> None:
    # a heading is the id and a parenthesis at most: a sentence goes on after it
    text = RECORDS.format(first="WR-RTE-drain", second="WR-RTE-flush", on="On WR-RTE-drain")
    text += "On WR-RTE-flush (the second route) the batch is kept.\n"
    report = parse_report(text, "w.txt")
    assert [r.id for r in report.records] == ["WR-RTE-drain", "WR-RTE-flush", "On WR-RTE-drain"]
