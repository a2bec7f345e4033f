"""What a report's writing adds around a quote (a Markdown fence, HTML entities, zero-width
characters) is taken off before the quote is called fuzzy or missing; the verdict keys do not
change (normalize_quote is untouched). A real repository for each case."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from evidencekit import make_repo

from db.keys import quote_hash
from evidence.anchoring import Anchorer
from evidence.anchoring.rendered import DECOMPOSED_NOTE, diff_sides, rendered_away
from evidence.model import Anchor, Quote, Tier
from evidence.revision import Revision

WEB = (
    'function check(a, b) {\n  if (a < b && b > 0) {\n    return "a<b";\n  }\n  return a & b;\n}\n'
)
PAGE = "<p>a &lt; b</p>\n"


def anchored(
    tmp_path: Path, text: str, claimed: tuple[int, int] | None, path: str = "web.js"
) -> Anchor:
    repo = tmp_path / "repo"
    if not repo.exists():
        make_repo(repo, FILES)
    with Revision.open(repo) as revision:
        return Anchorer(revision).anchor(Quote(text, path, claimed, 1, 1, "RD-CMP-x", 0))


def verified_as(tmp_path: Path, text: str, path: str, lines: tuple[int, int], note: str) -> None:
    """``text`` is found at ``lines`` of ``path``, `normalized` with ``note`` alone."""
    anchor = anchored(tmp_path, text, lines, path)
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, lines, True)
    assert anchor.notes == (note,)


@pytest.mark.parametrize(
    ("quote", "claimed", "lines", "note"),
    [
        (
            "```js\nfunction check(a, b) {\n  if (a < b && b > 0) {\n```",
            (1, 2),
            (1, 2),
            "a Markdown fence",
        ),
        ("~~~\n    return a & b;\n~~~", None, (5, 5), "a Markdown fence"),
        ("if (a &lt; b &amp;&amp; b &gt; 0) {", (2, 2), (2, 2), "HTML entities"),
        ("return &quot;a&lt;b&quot;;", (3, 3), (3, 3), "HTML entities"),
        ("return\u200b a &amp; b;", (5, 5), (5, 5), "HTML entities and zero-width characters"),
        (
            "> function check(a, b) {\n>   if (a < b && b > 0) {",
            (1, 2),
            (1, 2),
            "Markdown quote marks",
        ),
        (">     return a & b;", (5, 5), (5, 5), "Markdown quote marks"),
        ('return \\"a<b\\";', (3, 3), (3, 3), "Markdown escapes"),  # as pandoc exports it
        ("function check\\(a, b\\) \\{", (1, 1), (1, 1), "Markdown escapes"),
    ],
)
def test_what_rendering_added_is_taken_off(
    tmp_path: Path, quote: str, claimed: tuple[int, int] | None, lines: tuple[int, int], note: str
) -> None:
    anchor = anchored(tmp_path, quote, claimed)
    assert (anchor.match, anchor.lines) == (Tier.NORMALIZED, lines)
    assert anchor.range_ok is (None if claimed is None else True)
    assert anchor.notes == (f"rendered: {note} taken off",)


def test_a_fenced_quote_that_elides_is_verified_with_both_notes(tmp_path: Path) -> None:
    quote = "```js\nfunction check(a, b) {\n  ...\n  return a & b;\n```"
    anchor = anchored(tmp_path, quote, (1, 5))
    assert (anchor.match, anchor.lines, anchor.quote.text) == (Tier.NORMALIZED, (1, 5), quote)
    assert anchor.notes[-1] == "rendered: a Markdown fence taken off"
    assert anchor.notes[0].startswith("elided: “...” leaves out lines 2-4")


def test_entities_in_the_source_itself_are_matched_as_written(tmp_path: Path) -> None:
    anchor = anchored(tmp_path, "<p>a &lt; b</p>", (1, 1), "page.html")
    assert (anchor.match, anchor.notes) == (Tier.EXACT, ())


def test_a_misquote_stays_one_once_cleaned(tmp_path: Path) -> None:
    assert not anchored(tmp_path, "if (a &lt;= b) {", (2, 2)).match.verified


def test_plain_text_has_nothing_rendered_and_keys_stay_as_they_were() -> None:
    assert rendered_away("if (a < b) {\n  x();\n}") is None
    assert rendered_away("```\n```") is None  # a fence around nothing
    # the key of a verdict on such a quote is what it was: the normalization it hashes is unchanged
    assert quote_hash("a &lt; b") != quote_hash("a < b")


def test_a_quote_in_decomposed_letters_is_found_in_a_source_of_composed_ones(
    tmp_path: Path,
) -> None:
    """Accents as separate marks (NFD: copied from a macOS file name, a PDF, some terminals) are
    the same letters to a reader: found, noted, the verdict key as before."""
    for text, lines in (
        ('return "Café crème, déjà vu"', (2, 2)),
        ('LABEL = "한국어 안내"', (4, 4)),
    ):
        decomposed = unicodedata.normalize("NFD", text)
        assert decomposed != text
        verified_as(tmp_path, decomposed, "greet.py", lines, DECOMPOSED_NOTE)
        # the key is the quote as written
        assert anchored(tmp_path, decomposed, lines, "greet.py").quote.text == decomposed
    wrong = unicodedata.normalize("NFD", 'return "Café crème, déjà lu"')
    assert anchored(tmp_path, wrong, (2, 2), "greet.py").match is Tier.FUZZY


@pytest.mark.parametrize(
    ("quote", "lines", "read_as"),
    [
        ('exec git log –oneline –no-merges – "$@"', (2, 2), "– as --"),  # pandoc: -- en
        ('exec git log —oneline —no-merges — "$@"', (2, 2), "— as --"),  # SmartyPants, Word
        ("count=$((count – 1))", (3, 3), "– as -"),  # Word: a spaced hyphen
        ('exec git log –oneline –no-merges — "$@"', (2, 2), "– as --, — as --"),
    ],
)
def test_typographic_dashes_are_read_back_as_the_hyphens_they_were(
    tmp_path: Path, quote: str, lines: tuple[int, int], read_as: str
) -> None:
    """A word processor or Markdown's smart typography makes `--` an en or em dash and a spaced
    `-` an en dash: code quoted through one is found, and the note says how it was read."""
    note = f"rendered: typographic dashes read back as hyphens ({read_as})"
    verified_as(tmp_path, quote, "run.sh", lines, note)


def test_dashes_of_the_source_itself_and_misquotes_with_dashes_stay_as_they_are(
    tmp_path: Path,
) -> None:
    own = anchored(tmp_path, 'echo "pages 3–5"', (4, 4), "run.sh")
    assert (own.match, own.notes) == (Tier.EXACT, ())
    assert anchored(tmp_path, "count=$((count – 2))", (3, 3), "run.sh").match is Tier.FUZZY
    fenced = "```sh\ncount=$((count – 1))\n```"
    note = "rendered: a Markdown fence taken off; typographic dashes read back as hyphens (– as -)"
    verified_as(tmp_path, fenced, "run.sh", (3, 3), note)


def test_a_quote_copied_from_a_pdf_has_its_ligatures_and_minus_signs_undone(
    tmp_path: Path,
) -> None:
    typeset = "ﬁelds = ﬁlter(ﬂags, offset \u2212 1)\nlast = ﬁelds[\u22121]"
    note = "rendered: ligatures and typeset hyphens or minus signs taken off"
    verified_as(tmp_path, typeset, "pick.py", (1, 2), note)


@pytest.mark.parametrize(
    ("quote", "lines", "side"),
    [
        ("+def load(path):\n+    if not os.path.exists(path):", (3, 4), "after"),
        (
            "@@ -3,3 +3,3 @@\n-def load(path):\n+def read(path):\n"
            "     if not os.path.exists(path):",
            (3, 4),
            "before",  # the cited revision is the one before the change
        ),
        (
            " def load(path):\n+    if not os.path.exists(path):\n+        return None\n"
            "-    return open(path).read()\n+    with open(path) as f:",
            (3, 6),
            "after",
        ),
    ],
)
def test_a_quote_copied_from_a_diff_is_found_by_the_side_the_revision_holds(
    tmp_path: Path, quote: str, lines: tuple[int, int], side: str
) -> None:
    note = f"rendered: quoted from a diff: its lines {side} the change"
    verified_as(tmp_path, quote, "load.py", lines, note)


def test_what_is_read_as_a_diff_and_a_list_that_is_no_side_of_the_file(tmp_path: Path) -> None:
    assert anchored(tmp_path, "- one item\n- another", (3, 4), "load.py").match is Tier.MISSING
    assert diff_sides("- one item\n- another") == [
        (" one item\n another", "quoted from a diff: its lines before the change")
    ]
    assert diff_sides("plain line\n+ added") == []  # not every line marked
    assert diff_sides(" context only\n more context") == []  # no change marked


def test_arrows_and_signs_an_editor_made_of_code_are_read_back(tmp_path: Path) -> None:
    typed = "while (p→next ≠ NULL && p→len ≥ 2) {\n    p = p→next;"
    note = "rendered: typographic arrows or signs (→ for ->) taken off"
    verified_as(tmp_path, typed, "list.c", (1, 2), note)
    assert not anchored(tmp_path, "while (p→prev ≠ NULL", (1, 1), "list.c").match.verified


GREETING = 'def greet():\n    return "Café crème, déjà vu"\n\nLABEL = "한국어 안내"\n'
SCRIPT = (
    "#!/bin/sh\n"
    'exec git log --oneline --no-merges -- "$@"\n'
    "count=$((count - 1))\n"
    'echo "pages 3–5"\n'
)
LOADER = (
    "import os\n\ndef load(path):\n    if not os.path.exists(path):\n        return None\n"
    "    with open(path) as f:\n        return f.read()\n"
)
#: the files of every test's repository
FILES = {
    "web.js": WEB,
    "page.html": PAGE,
    "greet.py": GREETING,
    "run.sh": SCRIPT,
    "pick.py": "fields = filter(flags, offset - 1)\nlast = fields[-1]\n",
    "load.py": LOADER,
    "list.c": "while (p->next != NULL && p->len >= 2) {\n    p = p->next;\n}\n",
}
