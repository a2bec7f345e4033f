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
