"""Fenced blocks that name their file (in the fence's info string or a first-line comment) and
have no `--- path` marker are quotes of that file: a report written so was read as quoting
nothing, and `assay check` passed it having checked nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from evidencekit import make_repo
from test_reports_markdown import HEAD, SAVE

from evidence.model import Quote
from evidence.reports.parser import parse_report
from tui.cli import cli


def quotes_of(body: str) -> list[Quote]:
    report = parse_report(HEAD.format(rev="0" * 40, body=body), "r.md")
    record = report.record("PR-RTE-save")
    assert record is not None
    return list(record.quotes)


@pytest.mark.parametrize(
    ("info", "first", "claimed"),
    [
        ('python title="src/save.py"', "", None),
        ('python title="src/save.py" linenums="3"', "", (3, 4)),
        ("{.python file=src/save.py}", "", None),
        ("python:src/save.py", "", None),
        ("src/save.py:3-4", "", (3, 4)),
        ("python", "# src/save.py:3-4", (3, 4)),
        ("python", "// File: src/save.py lines 3 to 4", (3, 4)),
        ("", "<!-- src/save.py -->", None),
    ],
)
def test_a_block_that_names_its_file_is_a_quote_of_it(
    info: str, first: str, claimed: tuple[int, int] | None
) -> None:
    lines = ["def save(path, content):", '    with open(path, "w") as out:']
    body = "\n".join(["Saving opens the file:", "", f"```{info}", first, *lines, "```"])
    if not first:
        body = body.replace("\n\n```", "\n```", 1).replace(f"```{info}\n\n", f"```{info}\n")
    (quote,) = quotes_of(body)
    assert (quote.path, quote.claimed, quote.text) == ("src/save.py", claimed, "\n".join(lines))
    assert not quote.inline


@pytest.mark.parametrize(
    ("info", "first"),
    [
        ("python", "# saving a note to its file"),  # a comment in words, not a path
        ("Dockerfile", "FROM python:3.12"),  # a language named as a file is
        ("text", "src/save.py"),  # a path as the block's text, not in a comment
        ("python", "import os"),
    ],
)
def test_a_block_that_names_no_file_is_no_quote(info: str, first: str) -> None:
    assert quotes_of(f"```{info}\n{first}\ndef save(path, content):\n```") == []


def test_a_named_block_with_a_marker_is_one_quote_and_the_order_is_the_records() -> None:
    body = """The write comes last:

    return {"path": path, "ok": True} --- src/save.py:6

```python title="src/save.py"
import os
```

```python title="src/save.py"
def save(path, content):
```
--- src/save.py:3
```python
# src/save.py
    with open(path, "w") as out:
```
"""
    quotes = quotes_of(body)
    assert [(q.index, q.text.strip(), q.claimed) for q in quotes] == [
        (0, 'return {"path": path, "ok": True}', (6, 6)),
        (1, "import os", None),
        (2, '```python title="src/save.py"\ndef save(path, content):\n```', (3, 3)),
        (3, 'with open(path, "w") as out:', None),
    ]


@pytest.mark.parametrize(
    ("caption", "claimed"),
    [
        ("**src/save.py** (lines 3-4):", (3, 4)),
        ("`src/save.py`:", None),
        ("File: `src/save.py`, lines 3 to 4", (3, 4)),
        ("- `src/save.py:3-4`", (3, 4)),
        ("### src/save.py\n", None),  # one empty line between
        ("**Evidence:** `src/save.py:3-4`", (3, 4)),
        ("Code location: `src/save.py#L3-L4`", (3, 4)),
        ("See src/save.py:3-4:", (3, 4)),
        ("The save handler (`src/save.py:3-4`):", (3, 4)),
        ("> src/save.py:3-4", (3, 4)),
        (f"[save](https://github.com/o/r/blob/{'0' * 40}/src/save.py#L3-L4):", (3, 4)),
        ("_src/save.py_ (lines 3-4):", (3, 4)),  # emphasis, not the name's underscores
        ("The save handler (src/save.py, L3–L4):", (3, 4)),
    ],
)
def test_a_caption_line_that_is_only_a_path_names_the_block(
    caption: str, claimed: tuple[int, int] | None
) -> None:
    (quote,) = quotes_of(f"Saving:\n\n{caption}\n```python\ndef save(path, content):\n```")
    assert (quote.path, quote.claimed, quote.text) == (
        "src/save.py",
        claimed,
        "def save(path, content):",
    )
    assert quote.report_line == 17  # the caption's line


@pytest.mark.parametrize(
    "caption",
    [
        "The save is in src/save.py:",
        "(see src/save.py)",
        "Saving opens the file:",
        "src/save.py\n\n",
        "Example (Python):",  # no file
        "The handler, changed in a later commit (see src/save.py):",
        "Note: the save is in src/save.py",
    ],
)
def test_a_sentence_above_a_block_names_nothing(caption: str) -> None:
    assert quotes_of(f"Saving:\n\n{caption}\n```python\ndef save(path, content):\n```") == []


@pytest.mark.parametrize(
    ("caption", "claimed"),
    [("(src/save.py:3-4)", (3, 4)), ("Source: `src/save.py`", None), ("*src/save.py*", None)],
)
def test_a_caption_line_just_under_a_block_names_it(
    caption: str, claimed: tuple[int, int] | None
) -> None:
    (quote,) = quotes_of(f"Saving:\n\n```python\ndef save(path, content):\n```\n{caption}\n")
    assert (quote.path, quote.claimed, quote.text) == (
        "src/save.py",
        claimed,
        "def save(path, content):",
    )
    assert quote.report_line == 20  # the caption's line


def test_a_path_line_between_two_blocks_is_the_next_ones_caption() -> None:
    body = "```python\nimport os\n```\nsrc/save.py\n```python\ndef save(path, content):\n```"
    (quote,) = quotes_of(body)
    assert quote.text == "def save(path, content):"


def test_an_unclosed_fence_names_nothing() -> None:
    assert quotes_of('```python title="src/save.py"\ndef save(path, content):\n') == []


def test_check_anchors_named_blocks(tmp_path: Path) -> None:
    rev = make_repo(tmp_path / "repo", {"src/save.py": SAVE})
    body = """Saving:

