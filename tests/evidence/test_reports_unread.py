"""Report text written a little off the format: read where only one reading is possible, else
said in a diagnostic (which `assay check` lists), never dropped without a word."""

from __future__ import annotations

import pytest

from evidence.model import Report
from evidence.reports.parser import parse_report

HEAD = "Kite runtime report\n\nType: t\n\nKite account\n\nPart\n\n"


def account(lines: str) -> Report:
    """A report whose one narrative section holds ``lines``."""
    return parse_report(f"{HEAD}{lines}\n\nShared records\n", "u.txt")


def messages(report: Report) -> list[str]:
    return [d.message for d in report.diagnostics]


@pytest.mark.parametrize("dash", ["—", "–"])
def test_a_dash_after_the_source_is_read_as_a_comma(dash: str) -> None:
    report = account(f"Jobs are pulled in a loop (SRC-2 {dash} lib/pull.ts, lib/loop.ts).")
    (citation,) = report.records[0].citations
    assert (citation.source, citation.paths) == ("SRC-2", ("lib/pull.ts", "lib/loop.ts"))


def test_a_dash_before_words_cites_nothing() -> None:
    report = account("The source SRC-2 — the only one given — is read in full.")
    assert report.records[0].citations == ()


def test_a_windows_path_from_the_writers_disk_is_said_not_read() -> None:
    report = account("Loops are bounded (SRC-1, D:\\code\\kite\\lib\\loop.ts:4-9, lib\\pull.ts).")
    (citation,) = report.records[0].citations
    assert citation.paths == ("lib/pull.ts",)  # the list goes on past the one not read
    (said,) = [d for d in report.diagnostics if "loop.ts" in d.message]
    assert said.line == 9
    assert "D:\\code\\kite\\lib\\loop.ts:4-9" in said.message
    assert "not read" in said.message


def test_a_windows_path_in_brackets_is_said_not_read() -> None:
    report = account("Pulls are retried [SRC-1: C:/kite/lib/pull.ts].")
    assert report.records[0].citations == ()
    assert any("C:/kite/lib/pull.ts" in m and "not read" in m for m in messages(report))


def test_a_quotes_windows_path_from_the_writers_disk_is_read_from_its_root() -> None:
    # `--- /home/me/kite/lib/loop.ts:4` is read (its file is missing, the quote found where
    # it is); `--- D:\code\kite\lib\loop.ts:4` was not read at all, "which does not look like
    # a path"
    report = account(
        "for (;;) { pull(); } --- D:\\code\\kite\\lib\\loop.ts:4\n\n"
        "for (;;) { pull(); } --- /home/me/kite/lib/loop.ts:4"
    )
    windows, posix = report.records[0].quotes
    assert (windows.path, windows.claimed) == ("code/kite/lib/loop.ts", (4, 4))
    assert (posix.path, posix.claimed) == ("home/me/kite/lib/loop.ts", (4, 4))
    assert windows.text == posix.text == "for (;;) { pull(); }"
    assert not any("loop.ts" in message for message in messages(report))


ANNOTATIONS = """\
Kite workflow report

Type: t

Shared records

Routes

none

Annotations

On KT-RTE-pull-loop

The loop's first note.

{heading}

A second note.
"""


@pytest.mark.parametrize(
    "heading",
    [
        "On KT-RTE-pull-loop as the scheduler sees it",
        "### On KT-RTE-pull-loop as the scheduler sees it",
        "**On `KT-RTE-pull-loop` as the scheduler sees it**",
    ],
)
def test_an_annotation_heading_with_words_after_the_id_is_said(heading: str) -> None:
    report = parse_report(ANNOTATIONS.format(heading=heading), "w.txt")
    assert [r.id for r in report.records] == ["On KT-RTE-pull-loop"]
    (said,) = [d for d in report.diagnostics if "scheduler" in d.message]
    assert said.line == 17
    assert "(words)" in said.message  # how to write it so that it is read


@pytest.mark.parametrize(
    "line",
    [
        "On KT-RTE-pull-loop the scheduler waits a second, as the note above says.",
        "On KT-RTE-pull-loop:",  # read as a heading, as before
        "On KT-RTE-pull-loop (the scheduler's view):",
    ],
)
def test_a_sentence_starting_with_on_and_an_id_is_no_heading(line: str) -> None:
    report = parse_report(ANNOTATIONS.format(heading=line), "w.txt")
    assert not [d for d in report.diagnostics if d.line == 17]


ROUTES = """\
Kite runtime report

Type: t

Shared records

Routes

KT-RTE-pull-loop

Label: Pull loop

The loop pulls.

{line}

Label: Push loop

The loop pushes.
"""


def test_a_record_id_in_lower_case_is_said_not_read() -> None:
    report = parse_report(ROUTES.format(line="kt-rte-push-loop"), "r.txt")
    assert [r.id for r in report.records] == ["KT-RTE-pull-loop"]
    (said,) = [d for d in report.diagnostics if d.line == 15]
    assert "kt-rte-push-loop" in said.message and "not read" in said.message


def test_a_lower_case_word_with_dashes_is_no_record_id() -> None:
    report = parse_report(ROUTES.format(line="end-to-end-tests"), "r.txt")
    assert not [d for d in report.diagnostics if d.line == 15]


def test_a_quote_wrapped_at_the_reports_width_is_said() -> None:
    # only the marker's own line is the quote: the first part of a wrapped sentence was read as
    # prose, and the quote checked was its end alone, without a word
    report = account(
        "The guide says it plainly: the archive never deletes a note, see the\n"
        "policy for how long notes are kept. --- docs/guide.md"
    )
    (quote,) = report.records[0].quotes
    assert quote.text == "policy for how long notes are kept."
    assert any("goes on with the sentence of the line above" in m for m in messages(report))


@pytest.mark.parametrize(
    "lines",
    [
        "The gate reads:\nif not header: return None --- auth.py",  # a lead-in ends in a colon
        "The gate is read first.\nif not header: return None --- auth.py",
        "The gate is read first\nReturn None when no header --- auth.py",  # a capital: not one
        "The gate is read first, in every request that any handler sees, and it\n\n"
        "if not header: return None --- auth.py",  # a blank line parts them
    ],
)
def test_a_quote_after_a_sentence_of_its_own_is_not_said(lines: str) -> None:
    report = account(lines)
    assert len([quote for record in report.records for quote in record.quotes]) == 1
    assert not any("goes on with" in m for m in messages(report))


def test_a_source_named_inside_a_list_read_already_starts_none() -> None:
    # "a/SRC-1" is a path of the list: each such name started the list again, to the line's
    # end, for every one of them (a line of 60,000 characters took 85 s)
    report = account("Read in full (SRC-1, a/SRC-1, b/SRC-1, c.js).")
    (citation,) = report.records[0].citations
    assert citation.paths == ("a/SRC-1", "b/SRC-1", "c.js")
    # a source after the list's paths still starts its own
    two = account("Read in full (SRC-1, a.js, SRC-2, b.js).").records[0].citations
    assert [(c.source, c.paths) for c in two] == [("SRC-1", ("a.js",)), ("SRC-2", ("b.js",))]
