"""Quotes of a Markdown document as it renders (what a reader copies from the page): verified
(`normalized`) at the file's own lines once links are read as their text and tags, table bars,
list, heading and blockquote marks are left out; code is left as written; other files are not
read so. A real repository for each case."""

from __future__ import annotations

from pathlib import Path

import pytest
from evidencekit import make_repo

from evidence.anchoring import Anchorer
from evidence.anchoring.markdown_text import markdown_text
from evidence.model import Anchor, Quote, Tier
from evidence.revision import Revision

GUIDE = """\
# Operating the archive #

The archive **never** deletes a note. See [the retention policy](retention.md "policy") for
how long notes are kept, and the [`purge`](../tools/purge.py) tool for the one exception.

| setting | default | meaning |
|:---|---:|---|
| `max_batch` | 50 | notes sent in one request |
| `retry_limit` | 5 | attempts before a batch is \\| dropped |

> **Note:** a dropped batch stays in the outbox until an operator retries it.

* Tokens are read once at start.
* Rotating a token needs a restart.<br>
  Plan the restart for a <em>quiet</em> hour &amp; say so.

1. Run `<tool> --check` first; see <https://example.com/ci> and [the FAQ][faq].

[faq]: https://example.com/faq

```html
<a href="x">[kept](as written)</a>
```
"""
NOTE = "markdown: read as it renders (links as their text; no tags, table bars, marks)"


def anchored(tmp_path: Path, text: str, path: str = "docs/guide.md") -> Anchor:
    repo = tmp_path / "repo"
    if not repo.exists():
        make_repo(repo, {"docs/guide.md": GUIDE, "docs/guide.txt": GUIDE})
    with Revision.open(repo) as revision:
        return Anchorer(revision).anchor(Quote(text, path, None, 1, 1, "MD-CLM-x", 0))


@pytest.mark.parametrize(
    ("quote", "lines"),
    [
        (
            "The archive never deletes a note. See the retention policy for how long notes are "
            "kept, and the purge tool for the one exception.",
            (3, 4),
        ),
        ("max_batch 50 notes sent in one request", (8, 8)),
        ("attempts before a batch is | dropped", (9, 9)),
        ("Rotating a token needs a restart. Plan the restart for a quiet hour & say so.", (14, 15)),
        ("Run <tool> --check first; see https://example.com/ci and the FAQ.", (17, 17)),
    ],
)
def test_what_the_page_shows_is_verified_at_its_lines(
    tmp_path: Path, quote: str, lines: tuple[int, int]
) -> None:
    anchor = anchored(tmp_path, quote)
    assert (anchor.match, anchor.lines) == (Tier.NORMALIZED, lines)
    assert anchor.notes == (NOTE,)


def test_a_misquote_of_the_page_is_fuzzy_without_the_markup_in_its_diff(tmp_path: Path) -> None:
    anchor = anchored(tmp_path, "See the retention rules for how long notes are kept")
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (3, 4))
    differing = "".join(part.source for part in anchor.diff if part.op != "equal")
    assert "retention.md" not in differing and "](" not in differing
    assert anchor.notes == (NOTE,)


def test_markdown_as_written_and_other_files_are_matched_as_before(tmp_path: Path) -> None:
    written = anchored(tmp_path, "See [the retention policy](retention.md")
    assert (written.match, written.notes) == (Tier.EXACT, ())
    text_file = anchored(tmp_path, "See the retention policy for", "docs/guide.txt")
    assert text_file.match is not Tier.NORMALIZED and text_file.notes == ()


def test_code_blocks_and_spans_are_left_as_written() -> None:
    rendered = markdown_text(GUIDE)
    assert rendered is not None
    lines = rendered.split("\n")
    assert len(lines) == len(GUIDE.split("\n"))  # every line where the file has it
    assert lines[0] == "Operating the archive"
    assert lines[6] == "" and lines[18] == ""  # a table's rule, a link's definition
    assert lines[21] == '<a href="x">[kept](as written)</a>'  # inside the fence
    assert lines[20] == lines[22] == ""  # the fence's own lines
    assert lines[16].startswith("Run `<tool> --check` first")
    assert markdown_text("plain words only\n") is None


def test_a_page_quoted_under_another_files_name_is_found_in_its_own(tmp_path: Path) -> None:
    # cited under the wrong file: "found in" the document it is in, read as it renders
    repo = tmp_path / "repo"
    make_repo(repo, {"docs/guide.md": GUIDE, "docs/other.md": "# Other\n\nNothing here.\n"})
    quote = Quote("max_batch 50 notes sent in one request", "docs/other.md", None, 1, 1, "X", 0)
    with Revision.open(repo) as revision:
        (anchor,) = Anchorer(revision).anchor_many([quote])
        alone = Anchorer(revision).anchor(quote)
    assert not anchor.verified
    assert [(p.path, p.lines, p.match) for p in anchor.elsewhere] == [
        ("docs/guide.md", (8, 8), Tier.NORMALIZED)
    ]
    assert alone.elsewhere == anchor.elsewhere


def test_emphasis_and_struck_text_are_read_as_their_words() -> None:
    # each searched for within a run free of its own marks: a long line of them is one pass
    text = "a __bold__ and _em_ and ~~gone~~ but snake_case_name and __init__.py\n"
    assert markdown_text(text) == "a bold and em and gone but snake_case_name and init.py\n"


def test_shortcut_references_and_footnotes_are_read_as_the_page_shows_them() -> None:
    doc = (
        "See [the Guide] and ![logo], not [undefined] nor [ ] a box, and a note[^1].\n"
        "\n"
        "[the  guide]: guide.md\n"
        "[logo]: logo.png\n"
        "[^1]: The note's own text.\n"
    )
    rendered = markdown_text(doc)
    assert rendered is not None
    assert rendered.split("\n") == [
        "See the Guide and logo, not [undefined] nor [ ] a box, and a note[^1].",
        "",
        "",
        "",
        "The note's own text.",
        "",
    ]