```python title="src/save.py" linenums="3"
def save(path, content):
    with open(path, "w") as out:
```

```python
# src/save.py:6
    return {"path": path, "ok": False}
```

The write, under a caption (src/save.py:5):

        out.write(content)
"""
    report = tmp_path / "r.md"
    report.write_text(HEAD.format(rev=rev, body=body), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(report), "--repo", str(tmp_path / "repo")])
    assert result.exit_code == 1, result.output  # the misquote fails: it was not checked before
    assert "✓ src/save.py:3-4  PR-RTE-save  exact" in result.output
    assert "≈ src/save.py:7  PR-RTE-save  fuzzy 90, claimed 6" in result.output
    assert "r.md:23" in result.output  # the comment that names the file: where to look
    assert "✓ src/save.py:5  PR-RTE-save  exact" in result.output  # the block less 4 spaces


def test_a_block_of_code_that_names_no_file_says_it_is_not_checked() -> None:
    body = (
        "```python\nif event.kind == 'stop':\n    return None\n```\n\n"
        "```console\n$ assay check r.md\nOK\n```\n\n"  # a terminal's text: no quote meant
        "```bash\nassay check r.md\n```\n\n"  # a command to type, named nothing: the same
        "```python\n# src/save.py\nimport os\n```\n\n"  # named: a quote
        "```\n\n```\n"  # empty
    )
    report = parse_report(HEAD.format(rev="0" * 40, body=body), "r.md")
    noted = [d for d in report.diagnostics if "fenced code naming no file" in d.message]
    assert [d.line for d in noted] == [15]
    assert len(quotes_of(body)) == 1


@pytest.mark.parametrize(
    ("paragraph", "noted"),
    [
        ('    if event.kind == "stop": return None', True),  # Python: no "(" nor ";"
        ("    for note in notes: store.put(note)", True),
        ("    try: save(path)", True),
        ("If the token is missing the gate refuses the request.", False),  # a sentence
        ("The gate checks that token == expected before it answers", False),  # prose, one mark
    ],
)
def test_an_unmarked_paragraph_of_python_says_it_is_not_checked(
    paragraph: str, noted: bool
) -> None:
    from evidence.reports.contents import UNATTRIBUTED

    report = parse_report(HEAD.format(rev="0" * 40, body=f"The gate:\n\n{paragraph}"), "r.md")
    assert any(d.message == UNATTRIBUTED for d in report.diagnostics) is noted


@pytest.mark.parametrize("caption", ["**src/save.py** (lines 3-4):", "In `src/save.py:3-4`:"])
def test_an_indented_block_under_a_caption_is_a_quote_of_it(caption: str) -> None:
    code = ["def save(path, content):", '    with open(path, "w") as out:', "", "        pass"]
    body = "\n".join(
        ["Saving:", "", caption, "", *(f"    {line}" if line else "" for line in code)]
    )
    (quote,) = quotes_of(f"{body}\n\nThen it returns.")
    assert (quote.path, quote.claimed, quote.text) == ("src/save.py", (3, 4), "\n".join(code))
    assert (quote.report_line, quote.text_line) == (17, 19)


@pytest.mark.parametrize(
    "above",
    [
        "1. The first step saves the file.",  # a list item's paragraph
        "Saving opens the file:",
        "    src/save.py:3-4",  # a line of the block itself
    ],
)
def test_an_indented_block_under_prose_is_no_quote(above: str) -> None:
    assert quotes_of(f"Saving:\n\n{above}\n\n    def save(path, content):\n") == []


def test_an_indented_block_with_a_marker_is_the_markers_quote() -> None:
    body = "`src/save.py`:\n\n    def save(path, content):\n\n--- src/save.py:3"
    (quote,) = quotes_of(body)
    assert (quote.claimed, quote.report_line, quote.text_line) == ((3, 3), 19, 17)


@pytest.mark.parametrize(
    ("caption", "path"),
    [("**src/my_module.py**:", "src/my_module.py"), ("`src/__init__.py`:", "src/__init__.py")],
)
def test_a_captions_underscores_are_its_paths(caption: str, path: str) -> None:
    (quote,) = quotes_of(f"Saving:\n\n{caption}\n```python\ndef save(path, content):\n```")
    assert quote.path == path
