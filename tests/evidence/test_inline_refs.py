"""Inline code that the file it is in follows (`` `code` (src/save.py:4) ``, `` `name` in
`src/save.py:3` ``) is a quote of that file: a report written so was read as quoting nothing,
and `assay check` passed it having checked nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from evidencekit import make_repo
from test_named_fences import quotes_of
from test_reports_markdown import HEAD, SAVE

from evidence.reports.parser import parse_report
from tui.cli import cli

BLOB = "https://github.com/o/r/blob/" + "0" * 40


@pytest.mark.parametrize(
    ("line", "text", "path", "claimed"),
    [
        (
            "It writes with `out.write(content)` (src/save.py:5).",
            "out.write(content)",
            None,
            (5, 5),
        ),
        (
            "It writes with `out.write(content)` (`src/save.py:5`).",
            "out.write(content)",
            None,
            (5, 5),
        ),
        ("The handler is `save` in `src/save.py:3`.", "save", None, (3, 3)),
        # a link relative to the report: where it goes, not its text, names the file
        (
            "It writes `out.write(content)` ([save.py:5](src/save.py#L5)).",
            "out.write(content)",
            None,
            (5, 5),
        ),
        ("The handler is `save` at src/save.py line 3, unguarded.", "save", None, (3, 3)),
        (
            'It opens `open(path, "w")` (see src/save.py, lines 4-4).',
            'open(path, "w")',
            None,
            (4, 4),
        ),
        ("It opens ``a `b` c`` (src/save.py).", "a `b` c", None, None),
        ("Saved by `save` (save.py:3).", "save", "save.py", (3, 3)),
        ("Saved by `save` ([save](" + BLOB + "/src/save.py#L3)).", "save", None, (3, 3)),
        ("Saved by `save` ([src/save.py:3](src/save.py#L3)).", "save", None, (3, 3)),
        ("Renamed `store` to `save` (src/save.py:3).", "save", None, (3, 3)),
        ("It is `save` (lines 3-4 of src/save.py).", "save", None, (3, 4)),
        ("It is `save` (line 3 in `src/save.py`).", "save", None, (3, 3)),
        ("Saved by [`def save(path, content):`](" + BLOB + "/src/save.py#L3).", None, None, (3, 3)),
        ("Saved by [`save`](src/save.py#L3-L4), then returned.", "save", None, (3, 4)),
    ],
)
def test_a_code_span_the_file_follows_is_a_quote_of_it(
    line: str, text: str | None, path: str | None, claimed: tuple[int, int] | None
) -> None:
    (quote,) = quotes_of(line)
    text = text or "def save(path, content):"
    assert (quote.text, quote.path, quote.claimed) == (text, path or "src/save.py", claimed)
    assert quote.inline and quote.report_line == quote.text_line


@pytest.mark.parametrize(
    "line",
    [
        "The module `src/save.py` (line 3) saves.",  # a path named as code
        "The module `save.py` (src/save.py:3) saves.",  # the file's own name
        "It returns `ok` (src/save.py:8).",  # too short to be found anywhere in particular
        "It is `PR-RTE-save` (src/save.py).",  # a record id
        "It calls `save` (see above).",  # no file named
        "It calls `save` in the handler.",
        "It reads `version` (from conf.py).",  # where the value came from, not where it is
        "It calls `save` (src/).",  # a folder
        "It calls `state.save` (`state.ReviewState`).",  # a name in code, no file
        "It calls `save` (src/save.py:3 and src/other.py:9).",
        "It posts `charge(card)` (api.stripe.com:443).",  # a host and its port, no file
    ],
)
def test_a_code_span_that_names_no_file_is_no_quote(line: str) -> None:
    assert quotes_of(line) == []


def test_spans_inside_a_fence_or_on_a_quotes_line_are_not_read() -> None:
    body = "\n".join(
        [
            "```python",
            "x = `save` (src/save.py:3)",
            "```",
            "",
            "It saves: `save` (src/save.py:3) --- src/save.py:3",
        ]
    )
    (quote,) = quotes_of(body)
    assert quote.text == "It saves: `save` (src/save.py:3)"  # the marker's, as written


def test_the_line_stays_prose_its_citations_and_mentions_read() -> None:
    body = "Saving runs `save(path, content)` (src/save.py:3) for PR-RTE-load (SRC-1, src/save.py)."
    report = parse_report(HEAD.format(rev="0" * 40, body=body), "r.md")
    record = report.record("PR-RTE-save")
    assert record is not None
    assert [q.text for q in record.quotes] == ["save(path, content)"]
    assert [c.paths for c in record.citations] == [("src/save.py",)]
    assert "PR-RTE-load" in record.references
    assert not report.diagnostics


def test_check_verifies_a_span_and_calls_a_wrong_line(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    rev = make_repo(repo, {"src/save.py": SAVE})
    body = "\n".join(
        [
            "It writes with `out.write(content)` (src/save.py:5).",
            "",
            "The function is `def save(path, content):` (src/save.py:4).",
        ]
    )
    report = tmp_path / "r.md"
    report.write_text(HEAD.format(rev=rev, body=body), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--repo", str(repo), str(report)])
    assert result.exit_code == 1, result.stdout
    assert "! src/save.py:3  PR-RTE-save  exact, claimed 4" in result.stdout
    assert "✓ src/save.py:5  PR-RTE-save  exact" in result.stdout
    assert "2 quotes: 2 exact" in result.stdout


# --- tables: a row of a file and its code --------------------------------------------------

TABLE = "| Function | Location |\n| --- | --- |\n{rows}"


@pytest.mark.parametrize(
    ("row", "text", "claimed"),
    [
        ("| `save` | src/save.py:3 |", "save", (3, 3)),
        ("| `out.write(content)` | `src/save.py:5` |", "out.write(content)", (5, 5)),
        ("| src/save.py:5 | `out.write(content)` |", "out.write(content)", (5, 5)),
        (f"| `save` | [save.py:3]({BLOB}/src/save.py#L3) |", "save", (3, 3)),
        ("| `os.makedirs` | src/save.py |", "os.makedirs", None),  # a dotted name is code
        ("`save` | src/save.py:3", "save", (3, 3)),  # outer pipes left out
        ("| `save` | [src/save.py](src/save.py) |", "save", None),
        (r"| `a \| b` | src/save.py:3 |", "a | b", (3, 3)),  # GFM: a pipe in a cell
    ],
)
def test_a_table_row_of_code_and_its_file_is_a_quote(
    row: str, text: str, claimed: tuple[int, int] | None
) -> None:
    (quote,) = quotes_of("Saving:\n\n" + TABLE.format(rows=row))
    assert (quote.text, quote.path, quote.claimed) == (text, "src/save.py", claimed)
    assert quote.inline and quote.report_line == quote.text_line == 19


def test_a_line_column_gives_the_rows_lines() -> None:
    table = "| File | Lines | Code |\n|:--|--:|---|\n| src/save.py | 4-5 | `out.write(content)` |"
    (quote,) = quotes_of(table)
    assert (quote.path, quote.claimed) == ("src/save.py", (4, 5))


@pytest.mark.parametrize(
    "row",
    [
        "| `save` | N/A |",  # no file: a file has an extension or its lines
        "| `save` | read/write |",
        "| `POST /v1/charges` | api.stripe.com:443 |",  # a host
        "| `GET` | db.internal:5432 |",
        "| `old_save` | `save` | src/save.py:3 |",  # two code cells: which is where?
        "| `save` | src/save.py:3 | src/other.py:9 |",  # two files
        "| `save`, `load` | src/save.py:3 |",  # two spans in a cell
        "| `save` is called | src/save.py:3 |",  # prose around the code
        "| `src/save.py` | src/save.py:3 |",  # the path as code
    ],
)
def test_a_row_that_does_not_say_which_code_is_where_is_no_quote(row: str) -> None:
    assert quotes_of(TABLE.format(rows=row)) == []


def test_a_table_is_no_unattributed_code_nor_a_broken_marker() -> None:
    rows = "| `handler = ROUTES.get((method, path))` | dispatch() |\n| `x == y;` | f(a) |"
    report = parse_report(HEAD.format(rev="0" * 40, body=TABLE.format(rows=rows)), "r.md")
    assert report.diagnostics == ()
    record = report.record("PR-RTE-save")
    assert record is not None and record.quotes == ()


def test_check_reads_a_table_of_a_reports_code(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    rev = make_repo(repo, {"src/save.py": SAVE})
    rows = (
        "| `def save(path, content):` | src/save.py:3 |\n| `out.write(content)` | src/save.py:9 |"
    )
    report = tmp_path / "r.md"
    report.write_text(HEAD.format(rev=rev, body=TABLE.format(rows=rows)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--repo", str(repo), str(report)])
    assert result.exit_code == 1, result.stdout
    assert "✓ src/save.py:3  PR-RTE-save  exact" in result.stdout
    assert "! src/save.py:5  PR-RTE-save  exact, claimed 9" in result.stdout
    assert "not read" not in result.stdout
