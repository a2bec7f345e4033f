"""The diff view lists each difference in words, so it reads without colour."""

from __future__ import annotations

from pathlib import Path

from evidence.anchoring import anchor_all
from evidence.model import Anchor, DiffPart, FileState, Quote, ReportSet, Tier
from evidence.revision import Revision
from screens.widgets.quote_diff import differences, quote_diff


def test_one_token_misquote_is_listed_with_both_sides(
    sample: Path, sample_reports: ReportSet, cited: str
) -> None:
    with Revision.open(sample, cited) as revision:
        anchors = anchor_all(sample_reports, revision)
    fuzzy = [
        anchor
        for quote, anchor in anchors.items()
        if anchor.match is Tier.FUZZY and quote.path == "worker/src/retry.js"
    ]
    assert len(fuzzy) == 1
    listed = differences(fuzzy[0])
    assert len(listed) == 1
    assert "quote «5», source «4»" in listed[0]
    assert "BASE_DELAY_MS" in listed[0]
    assert "quote «5», source «4»" in quote_diff(fuzzy[0].quote, fuzzy[0]).plain


def test_control_characters_in_a_difference_are_made_visible() -> None:
    quote = Quote("x", "a.py", None, 1, 1, "R", 0)
    anchor = Anchor(
        quote,
        FileState.OK,
        Tier.FUZZY,
        90.0,
        (1, 1),
        diff=(DiffPart("equal", "a = ", "a = "), DiffPart("replace", "\x1b[31m", "b")),
    )
    (line,) = differences(anchor)
    assert "\x1b" not in line
    assert "source «b»" in line


def test_a_difference_at_the_quotes_start_says_so() -> None:
    quote = Quote("x", "a.py", None, 1, 1, "R", 0)
    parts = (DiffPart("delete", "It reads:", ""), DiffPart("equal", " a = 1", " a = 1"))
    anchor = Anchor(quote, FileState.OK, Tier.FUZZY, 80.0, (1, 1), diff=parts)
    assert differences(anchor) == ["  at the start: quote «It reads:», source nothing"]
    later = (*parts, DiffPart("replace", "2", "3"))
    assert differences(later)[1] == "  after “…a = 1”: quote «2», source «3»"


def test_d_on_an_elided_or_numbered_quote_says_what_was_taken_off(tmp_path: Path) -> None:
    # not what normalizing undid: "..." and line numbers are neither markup nor bullets
    from screenkit import git

    from evidence.anchoring import Anchorer

    repo = tmp_path / "repo"
    repo.mkdir()
    source = "def f(x):\n    a = 1\n    b = 2\n    return x\n"
    (repo / "f.py").write_text(source, encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", "f.py")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "f")
    quotes = [
        Quote("def f(x):\n    ...\n    return x", "f.py", None, 1, 1, "R", 0),
        Quote("1\tdef f(x):\n2\t    a = 1", "f.py", None, 1, 1, "R", 1),
        Quote("```py\n    b = 2\n```", "f.py", None, 1, 1, "R", 2),
    ]
    with Revision.open(repo) as revision:
        elided, numbered, fenced = (Anchorer(revision).anchor(quote) for quote in quotes)
    shown = quote_diff(elided.quote, elided, passage=source).plain
    assert "elided: “...” leaves out lines 2-3" in shown
    assert "backticks" not in shown and "list markers" not in shown
    shown = quote_diff(numbered.quote, numbered, passage="def f(x):\n    a = 1").plain
    assert "numbered: line numbers 1-2 (cat -n) taken off" in shown
    shown = quote_diff(fenced.quote, fenced, passage="    b = 2").plain
    assert "rendered: a Markdown fence taken off" in shown


def test_d_on_a_quote_found_elsewhere_in_its_file_says_where_and_what_was_claimed() -> None:
    # "! exact 100" alone does not say why a quote that matches is flagged
    claimed = Quote("a = 1", "a.py", (5, 5), 1, 1, "R", 0)
    moved = Anchor(claimed, FileState.OK, Tier.EXACT, 100.0, (4, 4), ((4, 4),), range_ok=False)
    shown = quote_diff(claimed, moved).plain
    assert "matches the source (exactly)" in shown
    assert "at lines 4, not the 5 the report claims" in shown
    right = moved._replace(lines=(5, 5), occurrences=((5, 5),), range_ok=True)
    assert "claims" not in quote_diff(claimed, right).plain
    unclaimed = claimed._replace(claimed=None)
    places = tuple((n, n) for n in range(1, 15, 2))
    several = Anchor(unclaimed, FileState.OK, Tier.EXACT, 100.0, (1, 1), places)
    shown = quote_diff(unclaimed, several).plain
    assert "in 7 places (lines 1, 3, 5, 7, 9 and 2 more) and no range claimed" in shown
