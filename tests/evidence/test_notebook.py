"""Quotes of a Jupyter notebook's cells, as the notebook shows them: verified (`normalized`, the
file holding them as JSON strings) at the file's own lines, a misquote fuzzy with a diff of the
code rather than of its escapes; a file that only looks like one is matched as before. A real
repository for each case."""

from __future__ import annotations

import json
from pathlib import Path

from evidencekit import make_repo

from evidence.anchoring import Anchorer
from evidence.anchoring.notebook import notebook_text
from evidence.model import Anchor, Quote, Tier
from evidence.revision import Revision

NOTEBOOK = {
    "cells": [
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": ["# Loading\n", 'We keep the "ok" rows only.\n'],
        },
        {
            "cell_type": "code",
            "execution_count": 1,
            "metadata": {},
            "outputs": [{"name": "stdout", "output_type": "stream", "text": ["42 rows\n"]}],
            "source": [
                "import pandas as pd\n",
                'df = pd.read_csv("events.csv")\n',
                'df = df[df["status"] == "ok"]\n',
                "print(len(df), 'rows')",
            ],
        },
        {
            "cell_type": "code",
            "execution_count": 2,
            "metadata": {},
            "outputs": [],
            "source": ['model.fit(df[["a", "b"]], df["y"])\n', 'model.save("out/model.pkl")'],
        },
    ],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}
# as Jupyter writes it: one string of a cell's source to a line
TEXT = json.dumps(NOTEBOOK, indent=1, ensure_ascii=False) + "\n"
NOTE = "notebook: its cells read as their text (the file holds each line as a JSON string)"


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


def anchored(
    tmp_path: Path, text: str, path: str = "analysis.ipynb", content: str = TEXT
) -> Anchor:
    repo = tmp_path / "repo"
    if not repo.exists():
        make_repo(repo, {path: content})
    with Revision.open(repo) as revision:
        return Anchorer(revision).anchor(Quote(text, path, None, 1, 1, "NB-CLM-x", 0))


def test_a_cells_lines_are_verified_at_the_files_lines(tmp_path: Path) -> None:
    anchor = anchored(tmp_path, 'df = pd.read_csv("events.csv")\ndf = df[df["status"] == "ok"]')
    first = line_of(TEXT, "read_csv")
    assert (anchor.match, anchor.lines) == (Tier.NORMALIZED, (first, first + 1))
    assert anchor.notes == (NOTE,)
    markdown = anchored(tmp_path, 'We keep the "ok" rows only.')  # a Markdown cell's text too
    assert (markdown.match, markdown.lines) == (Tier.NORMALIZED, (8, 8))


def test_a_quote_over_two_cells_collapsed_is_found_across_them(tmp_path: Path) -> None:
    anchor = anchored(tmp_path, 'print(len(df), \'rows\') model.fit(df[["a", "b"]], df["y"])')
    assert anchor.match is Tier.NORMALIZED
    assert anchor.lines == (line_of(TEXT, "print(len"), line_of(TEXT, "model.fit"))


def test_a_misquote_diffs_the_code_not_its_escapes(tmp_path: Path) -> None:
    anchor = anchored(tmp_path, 'df = df[df["status"] == "okay"]')
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (line_of(TEXT, '\\"status'),) * 2)
    changed = [(part.quote, part.source) for part in anchor.diff if part.op != "equal"]
    assert changed == [("ay", "")]  # before: every escaped quote and the ",\n" a difference
    assert anchor.notes == (NOTE,)


def test_what_is_no_notebook_is_matched_as_written(tmp_path: Path) -> None:
    # the same JSON under another name: its strings are data, quoted with their escapes
    anchor = anchored(tmp_path, 'df = pd.read_csv("events.csv")', "data.json")
    assert anchor.match is Tier.FUZZY
    assert anchor.notes == ()
    # a notebook saved on one line holds no string alone on a line
    assert notebook_text(json.dumps(NOTEBOOK)) is None


def test_strings_of_several_lines_and_bad_escapes_keep_every_line_in_place() -> None:
    text = '[\n "a\\nb",\n "\\q",\n "ok\\n"\n]'
    assert notebook_text(text) == "\n\n\nok\n"
