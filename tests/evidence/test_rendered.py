"""What a report's writing adds around a quote (a Markdown fence, HTML entities, zero-width
characters) is taken off before the quote is called fuzzy or missing; the verdict keys do not
change (normalize_quote is untouched). A real repository for each case."""

from __future__ import annotations

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
        make_repo(repo, {"web.js": WEB, "page.html": PAGE})
    with Revision.open(repo) as revision:
        return Anchorer(revision).anchor(Quote(text, path, claimed, 1, 1, "RD-CMP-x", 0))


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
    import unicodedata

    repo = tmp_path / "repo"
    greeting = 'def greet():\n    return "Café crème, déjà vu"\n\nLABEL = "한국어 안내"\n'
    make_repo(repo, {"greet.py": greeting})
    with Revision.open(repo) as revision:
        anchorer = Anchorer(revision)
        for text, lines in (
            ('return "Café crème, déjà vu"', (2, 2)),
            ('LABEL = "한국어 안내"', (4, 4)),
        ):
            decomposed = unicodedata.normalize("NFD", text)
            assert decomposed != text
            quote = Quote(decomposed, "greet.py", lines, 1, 1, "RD-CMP-x", 0)
            anchor = anchorer.anchor(quote)
            assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, lines, True)
            assert anchor.notes == (DECOMPOSED_NOTE,)
            assert anchor.quote.text == decomposed  # the key is the quote as written
        # a misquote in decomposed letters is still one
        wrong = Quote(
            unicodedata.normalize("NFD", 'return "Café crème, déjà lu"'),
            "greet.py",
            (2, 2),
            1,
            1,
            "RD-CMP-x",
            0,
        )
        assert anchorer.anchor(wrong).match is Tier.FUZZY


SCRIPT = (
    "#!/bin/sh\n"
    'exec git log --oneline --no-merges -- "$@"\n'
    "count=$((count - 1))\n"
    'echo "pages 3–5"\n'
)


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
    repo = tmp_path / "repo"
    make_repo(repo, {"run.sh": SCRIPT})
    with Revision.open(repo) as revision:
        anchor = Anchorer(revision).anchor(Quote(quote, "run.sh", lines, 1, 1, "RD-CMP-x", 0))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, lines, True)
    assert anchor.notes == (f"rendered: typographic dashes read back as hyphens ({read_as})",)


def test_dashes_of_the_source_itself_and_misquotes_with_dashes_stay_as_they_are(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    make_repo(repo, {"run.sh": SCRIPT})
    with Revision.open(repo) as revision:
        anchorer = Anchorer(revision)
        own = anchorer.anchor(Quote('echo "pages 3–5"', "run.sh", (4, 4), 1, 1, "RD-CMP-x", 0))
        assert (own.match, own.notes) == (Tier.EXACT, ())
        wrong = Quote("count=$((count – 2))", "run.sh", (3, 3), 1, 1, "RD-CMP-x", 0)
        assert anchorer.anchor(wrong).match is Tier.FUZZY
        fenced = Quote("```sh\ncount=$((count – 1))\n```", "run.sh", (3, 3), 1, 1, "RD-CMP-x", 0)
        assert anchorer.anchor(fenced).notes == (
            "rendered: a Markdown fence taken off; typographic dashes read back as hyphens"
            " (– as -)",
        )


def test_a_quote_copied_from_a_pdf_has_its_ligatures_and_minus_signs_undone(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    make_repo(repo, {"pick.py": "fields = filter(flags, offset - 1)\nlast = fields[-1]\n"})
    with Revision.open(repo) as revision:
        anchorer = Anchorer(revision)
        typeset = "ﬁelds = ﬁlter(ﬂags, offset \u2212 1)\nlast = ﬁelds[\u22121]"
        anchor = anchorer.anchor(Quote(typeset, "pick.py", (1, 2), 1, 1, "RD-CMP-x", 0))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, (1, 2), True)
    assert anchor.notes == ("rendered: ligatures and typeset hyphens or minus signs taken off",)


LOADER = (
    "import os\n\ndef load(path):\n    if not os.path.exists(path):\n        return None\n"
    "    with open(path) as f:\n        return f.read()\n"
)


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
    repo = tmp_path / "repo"
    make_repo(repo, {"load.py": LOADER})
    with Revision.open(repo) as revision:
        anchor = Anchorer(revision).anchor(Quote(quote, "load.py", lines, 1, 1, "RD-CMP-x", 0))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, lines, True)
    assert anchor.notes == (f"rendered: quoted from a diff: its lines {side} the change",)


def test_what_is_read_as_a_diff_and_a_list_that_is_no_side_of_the_file(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    make_repo(repo, {"load.py": LOADER})
    with Revision.open(repo) as revision:
        listed = Quote("- one item\n- another", "load.py", (3, 4), 1, 1, "RD-CMP-x", 0)
        assert Anchorer(revision).anchor(listed).match is Tier.MISSING
    assert diff_sides("- one item\n- another") == [
        (" one item\n another", "quoted from a diff: its lines before the change")
    ]
    assert diff_sides("plain line\n+ added") == []  # not every line marked
    assert diff_sides(" context only\n more context") == []  # no change marked


def test_arrows_and_signs_an_editor_made_of_code_are_read_back(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    code = "while (p->next != NULL && p->len >= 2) {\n    p = p->next;\n}\n"
    make_repo(repo, {"list.c": code})
    with Revision.open(repo) as revision:
        anchorer = Anchorer(revision)
        typed = "while (p→next ≠ NULL && p→len ≥ 2) {\n    p = p→next;"
        anchor = anchorer.anchor(Quote(typed, "list.c", (1, 2), 1, 1, "RD-CMP-x", 0))
        assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, (1, 2), True)
        assert anchor.notes == ("rendered: typographic arrows or signs (→ for ->) taken off",)
        wrong = Quote("while (p→prev ≠ NULL", "list.c", (1, 1), 1, 1, "RD-CMP-x", 0)
        assert not anchorer.anchor(wrong).match.verified
